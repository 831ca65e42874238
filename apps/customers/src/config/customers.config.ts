import { ServiceConfig } from '@partner/config';

export class CustomersConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3104;
}

import { ServiceConfig } from '@partner/config';

export class InflowsConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3105;
}

import { ServiceConfig } from '@partner/config';

export class PixKeysConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3103;
}

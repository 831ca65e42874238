import { ServiceConfig } from '@partner/config';

export class EventsConfig extends ServiceConfig {
  override HEALTH_PORT: number = 3102;
}

import { IsISO8601 } from 'class-validator';

/** Readiness probe sent by the gateway to each service over Kafka: proves broker, consumer and database. */
export class PingQuery {
  @IsISO8601()
  sent_at!: string;
}

export interface PingResult {
  service: string;
  database: boolean;
}

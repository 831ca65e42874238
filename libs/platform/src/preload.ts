/**
 * Imported by every app's main.ts right after its tracing, before anything else loads @nestjs/common:
 * @nestjs/common loaded without building a date formatter (lib/lazy-date-time-format.ts).
 */
import { withLazyDateTimeFormat } from './lib/lazy-date-time-format';

withLazyDateTimeFormat(() => require('@nestjs/common') as unknown);

// The first import of main.ts: the instrumentations must be in place before http, pg and Fastify load.
import { startTracing } from '@partner/tracing';

startTracing('customers');

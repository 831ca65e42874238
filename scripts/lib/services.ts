// The catalogue file itself, not the @partner/contracts barrel: every script that starts a stack loads this
// module, and the barrel (the DTOs' validators, Swagger decorators...) costs about a second of CPU to load.
import { APP_NAMES, AppName, GATEWAY, pgSchemaOf, SERVICE_NAMES } from '../../libs/contracts/src/lib/services.catalogue';

/** The apps of the stack, in start order: the catalogue's (libs/contracts, services.catalogue.ts). */
export const SERVICES = SERVICE_NAMES;
export const APPS = APP_NAMES;
export type { AppName };
export { pgSchemaOf };

/**
 * Internal ports from a base, so a test stack can sit beside a dev stack: the gateway's operator port
 * (ADMIN_PORT) is the base itself, the services' health ports follow (base 3100: the catalogue's 3100-3105).
 */
export function healthPortOf(app: AppName, base: number): number {
  return app === GATEWAY.name ? base : base + SERVICES.indexOf(app) + 1;
}

/**
 * V8 heap settings every app runs with. Node's defaults size the young generation for throughput
 * (16 MB semi-spaces) and let the old one grow to a large share of the machine; six apps on one host
 * then hold about 1.2 GB after the bench. Measured with these: about 0.87 GB, no loss of throughput
 * (docs/operations.md: "Performance"). A live heap is ~40-60 MB per app under load. APP_NODE_OPTIONS overrides them.
 */
export const APP_NODE_FLAGS: string[] = (process.env.APP_NODE_OPTIONS ?? '--max-semi-space-size=2 --max-old-space-size=128').split(/\s+/).filter(Boolean);

export const repoRoot = (): string => require('node:path').resolve(__dirname, '..', '..');

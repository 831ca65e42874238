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
 * (docs/benchmarks/2026-11-22-throughput-and-latency.md). A live heap is ~40-60 MB per app under load. APP_NODE_OPTIONS overrides them.
 */
export const APP_NODE_FLAGS: string[] = (process.env.APP_NODE_OPTIONS ?? '--max-semi-space-size=2 --max-old-space-size=128')
  .split(/\s+/)
  .filter(Boolean);

/**
 * V8's semi-space size (MB; the young generation is three of them) of the apps every withdrawal crosses,
 * on top of APP_NODE_FLAGS (the Dockerfile's NODE_OPTIONS: 2 MB). Measured in the bench's open loop at
 * 200 withdrawals/s: with 8 MB their garbage collection took 39, 25 and 13 ms a second instead of 93, 59
 * and 33, the whole life of a withdrawal 6.75 ms of CPU instead of 7.54, POST p50 6.5 ms instead of 12.8,
 * for about 12 MB more RSS each (docs/adr/0023-a-larger-young-generation-on-the-withdrawal-path.md).
 * Apps not named keep 2 MB.
 */
export const SEMI_SPACE_MB: Readonly<Partial<Record<AppName, number>>> = { withdrawals: 8, events: 8, gateway: 8 };

/** The node flags an app runs with on top of the shared ones (its Compose command line holds the same). */
export const ownNodeFlagsOf = (app: AppName): string[] => {
  const mb = SEMI_SPACE_MB[app];
  return mb === undefined ? [] : [`--max-semi-space-size=${mb}`];
};

/**
 * The node flags of one app: the shared ones, then its own (a larger young generation on the withdrawal
 * path: SEMI_SPACE_MB; a later V8 flag wins). APP_NODE_OPTIONS, when set, is the whole of them.
 */
export function appNodeFlags(app: AppName): string[] {
  return process.env.APP_NODE_OPTIONS === undefined ? [...APP_NODE_FLAGS, ...ownNodeFlagsOf(app)] : APP_NODE_FLAGS;
}

/**
 * glibc malloc settings every app runs with (environment variables: the Dockerfile sets the same). Any
 * fixed threshold turns off glibc's dynamic mmap threshold, which after the first large block is freed
 * (module compilation at start-up) serves blocks up to 32 MB from the main heap and stops giving its free
 * top back: about 19 MB per app held for nothing, six apps under load 787 → 671 MB with no measurable CPU
 * cost (docs/adr/0022-memory-settings-of-the-apps.md). 131072 is glibc's own default, kept fixed.
 * APP_MALLOC_ENV overrides them ('' keeps glibc's dynamic behaviour).
 */
export const APP_MALLOC_ENV: Record<string, string> = Object.fromEntries(
  (process.env.APP_MALLOC_ENV ?? 'MALLOC_TRIM_THRESHOLD_=131072')
    .split(/\s+/)
    .filter(Boolean)
    .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
);

export const repoRoot = (): string => require('node:path').resolve(__dirname, '..', '..');

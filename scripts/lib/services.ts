import { readFileSync } from 'node:fs';
// The catalogue file itself, not the @partner/contracts barrel: every script that starts a stack loads this
// module, and the barrel (the DTOs' validators, Swagger decorators...) costs about a second of CPU to load.
import { APP_NAMES, AppName, GATEWAY, pgSchemaOf, SERVICE_NAMES } from '../../libs/contracts/src/lib/services.catalogue';

/** The apps of the stack, in start order: the catalogue's (libs/contracts, services.catalogue.ts). */
export const SERVICES = SERVICE_NAMES;
export const APPS = APP_NAMES;
export type { AppName };
export { pgSchemaOf };

export const repoRoot = (): string => require('node:path').resolve(__dirname, '..', '..');

/** Waits until `pid` is gone (a zombie, killed and not yet reaped, counts as gone); false after `deadlineMs`. */
export async function waitGone(pid: number, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true) return true;
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The TCP port in the variable `name`, else `fallback`; `min` 1 where 0 (any free port) makes no sense. */
export function envPort(name: string, fallback: number, min = 0): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < min || port > 65535) throw new Error(`${name} must be a TCP port, got "${value}"`);
  return port;
}

/** The test broker and database (npm test, npm run test:infra, the integration targets). */
export const TEST_KAFKA_PORT = Number(process.env.TEST_KAFKA_PORT ?? 19092);
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner_test';
/** The DICT test server of `npm start`, `npm test` and the chaos run (tools/dict-test-server starts it). */
export const DEV_DICT_PORT = envPort('DICT_TEST_PORT', 8443);
export const TEST_DICT_PORT = envPort('TEST_DICT_PORT', 18443);
export const CHAOS_DICT_PORT = envPort('CHAOS_DICT_PORT', 58443);
/** The Pix API test server (refunds) of `npm start`, `npm test` and the chaos run (tools/pix-api-test-server starts it). */
export const DEV_PIX_API_PORT = envPort('PIX_API_TEST_PORT', 8480);
export const TEST_PIX_API_PORT = envPort('TEST_PIX_API_PORT', 18480);
export const CHAOS_PIX_API_PORT = envPort('CHAOS_PIX_API_PORT', 58480);

/** The gateway's operator port (ADMIN_PORT) is the base, the services' health ports follow: a test stack sits beside a dev one. */
export function healthPortOf(app: AppName, base: number): number {
  return app === GATEWAY.name ? base : base + SERVICES.indexOf(app) + 1;
}

/** V8 heap settings of every app (ADR 0022); APP_NODE_OPTIONS replaces them. */
export const APP_NODE_FLAGS: string[] = (process.env.APP_NODE_OPTIONS ?? '--max-semi-space-size=2 --max-old-space-size=128')
  .split(/\s+/)
  .filter(Boolean);

/** A larger young generation (MB per semi-space) for the apps every withdrawal crosses (ADR 0023); the others keep 2. */
export const SEMI_SPACE_MB: Readonly<Partial<Record<AppName, number>>> = { withdrawals: 8, events: 8, gateway: 8 };

/** The node flags an app runs with on top of the shared ones (its Compose command line holds the same). */
export const ownNodeFlagsOf = (app: AppName): string[] => {
  const mb = SEMI_SPACE_MB[app];
  return mb === undefined ? [] : [`--max-semi-space-size=${mb}`];
};

/** One app's node flags: the shared ones, then its own (a later V8 flag wins); APP_NODE_OPTIONS, when set, is all of them. */
export function appNodeFlags(app: AppName): string[] {
  return process.env.APP_NODE_OPTIONS === undefined ? [...APP_NODE_FLAGS, ...ownNodeFlagsOf(app)] : APP_NODE_FLAGS;
}

/**
 * glibc malloc settings of every app, as the Dockerfile sets them: a fixed trim threshold keeps glibc from
 * holding freed memory (ADR 0022). APP_MALLOC_ENV overrides them ('' keeps glibc's dynamic behaviour).
 */
export const APP_MALLOC_ENV: Record<string, string> = Object.fromEntries(
  (process.env.APP_MALLOC_ENV ?? 'MALLOC_TRIM_THRESHOLD_=131072')
    .split(/\s+/)
    .filter(Boolean)
    .map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)]),
);

/** The apps of the stack, in start order, with the port each listens on by default (README: configuration). */
export const SERVICES = ['withdrawals', 'events', 'pix-keys', 'customers', 'inflows'] as const;
export const APPS = [...SERVICES, 'gateway'] as const;
export type AppName = (typeof APPS)[number];

/** Services' health ports are consecutive from a base, so a test stack can sit beside a dev stack. */
export function healthPortOf(app: AppName, base: number): number {
  return base + APPS.indexOf(app) + 1;
}

export const repoRoot = (): string => require('node:path').resolve(__dirname, '..', '..');

/**
 * `npm start`: the whole stack in the foreground on this machine: broker, database, migrations, build,
 * and the six apps; Ctrl-C stops everything. Prints the URL and the admin key.
 *
 * Sandbox by default (the sandbox routes on, a fresh admin key per run). `SANDBOX=false npm start` runs
 * it as production would: no sandbox routes, the operator key taken from ADMIN_API_KEY (32+ characters)
 * or one created earlier with `npm run cli -- operator-key create` (docs/api.md: "Operator API").
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildIsCurrent } from '../lib/build-stamp';
import { repoRoot } from '../lib/services';
import { kafka, migrate, RunningStack, serviceRoles, startApps } from './stack';
import { runOnRequiredNode } from '../lib/node-runtime';

runOnRequiredNode();

async function main(): Promise<void> {
  const root = repoRoot();
  const kafkaPort = Number(process.env.KAFKA_PORT ?? 9092);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner';
  const gatewayPort = Number(process.env.PORT ?? 3000);
  const sandbox = process.env.SANDBOX !== 'false';
  // Sandbox: a fresh admin key per run unless one is given; it is printed below, never stored in clear.
  // Outside the sandbox only the operator's own key (or keys already in the database) is used.
  const adminKey = process.env.ADMIN_API_KEY ?? (sandbox ? `adm_dev_${randomBytes(24).toString('base64url')}` : undefined);

  // Each app connects as its own role, allowed its own schema only (fresh passwords every start), unless
  // DB_ROLES=false (a database where this user may not create roles).
  const dbRoles = process.env.DB_ROLES === 'false' ? undefined : serviceRoles();

  kafka('start', kafkaPort);
  migrate(databaseUrl, dbRoles);
  // A warm restart skips the build when nothing changed since the last one (scripts/lib/build-stamp.ts).
  if (buildIsCurrent(root)) console.log('build: dist/ is up to date, not rebuilt');
  else execFileSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/build.ts')], { stdio: 'inherit' });

  const options = {
    kafkaPort,
    databaseUrl,
    gatewayPort,
    healthPortBase: Number(process.env.HEALTH_PORT_BASE ?? 3100),
    dbRoles,
    env: { SANDBOX: String(sandbox), ...(adminKey ? { ADMIN_API_KEY: adminKey } : {}), LOG_PRETTY: process.env.LOG_PRETTY ?? 'true' },
  };
  const stack = await startApps(options);
  // STACK_INSTANCES=2 (or more): further instances of every app, sharing the services' consumer groups,
  // each with its own gateway (port + 10 per instance).
  const instances = Math.max(1, Number(process.env.STACK_INSTANCES ?? 1));
  const more: RunningStack[] = [];
  for (let i = 1; i < instances; i++) more.push(await startApps(options, i));

  const shownKey = adminKey && !process.env.ADMIN_API_KEY ? adminKey : '$ADMIN_API_KEY';
  console.log(`
  Partner API ready: ${stack.gatewayUrl}/partner/v1   (docs: ${stack.gatewayUrl}/docs; the public port)
  Operator URL:      ${stack.adminUrl}   /admin/v1, /readyz, /metrics (the operator port, never exposed to partners)
                     X-Admin-Key: ${adminKey && !process.env.ADMIN_API_KEY ? adminKey : '(your ADMIN_API_KEY or operator key)'}
  Mode:              ${sandbox ? 'sandbox (/sandbox/v1 helpers on; sandbox keys, refused by production)' : 'SANDBOX=false (no sandbox routes; production keys)'}${more.map((m, i) => `\n  Instance ${i + 2}:        ${m.gatewayUrl}/partner/v1   (operator ${m.adminUrl})`).join('')}
  Try:  curl -s -X POST ${stack.adminUrl}/admin/v1/partners -H "X-Admin-Key: ${shownKey}" -H 'Content-Type: application/json' -d '{"name":"acme"}'
  Ctrl-C stops the apps (the broker keeps running: npm run kafka -- stop).
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(more.map((m) => m.stop()));
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  // An app that exits unexpectedly is started again by the stack's supervisor (scripts/stack/stack.ts,
  // ADR 0015), which prints a line each time.
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * Generates each service's Prisma client (`prisma generate --schema prisma/<service>/schema.prisma`) into
 * .cache/prisma-client/<service> (git-ignored). Nothing in the build, `npm start` or `npm test` needs one
 * (ADR 0021: the apps and their specs run every query on pg); `npm run bench:prisma` generates the
 * withdrawals client it measures through this script.
 *
 *   npx tsx scripts/db/generate.ts [service...]      (npm run db:generate [-- service...])
 *
 * Without arguments: every service that has a prisma/<service>/schema.prisma. Needs no database.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { errorMessage, listServices, prismaDir, repoRoot } from '../../offline/prisma/schema-engine';

const env = {
  ...process.env,
  // The CLI downloads its native schema engine at start-up, even for `generate`, which never runs
  // it; that download fails offline. Naming any existing file here skips the download.
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || __filename,
  // No update check or telemetry call to Prisma's servers (unreachable here, slow to time out).
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const prismaCli = require.resolve('prisma/build/index.js');

function generate(service: string): Promise<string> {
  const schema = path.relative(repoRoot, path.join(prismaDir, service, 'schema.prisma'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, 'generate', '--schema', schema], { cwd: repoRoot, env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${service}: prisma generate exited with ${code}\n${out}`))));
  });
}

async function main() {
  const known = listServices();
  const args = process.argv.slice(2);
  for (const s of args) {
    if (!known.includes(s)) throw new Error(`Unknown service "${s}" (known: ${known.join(', ') || 'none'})`);
  }
  const services = args.length ? args : known;
  if (services.length === 0) throw new Error(`No prisma/<service>/schema.prisma under ${repoRoot}`);
  const started = Date.now();
  // Each run is a separate CLI start-up (~2 s); they are independent, so run them side by side.
  const results = await Promise.allSettled(services.map(generate));
  let failed = false;
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      const line = r.value.split('\n').find((l) => l.includes('Generated Prisma Client'));
      console.log(`${services[i]}: ${line?.replace(/^\W+/, '').trim() ?? 'generated'}`);
    } else {
      failed = true;
      console.error(errorMessage(r.reason));
    }
  });
  if (failed) throw new Error('some clients were not generated');
  console.log(`generated ${services.length} client(s) in ${Date.now() - started} ms`);
}

main().catch((err) => {
  console.error(`generate: ${errorMessage(err)}`);
  process.exit(1);
});

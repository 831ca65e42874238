/**
 * `npm run db:generate [-- service...]`: `prisma generate` per service into the git-ignored
 * .cache/prisma-client/<service>; only `npm run bench:prisma` needs one (ADR 0021). No database needed.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { errorMessage, prismaDir, repoRoot } from '../../offline/prisma/schema-engine';
import { servicesOrAll } from './migrate';
import { runMain } from '../lib/main';

const env = {
  ...process.env,
  // The CLI downloads its engine at start-up even for `generate`, which never runs it: any existing file skips that.
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || __filename,
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
  const services = servicesOrAll(process.argv.slice(2));
  const started = Date.now();
  // A CLI start-up (~2 s) each, independent: side by side.
  const results = await Promise.allSettled(services.map(generate));
  results.forEach((r, i) => {
    if (r.status === 'rejected') return console.error(errorMessage(r.reason));
    const line = r.value.split('\n').find((l) => l.includes('Generated Prisma Client'));
    console.log(`${services[i]}: ${line?.replace(/^\W+/, '').trim() ?? 'generated'}`);
  });
  if (results.some((r) => r.status === 'rejected')) throw new Error('some clients were not generated');
  console.log(`generated ${services.length} client(s) in ${Date.now() - started} ms`);
}

runMain('generate', main, errorMessage);

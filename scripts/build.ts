/**
 * Builds every app: generates each service's Prisma client (offline) and the typed API client's types
 * (from docs/openapi.json), compiles the workspace with tsc (which also type-checks it), then rewrites
 * the path aliases (@partner/*) to relative imports so `node dist/apps/<app>/src/main.js` runs without
 * any loader.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateApiClientTypes } from './lib/api-client-types';
import { writeBuildStamp } from './lib/build-stamp';
import { repoRoot } from './lib/services';

const root = repoRoot();
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const started = Date.now();
run(bin('tsx'), [join(root, 'scripts/db/generate.ts')]);
generateApiClientTypes(root);
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('tsc-alias'), ['-p', 'tsconfig.build.json']);
writeBuildStamp(root, started);
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);

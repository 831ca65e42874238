/**
 * `npm run openapi [-- check|lint]`: regenerate the committed documents (docs/openapi*.json, .yaml) and the
 * typed client's types; `check` exits 1 when one differs from what the code generates; `lint` is Redocly's
 * (redocly.yaml). docs/development.md, "The OpenAPI document".
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { API_DOCUMENTS, generateApiClientTypes } from '../lib/api-client-types';
import { repoRoot } from '../lib/services';
import { buildWorkspace } from '../lib/build-stamp';

const root = repoRoot();

/** The committed files as the code generates them: JSON, and YAML as the gateway serves it (SwaggerModule's js-yaml options). */
function generate(): [path: string, text: string][] {
  buildWorkspace(root);
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const files = API_DOCUMENTS.map((_, i) => join(dir, `${i}.json`));
    execFileSync(process.execPath, [join(root, 'dist/apps/gateway/src/openapi-document.js'), ...files], { cwd: root, stdio: 'inherit' });
    return API_DOCUMENTS.flatMap(({ json, yaml }, i): [string, string][] => {
      const text = readFileSync(files[i], 'utf8');
      return [
        [json, text],
        [yaml, dump(JSON.parse(text), { skipInvalid: true, noRefs: true })],
      ];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const committed = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);

/** The first line where two texts differ, to say where the committed document is behind. */
function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(b[at] ?? '<end>')}, generated ${JSON.stringify(a[at] ?? '<end>')}`;
}

function write(): number {
  const files = generate();
  for (const [path, text] of files) writeFileSync(join(root, path), text);
  generateApiClientTypes(root);
  console.log(`openapi: wrote ${files.map(([path]) => path).join(', ')}, and the typed client's types`);
  return 0;
}

function check(): number {
  const stale = generate().filter(([path, text]) => committed(path) !== text);
  for (const [path, text] of stale) {
    const current = committed(path);
    console.error(
      `openapi: ${path} is not what the code generates (${current === undefined ? 'missing' : firstDifference(text, current)})`,
    );
  }
  if (stale.length > 0) console.error('openapi: run `npm run openapi` and commit the result');
  else console.log(`openapi: ${API_DOCUMENTS.map((d) => d.json).join(', ')} and their YAML are up to date`);
  return stale.length > 0 ? 1 : 0;
}

function lint(): number {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const result = spawnSync(
    join(root, 'node_modules/.bin/redocly'),
    ['lint', '--config', 'redocly.yaml', ...API_DOCUMENTS.map((d) => d.json)],
    { cwd: root, stdio: 'inherit', env },
  );
  return result.status ?? 1;
}

const commands: Record<string, () => number> = { write, check, lint };
const command = process.argv.slice(2).filter((a) => a !== '--')[0] ?? 'write';
if (!(command in commands)) {
  console.error(`usage: npm run openapi [-- check|lint]`);
  process.exit(2);
}
process.exit(commands[command]());

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * What a service's health module makes Node load, in a Node of its own (Jest's module registry is not
 * Node's): @nestjs/swagger is installed for the gateway, and terminus's @HealthCheck() loads it, with
 * lodash and js-yaml, wherever it finds it unless told not to (about 5 MB of heap in each service).
 */
function modulesLoadedBy(script: string): string[] {
  const out = execFileSync(
    process.execPath,
    ['--require', 'tsx/cjs', '-e', `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as string[];
}

describe('serviceHealthModule', () => {
  it('loads no OpenAPI tooling into a service', () => {
    const loaded = modulesLoadedBy(`require('./libs/platform/src/lib/service-health.module.ts').serviceHealthModule('pix-keys')`).map(
      (file) => file.slice(ROOT.length),
    );
    expect(loaded).toContainEqual(expect.stringContaining('/node_modules/@nestjs/terminus/'));
    expect(loaded.filter((file) => /\/node_modules\/(@nestjs\/swagger|lodash|js-yaml)\//.test(file))).toEqual([]);
  });
});

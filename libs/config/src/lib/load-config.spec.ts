import { IsInt, Min } from 'class-validator';
import { CommonConfig } from './common.config';
import { ConfigError, loadConfig } from './load-config';

class SampleConfig extends CommonConfig {
  @IsInt() @Min(1) WORKERS: number = 2;
}

describe('loadConfig', () => {
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
});

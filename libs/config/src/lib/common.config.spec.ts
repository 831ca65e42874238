import { CommonConfig, hostOrBlockProblem, ServiceConfig } from './common.config';
import { loadConfig } from './load-config';

describe('INTERNAL_SECRET', () => {
  it('is required outside development and test, 32 characters at least', () => {
    expect(() => loadConfig(CommonConfig, { NODE_ENV: 'production' })).toThrow(/INTERNAL_SECRET is required outside development and test/);
    expect(() => loadConfig(CommonConfig, { NODE_ENV: 'staging', INTERNAL_SECRET: 'short' })).toThrow(/INTERNAL_SECRET/);
    expect(loadConfig(CommonConfig, { NODE_ENV: 'production', INTERNAL_SECRET: 'x'.repeat(32) }).INTERNAL_SECRET).toBe('x'.repeat(32));
  });

  it('may be left empty in development and test (and with NODE_ENV unset, as in Node), but not set too short', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) expect(loadConfig(CommonConfig, { NODE_ENV }).INTERNAL_SECRET).toBe('');
    expect(() => loadConfig(CommonConfig, { NODE_ENV: 'development', INTERNAL_SECRET: 'short' })).toThrow(/INTERNAL_SECRET/);
  });
});

describe('KAFKA_CLIENT', () => {
  it('refuses platformatic with NODE_ENV=production, and takes it elsewhere', () => {
    const secret = 'x'.repeat(32);
    expect(() => loadConfig(CommonConfig, { NODE_ENV: 'production', INTERNAL_SECRET: secret, KAFKA_CLIENT: 'platformatic' })).toThrow(
      /KAFKA_CLIENT=platformatic is refused with NODE_ENV=production/,
    );
    expect(loadConfig(CommonConfig, { NODE_ENV: 'production', INTERNAL_SECRET: secret }).KAFKA_CLIENT).toBe('kafkajs');
    for (const NODE_ENV of ['development', 'test', undefined])
      expect(loadConfig(CommonConfig, { NODE_ENV, KAFKA_CLIENT: 'platformatic' }).KAFKA_CLIENT).toBe('platformatic');
  });
});

describe('REPLY_TARGETS', () => {
  it('is loopback by default, and a comma-separated list of addresses, CIDR blocks and host names', () => {
    expect(loadConfig(ServiceConfig, {}).REPLY_TARGETS).toEqual(['127.0.0.0/8', '::1/128', 'localhost']);
    expect(loadConfig(ServiceConfig, { REPLY_TARGETS: '10.0.0.0/8, Gateway-1 ,fd00::/8,192.168.1.7' }).REPLY_TARGETS).toEqual([
      '10.0.0.0/8',
      'gateway-1',
      'fd00::/8',
      '192.168.1.7',
    ]);
  });

  it.each(['http://gateway', '10.0.0.0/40', 'a/b/c', 'under_score', '*'])('refuses %p at start-up', (entry) => {
    expect(hostOrBlockProblem(entry)).toBeDefined();
    expect(() => loadConfig(ServiceConfig, { REPLY_TARGETS: entry })).toThrow(/REPLY_TARGETS/);
  });
});

import { loadConfig } from '@partner/config';
import { GatewayConfig } from './gateway.config';

const load = (env: Record<string, string>) => () => loadConfig(GatewayConfig, { DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: '127.0.0.1:1', ...env });

describe('GatewayConfig: SANDBOX', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['', false],
    ['yes', false],
  ])('reads %p as %p (implicit conversion would make any non-empty string true)', (value, expected) => {
    expect(load({ SANDBOX: value, ADMIN_API_KEY: 'x'.repeat(32) })().SANDBOX).toBe(expected);
  });
});

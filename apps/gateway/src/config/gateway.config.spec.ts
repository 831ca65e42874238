import { ConfigError, loadConfig } from '@partner/config';
import { GatewayConfig } from './gateway.config';

const load = (env: Record<string, string>) => () =>
  loadConfig(GatewayConfig, { DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: '127.0.0.1:1', ...env });

describe('GatewayConfig: ADMIN_API_KEY', () => {
  it('is required (16+ characters) with SANDBOX=true, as before', () => {
    expect(load({ SANDBOX: 'true' })).toThrow(/ADMIN_API_KEY must be set \(16\+ characters\) when SANDBOX=true/);
    expect(load({ SANDBOX: 'true', ADMIN_API_KEY: 'x'.repeat(15) })).toThrow(ConfigError);
    expect(load({ SANDBOX: 'true', ADMIN_API_KEY: 'x'.repeat(16) })()).toMatchObject({ SANDBOX: true });
  });

  it('may be left out with SANDBOX=false (operator keys made by the CLI; the start-up check needs one somewhere)', () => {
    expect(load({ SANDBOX: 'false' })()).toMatchObject({ SANDBOX: false, ADMIN_API_KEY: '' });
  });

  it('must be 32+ characters when given with SANDBOX=false, said clearly', () => {
    expect(load({ SANDBOX: 'false', ADMIN_API_KEY: 'x'.repeat(31) })).toThrow(
      /ADMIN_API_KEY is too weak for SANDBOX=false: use 32\+ random characters/,
    );
    expect(load({ SANDBOX: 'false', ADMIN_API_KEY: 'x'.repeat(32) })()).toMatchObject({ ADMIN_API_KEY: 'x'.repeat(32) });
  });

  it('has operator rate limit defaults', () => {
    expect(load({})()).toMatchObject({ ADMIN_RATE_LIMIT_PER_SECOND: 20, ADMIN_RATE_LIMIT_BURST: 40 });
  });
});

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

describe('GatewayConfig: ADMIN_PORT', () => {
  it('defaults to the operator port 3100, so a production gateway never serves the operator API on PORT unless told to', () => {
    expect(load({})()).toMatchObject({ PORT: 3000, ADMIN_PORT: 3100, SANDBOX: false });
    expect(load({ ADMIN_PORT: '0' })().ADMIN_PORT).toBe(0);
  });
});

describe('GatewayConfig: PIX_PROVIDER_WEBHOOK_SECRET', () => {
  it('is optional: empty by default (every Pix provider notification is then refused)', () => {
    expect(load({})()).toMatchObject({ PIX_PROVIDER_WEBHOOK_SECRET: '' });
  });

  it('must be 32+ characters when set, said clearly at start', () => {
    expect(load({ PIX_PROVIDER_WEBHOOK_SECRET: 'x'.repeat(31) })).toThrow(
      /PIX_PROVIDER_WEBHOOK_SECRET is too weak: use 32\+ random characters/,
    );
    expect(load({ PIX_PROVIDER_WEBHOOK_SECRET: 'x'.repeat(32) })()).toMatchObject({ PIX_PROVIDER_WEBHOOK_SECRET: 'x'.repeat(32) });
  });

  it('takes the previous secret of a rotation, 32+ characters too', () => {
    expect(load({})()).toMatchObject({ PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: '' });
    expect(load({ PIX_PROVIDER_WEBHOOK_SECRET: 'x'.repeat(32), PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: 'y'.repeat(31) })).toThrow(
      /PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS must be the previous 32\+ character secret/,
    );
    expect(load({ PIX_PROVIDER_WEBHOOK_SECRET: 'x'.repeat(32), PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: 'y'.repeat(32) })()).toMatchObject({
      PIX_PROVIDER_WEBHOOK_SECRET_PREVIOUS: 'y'.repeat(32),
    });
  });
});

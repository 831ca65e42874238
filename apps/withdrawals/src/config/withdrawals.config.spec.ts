import { ConfigError, loadConfig } from '@partner/config';
import { WithdrawalsConfig } from './withdrawals.config';

const base = { DATABASE_URL: 'postgresql://x@127.0.0.1/x', KAFKA_BROKERS: '127.0.0.1:1', HOT_WALLET_KEY_FILE: '/k' };
const load = (env: Record<string, string>) => () => loadConfig(WithdrawalsConfig, { ...base, ...env });
const production = {
  NODE_ENV: 'production',
  INTERNAL_SECRET: 's'.repeat(32),
  CHAIN_RPC_URL_ETH: 'https://eth.example',
  CHAIN_RPC_URL_MATIC: 'https://matic.example',
};

describe('WithdrawalsConfig: SANDBOX never pays on a mainnet', () => {
  it.each([
    ['CHAIN_ID_ETH', '1', /SANDBOX=true refuses CHAIN_ID_ETH=1 \(Ethereum mainnet\)/],
    ['CHAIN_ID_MATIC', '137', /SANDBOX=true refuses CHAIN_ID_MATIC=137 \(Polygon PoS\)/],
    ['CHAIN_ID_ETH', '8453', /SANDBOX=true refuses CHAIN_ID_ETH=8453 \(Base\)/],
  ])('refuses SANDBOX=true with %s=%s, naming both settings', (name, id, message) => {
    const test = { CHAIN_ID_ETH: '31337', CHAIN_ID_MATIC: '31338' };
    expect(load({ SANDBOX: 'true', ...test, [name]: id })).toThrow(message);
  });

  it('refuses the defaults (the mainnets) with SANDBOX=true, and takes them without it', () => {
    expect(load({ SANDBOX: 'true' })).toThrow(ConfigError);
    expect(load({})()).toMatchObject({ SANDBOX: false, CHAIN_ID_ETH: 1, CHAIN_ID_MATIC: 137 });
  });

  it('takes test chains with SANDBOX=true', () => {
    expect(load({ SANDBOX: 'true', CHAIN_ID_ETH: '31337', CHAIN_ID_MATIC: '31338' })()).toMatchObject({ SANDBOX: true });
  });
});

describe('WithdrawalsConfig: https only in production', () => {
  it.each([
    'CHAIN_RPC_URL_ETH',
    'CHAIN_RPC_URL_MATIC',
    'CHAIN_RPC_URL_2_ETH',
    'CHAIN_RPC_URL_2_MATIC',
    'REMOTE_SIGNER_URL_ETH',
    'REMOTE_SIGNER_URL_MATIC',
  ])('refuses http:// for %s with NODE_ENV=production, naming it', (name) => {
    expect(load({ ...production, [name]: 'http://node.internal:8545' })).toThrow(
      new RegExp(`${name}: ${name} must be an https:// URL with NODE_ENV=production`),
    );
  });

  it('refuses an http:// REMOTE_SIGNER_URL with NODE_ENV=production, loopback included', () => {
    const remote = { HOT_WALLET_SIGNER: 'remote', REMOTE_SIGNER_ADDRESS: `0x${'a'.repeat(40)}` };
    expect(load({ ...production, ...remote, REMOTE_SIGNER_URL: 'http://127.0.0.1:9000' })).toThrow(
      /REMOTE_SIGNER_URL must be an https:\/\//,
    );
    expect(load({ ...production, ...remote, REMOTE_SIGNER_URL: 'https://signer.internal' })()).toMatchObject({
      HOT_WALLET_SIGNER: 'remote',
    });
  });

  it('takes https:// in production, and the local http:// nodes outside it', () => {
    expect(load(production)()).toMatchObject({ CHAIN_RPC_URL_ETH: 'https://eth.example' });
    expect(load({ NODE_ENV: 'development' })()).toMatchObject({ CHAIN_RPC_URL_ETH: 'http://127.0.0.1:8545' });
    expect(load({ ...production, CHAIN_RPC_URL_ETH: 'http://127.0.0.1:8545' })).toThrow(/CHAIN_RPC_URL_ETH must be an https:\/\//);
  });
});

describe('WithdrawalsConfig: a payout worker', () => {
  it('takes PAYOUTS_ONLY=true (payouts on), and is a full instance by default', () => {
    expect(load({ PAYOUTS_ONLY: 'true' })()).toMatchObject({ PAYOUTS_ONLY: true, PAYOUTS_ENABLED: true });
    expect(load({})()).toMatchObject({ PAYOUTS_ONLY: false, PAYOUTS_ENABLED: true });
  });

  it('takes a worker with payouts stopped (PAYOUTS_ENABLED=false): it goes on reconciling', () => {
    expect(load({ PAYOUTS_ONLY: 'true', PAYOUTS_ENABLED: 'false' })()).toMatchObject({ PAYOUTS_ONLY: true, PAYOUTS_ENABLED: false });
  });
});

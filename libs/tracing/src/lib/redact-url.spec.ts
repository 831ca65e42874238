import { maskLogArguments } from './mask-identifiers';
import { redactError, redactSecrets, redactUrl, registerSecretUrl } from './redact-url';

describe('redactUrl', () => {
  it.each([
    ['https://eth-mainnet.g.alchemy.com/v2/abcDEF123456', 'https://eth-mainnet.g.alchemy.com/…'],
    ['https://user:pass@node.example:8545', 'https://…@node.example:8545'],
    ['https://rpc.ankr.com/polygon?apikey=k3y', 'https://rpc.ankr.com/…'],
    ['http://127.0.0.1:8545', 'http://127.0.0.1:8545'],
    ['not a url', '…'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});

describe('redactSecrets', () => {
  it('hides a registered URL in every spelling: whole, without its user, its path and query alone', () => {
    registerSecretUrl('https://bob:hunter2@polygon-mainnet.infura.io/v3/0f1e2d3c4b5a69788796a5b4c3d2e1f0');
    const text = [
      'URL: https://polygon-mainnet.infura.io/v3/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'url.path=/v3/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'https://bob:hunter2@polygon-mainnet.infura.io/v3/0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    ].join('\n');
    const shown = redactSecrets(text);
    expect(shown).not.toMatch(/0f1e2d3c|hunter2|bob/);
    expect(shown).toContain('https://polygon-mainnet.infura.io/…');
  });

  it("hides any URL's user and password, and key parameters, registered or not", () => {
    expect(redactSecrets('postgresql://svc:S3cret@db:5432/partner')).toBe('postgresql://…@db:5432/partner');
    expect(redactSecrets('https://api.example/rpc?apikey=abc&x=1&access_token=t0k')).toBe(
      'https://api.example/rpc?apikey=…&x=1&access_token=…',
    );
    expect(redactSecrets('GET /partner/v1/withdrawals/usdt/12')).toBe('GET /partner/v1/withdrawals/usdt/12');
  });

  it('reaches the log lines (maskLogArguments) and errors with their causes, in place', () => {
    registerSecretUrl('https://eth.provider.example/v2/KEYKEYKEY123');
    expect(JSON.stringify(maskLogArguments(['calling https://eth.provider.example/v2/KEYKEYKEY123 failed']))).not.toContain('KEYKEYKEY123');
    const cause = Object.assign(new Error('HTTP request failed. URL: https://eth.provider.example/v2/KEYKEYKEY123'), {
      url: 'https://eth.provider.example/v2/KEYKEYKEY123',
      metaMessages: ['URL: https://eth.provider.example/v2/KEYKEYKEY123'],
    });
    const error = new Error('the call failed', { cause });
    expect(redactError(error)).toBe(error);
    expect(JSON.stringify({ ...cause, message: cause.message, stack: cause.stack })).not.toContain('KEYKEYKEY123');
  });
});

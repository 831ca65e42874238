import { GatewayConfig } from '../config/gateway.config';
import { generateApiKey } from './api-key';
import { claimedEnvironment, environmentOf, keyEnvironmentProblem } from '@partner/operator-access';

describe('key environments', () => {
  it('a gateway is in the sandbox only with SANDBOX=true', () => {
    expect(environmentOf(Object.assign(new GatewayConfig(), { SANDBOX: true }))).toBe('sandbox');
    expect(environmentOf(new GatewayConfig())).toBe('production');
  });

  it("reads a partner key's environment from its text, and nothing from any other text", () => {
    expect(claimedEnvironment(generateApiKey('sandbox').key)).toBe('sandbox');
    expect(claimedEnvironment(generateApiKey('live').key)).toBe('production');
    for (const other of ['', 'adm_xyz', 'pk_test_abc', 'PK_SANDBOX_abc', ' pk_live_abc']) expect(claimedEnvironment(other)).toBeUndefined();
  });

  it('accepts a key of the gateway environment, and refuses the other one both ways, saying why', () => {
    expect(keyEnvironmentProblem('API key', 'sandbox', 'sandbox')).toBeUndefined();
    expect(keyEnvironmentProblem('operator key', 'production', 'production')).toBeUndefined();
    expect(keyEnvironmentProblem('API key', 'sandbox', 'production')).toBe(
      'this API key belongs to the sandbox: a production gateway does not accept it',
    );
    expect(keyEnvironmentProblem('operator key', 'production', 'sandbox')).toBe(
      'this operator key belongs to the production environment: a sandbox gateway does not accept it',
    );
  });
});

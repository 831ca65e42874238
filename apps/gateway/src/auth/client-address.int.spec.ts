import { randomBytes } from 'node:crypto';
import { FakeServices } from '../fake-services.spec-support';
import { GatewayUnderTest } from '../gateway-app.spec-support';

// Integration: the real gateway and database; which client address the unknown-key throttle keys on when a
// client writes X-Forwarded-For itself (requests injected from 127.0.0.1, the proxy's place when there is one).

const madeUpKey = () => `pk_live_${randomBytes(32).toString('base64url')}`;
const gatewayWith = (hops: number) =>
  new GatewayUnderTest({
    bus: new FakeServices(),
    env: {
      SANDBOX: 'false',
      ADMIN_API_KEY: `adm_int_${randomBytes(24).toString('base64url')}`,
      AUTH_FAILURES_PER_SECOND: '1',
      AUTH_FAILURE_BURST: '3',
      TRUST_PROXY_HOPS: String(hops),
    },
  });
const direct = gatewayWith(0);
const behindOneProxy = gatewayWith(1);

beforeAll(() => Promise.all([direct.start(), behindOneProxy.start()]), 90_000);
afterAll(() => Promise.all([direct.stop(), behindOneProxy.stop()]), 30_000);

/** The status of a made-up key's call with this X-Forwarded-For. */
const call = async (gateway: GatewayUnderTest, forwardedFor: string) =>
  (await gateway.send('GET', '/partner/v1/events?limit=1', { 'x-api-key': madeUpKey(), 'x-forwarded-for': forwardedFor })).status;

describe('the client address behind TRUST_PROXY_HOPS', () => {
  it('with no proxy (0), ignores X-Forwarded-For: a forged address does not escape the throttle', async () => {
    expect(await Promise.all([1, 2, 3].map((i) => call(direct, `10.0.0.${i}`)))).toEqual([401, 401, 401]);
    // Every new address the client writes is still its one connection's address: throttled.
    expect(await call(direct, '10.0.0.4')).toBe(429);
    expect(await call(direct, '192.0.2.1, 10.0.0.5')).toBe(429);
  });

  it("behind one proxy (1), takes the proxy's entry, not what the client wrote before it", async () => {
    // The proxy's entry (the last) is the client; the entries the client put before it count for nothing.
    expect(await Promise.all([1, 2, 3].map((i) => call(behindOneProxy, `10.9.9.${i}, 198.51.100.7`)))).toEqual([401, 401, 401]);
    expect(await call(behindOneProxy, '10.9.9.4, 198.51.100.7')).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect(await call(behindOneProxy, '198.51.100.8')).toBe(401);
  });
});

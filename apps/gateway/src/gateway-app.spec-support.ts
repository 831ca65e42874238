import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@partner/config';
import { requireEnv } from '@partner/testing';
import { GatewayBus } from './app.module';
import { GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './gateway-app';

/**
 * The real gateway (Fastify, Kafka, PostgreSQL) booted as main.ts boots it, for the gateway's
 * integration specs, while no service runs (npm test starts the stack only for the e2e suite): what
 * needs a service answers 503 after REQUEST_TIMEOUT_MS, what is refused at the edge answers at once.
 * Requests go through Fastify's inject, so no port is opened. `bus` stands in for the services (no Kafka
 * at all then); `env` overrides settings (SANDBOX=false, limits...).
 */
export class GatewayUnderTest {
  static readonly ADMIN_KEY = 'x'.repeat(20);
  static readonly REQUEST_TIMEOUT_MS = 1500;

  readonly config: GatewayConfig;
  private booted: NestFastifyApplication | undefined;

  constructor(private readonly options: { bus?: GatewayBus; env?: Record<string, string> } = {}) {
    this.config = loadConfig(GatewayConfig, {
      ...process.env,
      KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
      DATABASE_URL: requireEnv('DATABASE_URL'),
      SANDBOX: 'true',
      ADMIN_API_KEY: GatewayUnderTest.ADMIN_KEY,
      REQUEST_TIMEOUT_MS: String(GatewayUnderTest.REQUEST_TIMEOUT_MS),
      PORT: '0',
      // One port for everything: requests are injected, and the operator port's split is the e2e suite's (operator-port.spec.ts).
      ADMIN_PORT: '0',
      // Request logs only with TEST_LOGS, like the rest of the suite.
      LOG_LEVEL: process.env.TEST_LOGS ? (process.env.LOG_LEVEL ?? 'info') : 'silent',
      // Every spec's requests come from one address: only a spec that tests the throttle turns it on.
      AUTH_FAILURES_PER_SECOND: '100000',
      AUTH_FAILURE_BURST: '100000',
      ...options.env,
    });
  }

  get app(): NestFastifyApplication {
    if (!this.booted) throw new Error('the gateway is not started: call start() in beforeAll');
    return this.booted;
  }

  async start(): Promise<void> {
    this.booted = await createGatewayApp(this.config, { logs: Boolean(process.env.TEST_LOGS), overrideBus: this.options.bus });
    await this.booted.init();
    await this.booted.getHttpAdapter().getInstance().ready();
  }

  async stop(): Promise<void> {
    await this.booted?.close();
  }

  /** A JSON POST (a string payload is sent as it is); answers status, parsed body and how long it took. */
  post(url: string, payload: unknown, headers: Record<string, string> = {}) {
    return this.send('POST', url, headers, payload);
  }

  /** Any request; a payload is sent as JSON (a string as it is). Answers status, parsed body and how long it took. */
  async send(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: unknown) {
    const started = Date.now();
    const res = await this.app.inject({
      method,
      url,
      headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>(), headers: res.headers, elapsed: Date.now() - started };
  }

  /** The API key of a new sandbox partner. */
  async newPartnerKey(name = 'gateway int'): Promise<string> {
    const res = await this.post('/sandbox/v1/partners', { name }, { 'x-admin-key': GatewayUnderTest.ADMIN_KEY });
    if (res.status !== 201) throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
    return String(res.body.api_key);
  }
}

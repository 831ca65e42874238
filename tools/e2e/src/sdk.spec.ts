import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newUuid } from '@partner/testing';
import { gatewayUrl, listEvents, newPartner, newUser } from './support/sandbox';
import { installPackedSdk, removeProject, repositoryRoot, runInProject, SDK_PACKAGE } from './support/sdk-package';

/**
 * The SDK as a partner gets it (libs/api-client, docs/api.md "SDK"): packed with `npm run sdk:pack`,
 * installed into an empty project from the tarball, loaded with require() and with import() in child
 * node processes, and driving the running stack.
 */
const USDT = 1_000_000;
const WITHDRAWAL_PATH = '/partner/v1/withdrawals/usdt';

let project: string;
beforeAll(async () => {
  project = await installPackedSdk();
}, 240_000);
afterAll(() => removeProject(project));

describe('the SDK package', () => {
  it('installs with no dependency and loads with require() and import(): one set of classes, with type declarations for both', async () => {
    const manifest = JSON.parse(await readFile(join(project, 'node_modules', SDK_PACKAGE, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest).toMatchObject({ name: SDK_PACKAGE, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(manifest.dependencies).toBeUndefined();
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).sort()).toEqual(['', `node_modules/${SDK_PACKAGE}`]);

    const required = await runInProject<string[]>(
      project,
      'cjs',
      `console.log(JSON.stringify(Object.keys(require('${SDK_PACKAGE}')).sort()));`,
    );
    const imported = await runInProject<{ names: string[]; sameClasses: boolean }>(
      project,
      'mjs',
      `import * as sdk from '${SDK_PACKAGE}';
       import { createRequire } from 'node:module';
       const cjs = createRequire(import.meta.url)('${SDK_PACKAGE}');
       console.log(JSON.stringify({ names: Object.keys(sdk).sort(), sameClasses: sdk.PartnerApiError === cjs.PartnerApiError && sdk.PartnerClient === cjs.PartnerClient }));`,
    );
    const classes = ['Paginator', 'PartnerApiError', 'PartnerClient', 'PartnerNetworkError', 'PartnerSdkError', 'PartnerTimeoutError'];
    expect(required).toEqual(classes);
    expect(imported).toEqual({ names: classes, sameClasses: true });

    // A TypeScript consumer of each kind compiles against the shipped declarations (node16 resolution
    // reads the `exports` map's `types`), and a wrong field does not: the directive would be unused.
    const consumer = (loader: string) => `${loader}
      export async function use(client: InstanceType<typeof PartnerClient>): Promise<number> {
        // @ts-expect-error fee_choice is LOW, MEDIUM or HIGH
        await client.withdrawals.create({ document: '1', address: '0x', usdtmicros: 1, fee_choice: 'ULTRA', network: 'MATIC' });
        const w: Withdrawal = await client.withdrawals.get(1);
        return w.usdtmicros;
      }`;
    await writeFile(join(project, 'consumer.mts'), consumer(`import { PartnerClient, type Withdrawal } from '${SDK_PACKAGE}';`));
    await writeFile(join(project, 'consumer.cts'), consumer(`import { PartnerClient, type Withdrawal } from '${SDK_PACKAGE}';`));
    const tsc = join(repositoryRoot, 'node_modules/.bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'node16',
      '--moduleResolution',
      'node16',
      '--target',
      'es2022',
      '--typeRoots',
      join(repositoryRoot, 'node_modules/@types'),
      '--types',
      'node',
    ];
    await expect(promisify(execFile)(tsc, [...args, 'consumer.mts', 'consumer.cts'], { cwd: project })).resolves.toBeDefined();
  });
});

describe('the SDK against the stack', () => {
  let partner: Awaited<ReturnType<typeof newPartner>>;
  let document: string;
  let proxy: LossyProxy;
  let created: { id: number; idempotency_key: string; read: { id: number; document: string; usdtmicros: number; state: string } };

  beforeAll(async () => {
    partner = await newPartner('sdk e2e');
    document = await newUser(partner.api, 10 * USDT);
    proxy = await LossyProxy.start(gatewayUrl());
  });
  afterAll(() => proxy?.stop());

  it('require(): a create whose answer is lost is retried with the same generated key and makes one withdrawal; it reads back', async () => {
    created = await runInProject(
      project,
      'cjs',
      `
      const { PartnerClient } = require('${SDK_PACKAGE}');
      (async () => {
        const client = new PartnerClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY, retry: { baseDelayMs: 50 } });
        const { id, idempotency_key } = await client.withdrawals.create({ document: process.env.DOCUMENT, address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', usdtmicros: 1000000, fee_choice: 'MEDIUM', network: 'MATIC' });
        const read = await client.withdrawals.get(id);
        console.log(JSON.stringify({ id, idempotency_key, read }));
      })();`,
      { BASE_URL: proxy.url, API_KEY: partner.apiKey, DOCUMENT: document },
    );

    // The first answer (the gateway's 201) was replaced by a 503; the SDK sent the same request again.
    expect(proxy.withdrawalKeys).toEqual([created.idempotency_key, created.idempotency_key]);
    expect(created.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.read).toMatchObject({ id: created.id, document, usdtmicros: USDT });
    expect(['created', 'sent', 'settled']).toContain(created.read.state);
    // One withdrawal: one `created` event in the partner's feed.
    const createdEvents = (await listEvents(partner.api, 'type=usdt_withdrawal&limit=1000')).filter((e) => e.state === 'created');
    expect(createdEvents.map((e) => e.resource_id)).toEqual([String(created.id)]);
  });

  it('import(): the feed stream yields the withdrawal created, sent, settled; ack() delivers each; the stream stops on its signal', async () => {
    const streamed = await runInProject<{ states: string[]; others: { acknowledged: number } }>(
      project,
      'mjs',
      `
      import { PartnerClient } from '${SDK_PACKAGE}';
      const client = new PartnerClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      const controller = new AbortController();
      const giveUp = setTimeout(() => controller.abort(), 45000);
      const states = [];
      const others = [];
      for await (const event of client.events.stream({ signal: controller.signal, pollIntervalMs: 100, maxPollIntervalMs: 500 })) {
        if (event.type !== 'usdt_withdrawal' || event.resource_id !== process.env.WITHDRAWAL_ID) { others.push(event); continue; }
        await client.events.ack(event);
        states.push(event.state);
        if (event.state === 'settled') controller.abort();
      }
      clearTimeout(giveUp);
      console.log(JSON.stringify({ states, others: others.length ? await client.events.ackMany(others) : { acknowledged: 0, not_found: [] } }));`,
      { BASE_URL: gatewayUrl(), API_KEY: partner.apiKey, WITHDRAWAL_ID: String(created.id) },
    );

    expect(streamed.states).toEqual(['created', 'sent', 'settled']);
    const pending = (await listEvents(partner.api, 'delivered=false&limit=1000')).filter((e) => e.resource_id === String(created.id));
    expect(pending).toEqual([]);
    const delivered = (await listEvents(partner.api, 'delivered=true&type=usdt_withdrawal&limit=1000')).filter(
      (e) => e.resource_id === String(created.id),
    );
    expect(delivered.map((e) => e.state)).toEqual(['created', 'sent', 'settled']);
  });

  it('a refused request throws PartnerApiError with its code, HTTP status, field and the request id', async () => {
    const requestId = `sdk-e2e-${newUuid()}`;
    const refused = await runInProject<Record<string, unknown>>(
      project,
      'cjs',
      `
      const { PartnerClient, PartnerApiError } = require('${SDK_PACKAGE}');
      const client = new PartnerClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
      client.withdrawals.create({ document: process.env.DOCUMENT, address: 'not-an-address', usdtmicros: 1000000, fee_choice: 'MEDIUM', network: 'MATIC' }, { requestId: process.env.REQUEST_ID })
        .then(() => console.log(JSON.stringify({ created: true })))
        .catch((e) => console.log(JSON.stringify({ isApiError: e instanceof PartnerApiError, name: e.name, code: e.code, status: e.status, field: e.field, requestId: e.requestId, bodyRequestId: e.body.request_id })));`,
      { BASE_URL: gatewayUrl(), API_KEY: partner.apiKey, DOCUMENT: document, REQUEST_ID: requestId },
    );
    expect(refused).toEqual({
      isApiError: true,
      name: 'PartnerApiError',
      code: 'invalid_address',
      status: 400,
      field: 'address',
      requestId,
      bodyRequestId: requestId,
    });
  });
});

/**
 * A proxy in front of the gateway that loses the answer to the first withdrawal creation: it forwards
 * it (the withdrawal is made) and answers 503 with Retry-After: 1, as when a connection drops after the
 * gateway committed. Everything else passes through. Records the idempotency key of each creation.
 */
class LossyProxy {
  readonly withdrawalKeys: string[] = [];

  private constructor(
    private readonly server: Server,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<LossyProxy> {
    const server = createServer();
    const proxy = new LossyProxy(server, target);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void proxy.forward(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(
    method: string,
    url: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
    res: import('node:http').ServerResponse,
  ): Promise<void> {
    const pass = ['x-api-key', 'content-type', 'x-request-id'].flatMap((name) =>
      typeof headers[name] === 'string' ? [[name, headers[name]] as [string, string]] : [],
    );
    const answer = await fetch(`${this.target}${url}`, { method, headers: Object.fromEntries(pass), body: body.length ? body : undefined });
    const text = await answer.text();
    if (method === 'POST' && url === WITHDRAWAL_PATH) {
      this.withdrawalKeys.push((JSON.parse(body.toString('utf8')) as { idempotency_key: string }).idempotency_key);
      if (this.withdrawalKeys.length === 1) {
        res.writeHead(503, {
          'content-type': 'application/json',
          'retry-after': '1',
          'x-request-id': answer.headers.get('x-request-id') ?? '',
        });
        return void res.end(JSON.stringify({ error: 'service_unavailable', message: 'the answer was lost on the way (test proxy)' }));
      }
    }
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
      'x-request-id': answer.headers.get('x-request-id') ?? '',
    });
    res.end(text);
  }
}

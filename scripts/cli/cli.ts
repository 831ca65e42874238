/**
 * `npm run cli -- <command>`: the sandbox operator actions from a terminal, through the same HTTP API
 * partners use. GATEWAY_URL (default http://127.0.0.1:3000), ADMIN_API_KEY and API_KEY come from the
 * environment or the --gateway, --admin-key and --api-key flags.
 */
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';

const HELP = `usage: npm run cli -- <command> [options]

  partner create [--name NAME]                       create a sandbox partner (admin key); prints its API key
  user credit --document CPF --micros N              create a user with N USDT micros, or credit an existing one
  withdraw --document CPF --micros N --address 0x..  [--network MATIC|ETH] [--fee LOW|MEDIUM|HIGH] [--key UUID]
  events [--delivered true|false] [--limit N]        list the partner's events (default: not yet delivered)
  ack EVENT_ID...                                    mark events delivered

options: --gateway URL  --admin-key KEY  --api-key KEY`;

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<number> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  console.log(`${res.status} ${text}`);
  return res.ok ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      gateway: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000' },
      'admin-key': { type: 'string', default: process.env.ADMIN_API_KEY },
      'api-key': { type: 'string', default: process.env.API_KEY },
      name: { type: 'string' },
      document: { type: 'string' },
      micros: { type: 'string' },
      address: { type: 'string' },
      network: { type: 'string', default: 'MATIC' },
      fee: { type: 'string', default: 'MEDIUM' },
      key: { type: 'string' },
      delivered: { type: 'string', default: 'false' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  const partner = { 'x-api-key': o['api-key'] ?? '' };
  const need = (value: string | undefined, flag: string) => {
    if (!value) throw new Error(`${flag} is required (see --help)`);
    return value;
  };
  const micros = () => Number(need(o.micros, '--micros'));

  if (o.help || !command) {
    console.log(HELP);
    return command ? 0 : 1;
  }
  if (command === 'partner' && sub === 'create') {
    return call('POST', `${o.gateway}/sandbox/v1/partners`, { 'x-admin-key': need(o['admin-key'], '--admin-key') }, o.name ? { name: o.name } : {});
  }
  need(o['api-key'], '--api-key');
  if (command === 'user' && sub === 'credit') {
    return call('POST', `${o.gateway}/sandbox/v1/users`, partner, { document: need(o.document, '--document'), usdt_micros: micros() });
  }
  if (command === 'withdraw') {
    const body = {
      document: need(o.document, '--document'),
      idempotency_key: o.key ?? randomUUID(),
      address: need(o.address, '--address'),
      usdtmicros: micros(),
      fee_choice: o.fee,
      network: o.network,
    };
    console.log(`idempotency_key ${body.idempotency_key}`);
    return call('POST', `${o.gateway}/partner/v1/withdrawals/usdt`, partner, body);
  }
  if (command === 'events') {
    const query = new URLSearchParams({ delivered: o.delivered ?? 'false', ...(o.limit ? { limit: o.limit } : {}) });
    return call('GET', `${o.gateway}/partner/v1/events?${query}`, partner);
  }
  if (command === 'ack') {
    let failures = 0;
    for (const id of [sub, ...rest].filter(Boolean)) failures += await call('PATCH', `${o.gateway}/partner/v1/events/${id}`, partner);
    return failures ? 1 : 0;
  }
  console.error(`unknown command: ${positionals.join(' ')}\n\n${HELP}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

/**
 * `npm run cli -- <command>`: the operator API (docs/api.md: "Operator API") and the sandbox helpers from a
 * terminal, through the same HTTP API partners use, with the typed client (libs/api-client) generated
 * from the OpenAPI document. GATEWAY_URL (the public port, default http://127.0.0.1:3000), OPERATOR_URL (the
 * gateway's operator port, where /admin/v1 answers: default http://127.0.0.1:3100), ADMIN_API_KEY and
 * API_KEY come from the environment or the --gateway, --operator, --admin-key and --api-key flags.
 */
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { createOperatorApiClient, createPartnerApiClient, Schemas } from '@partner/api-client';
import { KEY_ENVIRONMENTS, KeyEnvironment, listOperatorKeys, OperatorKeyCommands } from '@partner/operator-access';
import { deadLettersCommand } from './dead-letters.command';
import { DEFAULT_SINK_URL, listReceived } from '../notify/notify';

const HELP = `usage: npm run cli -- <command> [options]

operator API (X-Admin-Key, on the gateway's operator port: --operator, OPERATOR_URL):
  admin partner create --name NAME                   create a partner (no key yet)
  admin key create --partner ID                      issue an API key for the partner (printed once)
  admin key list --partner ID                        the partner's keys (prefix, created, last used, revoked)
  admin key revoke --partner ID --key KEY_ID         revoke a key (refused by every gateway within a second)
  admin user create --partner ID --document CPF [--name NAME]
                                                     register a user with every service (its payment account is
                                                     opened the first time; --name sets the holder's name DICT records)
  admin user backfill [--partner ID]                 register every existing user again (all partners' by default):
                                                     hands the Pix keys service each user's account (idempotent)
  admin credit --partner ID --document CPF --micros N --idempotency-key K --reference TEXT
                                                     credit the user's USDT balance (same key again: no second credit)
  admin balance --partner ID --document CPF          the user's available and held USDT micros, and BRL cents
  admin audit [--partner ID] [--operator-key KEY_ID] [--from UNIX] [--to UNIX] [--limit N] [--before CURSOR]
                                                     the audit log, newest first, filtered
  admin partner list [--limit N] [--cursor C]        partners, newest first
  admin partner show|disable|enable --partner ID     read a partner; disable it (its keys refused everywhere
                                                     within a second, data kept) or enable it again
  admin user list --partner ID [--limit N] [--cursor C]
                                                     the partner's users with their balances
  admin ledger --partner ID --document CPF [--limit N] [--cursor C]
                                                     the user's ledger, newest first (settlements with their gas)
  admin brl-ledger --partner ID --document CPF [--limit N] [--cursor C]
                                                     the user's BRL ledger, newest first (each Pix inflow credited)
  admin unmatched-inflows [--limit N] [--cursor C]   Pix inflows the provider notified for an account no user has
  admin notifications --partner ID --customer ID    a business customer's owner e-mails and SMS: pending, sent or
                                                     failed, attempts, next attempt, last error
  admin hot-wallets                                  each network's hot wallet: address, USDT and gas now, pending, next nonce
  reconcile                                          check the final withdrawals against the chain now (their receipts,
                                                     the wallet's nonce); prints the run and every finding; exit 1 on any

operator keys (straight in the database at DATABASE_URL; no gateway needed, e.g. the first key of a deployment):
  operator-key create --name WHO [--environment production|sandbox]
                                                     create an operator key (printed once; only its SHA-256 is stored)
                                                     for the gateways of that environment (default: sandbox when
                                                     SANDBOX=true, else production); other gateways refuse it;
                                                     audited
  operator-key list                                  every operator key (prefix, created, revoked)
  operator-key revoke --key KEY_ID                   revoke one (audited; every running gateway hears it and refuses the key within about a second)

owner notifications' local sinks (npm start's; NOTIFY_SINK_URL, default http://127.0.0.1:8025):
  notifications sent                                 every e-mail and SMS the sinks received (= npm run notify -- list)

dead letters (events a service parked as unprocessable; straight in the database at DATABASE_URL):
  dead-letters list [--all]                          parked ones (--all: replayed ones too), one JSON line each
  dead-letters show ID                               one of them with its key, headers and value
  dead-letters replay ID... | --all                  run them through their service's handler again (after a fix
                                                     of the row's value if it needs one); waits and prints the outcome
sandbox (SANDBOX=true only):
  partner create [--name NAME]                       create a sandbox partner (admin key); prints its API key
  user credit --document CPF --micros N [--name NAME]
                                                     create a user with N USDT micros, or credit an existing one
  withdraw --document CPF --micros N --address 0x..  [--network MATIC|ETH] [--fee LOW|MEDIUM|HIGH] [--key UUID]
  events [--delivered true|false] [--limit N]        list the partner's events (default: not yet delivered)
  ack EVENT_ID...                                    mark events delivered

partner API (X-API-Key):
  withdraw, events, ack                              as above

options: --gateway URL  --operator URL  --admin-key KEY  --api-key KEY`;

type Withdrawal = Schemas['CreateUsdtWithdrawalRequest'];

/** Prints an answer of the typed client (status and body, success or error); 0 when it succeeded. */
function print({ data, error, response }: { data?: unknown; error?: unknown; response: Response }): number {
  console.log(`${response.status} ${JSON.stringify(data ?? error ?? null)}`);
  return response.ok ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      gateway: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000' },
      operator: { type: 'string', default: process.env.OPERATOR_URL ?? 'http://127.0.0.1:3100' },
      environment: { type: 'string', default: process.env.SANDBOX === 'true' ? 'sandbox' : 'production' },
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
      partner: { type: 'string' },
      customer: { type: 'string' },
      'idempotency-key': { type: 'string' },
      reference: { type: 'string' },
      before: { type: 'string' },
      cursor: { type: 'string' },
      'operator-key': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      all: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, ...rest] = positionals;
  const need = (value: string | undefined, flag: string) => {
    if (!value) throw new Error(`${flag} is required (see --help)`);
    return value;
  };
  const micros = () => Number(need(o.micros, '--micros'));

  if (o.help || !command) {
    console.log(HELP);
    return command ? 0 : 1;
  }
  if (command === 'admin') return operatorCommand(sub, rest, o, need);
  if (command === 'reconcile') return reconcileCommand(o, need);
  if (command === 'operator-key') return operatorKeyCommand(sub, o, need);
  if (command === 'dead-letters') return deadLettersCommand(sub, rest, { all: o.all });
  if (command === 'notifications' && sub === 'sent') return listReceived(process.env.NOTIFY_SINK_URL ?? DEFAULT_SINK_URL);
  if (command === 'partner' && sub === 'create') {
    const admin = createPartnerApiClient({ baseUrl: o.gateway, adminKey: need(o['admin-key'], '--admin-key') });
    return print(await admin.POST('/sandbox/v1/partners', { body: o.name ? { name: o.name } : {} }));
  }
  const api = createPartnerApiClient({ baseUrl: o.gateway, apiKey: need(o['api-key'], '--api-key') });
  if (command === 'user' && sub === 'credit') {
    return print(
      await api.POST('/sandbox/v1/users', {
        body: { document: need(o.document, '--document'), usdt_micros: micros(), ...(o.name ? { name: o.name } : {}) },
      }),
    );
  }
  if (command === 'withdraw') {
    const body: Withdrawal = {
      document: need(o.document, '--document'),
      idempotency_key: o.key ?? randomUUID(),
      address: need(o.address, '--address'),
      usdtmicros: micros(),
      // As typed: the gateway answers invalid_fee / invalid_request for anything else.
      fee_choice: o.fee as Withdrawal['fee_choice'],
      network: o.network as Withdrawal['network'],
    };
    console.log(`idempotency_key ${body.idempotency_key}`);
    return print(await api.POST('/partner/v1/withdrawals/usdt', { body }));
  }
  if (command === 'events') {
    if (o.delivered !== 'true' && o.delivered !== 'false') throw new Error('--delivered must be true or false');
    return print(
      await api.GET('/partner/v1/events', {
        params: { query: { delivered: o.delivered === 'true', ...(o.limit ? { limit: Number(o.limit) } : {}) } },
      }),
    );
  }
  if (command === 'ack') {
    let failures = 0;
    for (const id of [sub, ...rest].filter(Boolean))
      failures += print(await api.PATCH('/partner/v1/events/{id}', { params: { path: { id } } }));
    return failures ? 1 : 0;
  }
  console.error(`unknown command: ${positionals.join(' ')}\n\n${HELP}`);
  return 1;
}

type Options = Record<string, string | boolean | undefined>;

/**
 * `operator-key ...`: the gateway's own functions (libs/operator-access) on a pg pool, so the first key needs no
 * running gateway. Create and revoke are audited in gateway.audit_log, and a revocation is broadcast through
 * the gateway's outbox (OperatorKeyCommands), like the operator API's key operations.
 */
async function operatorKeyCommand(
  sub: string | undefined,
  o: Options,
  need: (value: string | undefined, flag: string) => string,
): Promise<number> {
  // search_path: the outbox row goes to the gateway's outbox_messages.
  const pool = new Pool({
    connectionString: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/partner',
    max: 1,
    options: '-c search_path=gateway',
  });
  const commands = new OperatorKeyCommands(pool);
  try {
    if (sub === 'create') {
      const environment = o.environment as KeyEnvironment;
      if (!KEY_ENVIRONMENTS.includes(environment)) throw new Error(`--environment must be one of ${KEY_ENVIRONMENTS.join(', ')}`);
      const created = await commands.create(need(o.name as string | undefined, '--name'), environment);
      console.log(JSON.stringify({ ...created, note: 'X-Admin-Key: the key is shown this once' }));
      return 0;
    }
    if (sub === 'list') {
      for (const key of await listOperatorKeys(pool)) console.log(JSON.stringify(key));
      return 0;
    }
    if (sub === 'revoke') {
      const revoked = await commands.revoke(need(o.key as string | undefined, '--key'));
      console.log(revoked ? JSON.stringify(revoked) : 'no operator key with this id');
      return revoked ? 0 : 1;
    }
    throw new Error(`unknown command: operator-key ${sub ?? ''} (see --help)`);
  } finally {
    await pool.end();
  }
}

/**
 * `reconcile`: a reconciliation run now (POST /admin/v1/reconciliation/runs), then the findings recorded
 * so far. Exit 1 when any finding is on record or a network could not be checked: an alert to look at.
 */
async function reconcileCommand(o: Options, need: (value: string | undefined, flag: string) => string): Promise<number> {
  const admin = createOperatorApiClient({
    baseUrl: o.operator as string,
    adminKey: need(o['admin-key'] as string | undefined, '--admin-key'),
  });
  const run = await admin.POST('/admin/v1/reconciliation/runs');
  if (print(run) !== 0 || !run.data) return 1;
  const findings = await admin.GET('/admin/v1/reconciliation/findings');
  if (print(findings) !== 0 || !findings.data) return 1;
  const unchecked = run.data.networks.filter((n) => n.error !== null).length;
  console.log(
    `reconcile: ${run.data.checked} checked, ${run.data.matched} matched, ${findings.data.findings.length} findings on record, ${unchecked} networks not reachable`,
  );
  return findings.data.findings.length === 0 && unchecked === 0 ? 0 : 1;
}

/**
 * `admin user backfill`: registers every user of the partner (of every partner when none is named) again, page by
 * page. Registration is idempotent: it changes nothing for a known user but hands the Pix keys service the user's
 * payment account, which users registered before accounts existed lack there (docs/operations/pix-and-dict.md, "Accounts and
 * BRL balances"). One line per partner; exit 1 when a registration failed (run it again: it resumes safely).
 */
async function backfillUsers(admin: ReturnType<typeof createOperatorApiClient>, only: string | undefined): Promise<number> {
  const partners: string[] = [];
  if (only) partners.push(only);
  else
    for (let cursor: string | undefined; ;) {
      const { data, error } = await admin.GET('/admin/v1/partners', { params: { query: { limit: 200, ...(cursor ? { cursor } : {}) } } });
      if (!data) throw new Error(`listing partners failed: ${JSON.stringify(error)}`);
      partners.push(...data.partners.map((p) => p.id));
      if (!data.next_cursor) break;
      cursor = data.next_cursor;
    }
  let failed = 0;
  for (const partner_id of partners) {
    let registered = 0;
    for (let cursor: string | undefined; ;) {
      const { data, error } = await admin.GET('/admin/v1/partners/{partner_id}/users', {
        params: { path: { partner_id }, query: { limit: 200, ...(cursor ? { cursor } : {}) } },
      });
      if (!data) throw new Error(`listing the users of ${partner_id} failed: ${JSON.stringify(error)}`);
      for (const { document } of data.users) {
        const { response } = await admin.POST('/admin/v1/partners/{partner_id}/users', {
          params: { path: { partner_id } },
          body: { document },
        });
        if (response.ok) registered++;
        else failed++;
      }
      if (!data.next_cursor) break;
      cursor = data.next_cursor;
    }
    console.log(`${partner_id}: ${registered} users registered again`);
  }
  return failed === 0 ? 0 : 1;
}

/** `admin ...`: one call of the operator API each. */
async function operatorCommand(
  sub: string | undefined,
  rest: string[],
  o: Options,
  need: (value: string | undefined, flag: string) => string,
): Promise<number> {
  const admin = createOperatorApiClient({
    baseUrl: o.operator as string,
    adminKey: need(o['admin-key'] as string | undefined, '--admin-key'),
  });
  const action = `${sub ?? ''} ${rest[0] ?? ''}`.trim();
  const partner_id = () => need(o.partner as string | undefined, '--partner');
  const document = () => need(o.document as string | undefined, '--document');
  const page = () => ({ ...(o.limit ? { limit: Number(o.limit) } : {}), ...(o.cursor ? { cursor: o.cursor as string } : {}) });
  switch (action) {
    case 'partner create':
      return print(await admin.POST('/admin/v1/partners', { body: { name: need(o.name as string | undefined, '--name') } }));
    case 'key create':
      return print(await admin.POST('/admin/v1/partners/{partner_id}/api-keys', { params: { path: { partner_id: partner_id() } } }));
    case 'key list':
      return print(await admin.GET('/admin/v1/partners/{partner_id}/api-keys', { params: { path: { partner_id: partner_id() } } }));
    case 'key revoke':
      return print(
        await admin.DELETE('/admin/v1/partners/{partner_id}/api-keys/{key_id}', {
          params: { path: { partner_id: partner_id(), key_id: need(o.key as string | undefined, '--key') } },
        }),
      );
    case 'user create':
      return print(
        await admin.POST('/admin/v1/partners/{partner_id}/users', {
          params: { path: { partner_id: partner_id() } },
          body: { document: document(), ...(o.name ? { name: o.name as string } : {}) },
        }),
      );
    case 'user backfill':
      return backfillUsers(admin, o.partner as string | undefined);
    case 'credit':
      return print(
        await admin.POST('/admin/v1/partners/{partner_id}/users/{document}/credits', {
          params: { path: { partner_id: partner_id(), document: document() } },
          body: {
            usdt_micros: Number(need(o.micros as string | undefined, '--micros')),
            idempotency_key: need(o['idempotency-key'] as string | undefined, '--idempotency-key'),
            reference: need(o.reference as string | undefined, '--reference'),
          },
        }),
      );
    case 'balance':
      return print(
        await admin.GET('/admin/v1/partners/{partner_id}/users/{document}/balance', {
          params: { path: { partner_id: partner_id(), document: document() } },
        }),
      );
    case 'partner list':
      return print(await admin.GET('/admin/v1/partners', { params: { query: page() } }));
    case 'partner show':
      return print(await admin.GET('/admin/v1/partners/{partner_id}', { params: { path: { partner_id: partner_id() } } }));
    case 'partner disable':
      return print(await admin.POST('/admin/v1/partners/{partner_id}/disable', { params: { path: { partner_id: partner_id() } } }));
    case 'partner enable':
      return print(await admin.POST('/admin/v1/partners/{partner_id}/enable', { params: { path: { partner_id: partner_id() } } }));
    case 'user list':
      return print(
        await admin.GET('/admin/v1/partners/{partner_id}/users', { params: { path: { partner_id: partner_id() }, query: page() } }),
      );
    case 'ledger':
      return print(
        await admin.GET('/admin/v1/partners/{partner_id}/users/{document}/ledger', {
          params: { path: { partner_id: partner_id(), document: document() }, query: page() },
        }),
      );
    case 'brl-ledger':
      return print(
        await admin.GET('/admin/v1/partners/{partner_id}/users/{document}/brl-ledger', {
          params: { path: { partner_id: partner_id(), document: document() }, query: page() },
        }),
      );
    case 'unmatched-inflows':
      return print(await admin.GET('/admin/v1/unmatched-pix-inflows', { params: { query: page() } }));
    case 'notifications':
      return print(
        await admin.GET('/admin/v1/partners/{partner_id}/business-customers/{id}/notifications', {
          params: { path: { partner_id: partner_id(), id: need(o.customer as string | undefined, '--customer') } },
        }),
      );
    case 'hot-wallets':
      return print(await admin.GET('/admin/v1/hot-wallets'));
    case 'audit': {
      const query = {
        ...(o.partner ? { partner_id: o.partner as string } : {}),
        ...(o['operator-key'] ? { operator_key_id: o['operator-key'] as string } : {}),
        ...(o.from ? { from: Number(o.from) } : {}),
        ...(o.to ? { to: Number(o.to) } : {}),
        ...(o.limit ? { limit: Number(o.limit) } : {}),
        ...(o.before ? { before: Number(o.before) } : {}),
      };
      return print(await admin.GET('/admin/v1/audit-log', { params: { query } }));
    }
    default:
      throw new Error(`unknown operator command: admin ${action} (see --help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

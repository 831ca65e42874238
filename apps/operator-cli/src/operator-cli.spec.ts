import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandContext, Flags, flagsOf, parseCommandLine } from './command-context';
import { HELP } from './help';
import { COMMANDS, resolveCommand, runOperatorCli } from './operator-cli';

const ENV = { OPERATOR_URL: 'http://operator.test', GATEWAY_URL: 'http://gateway.test', ADMIN_API_KEY: 'adm_x', API_KEY: 'pk_x' };

/** A request as the fake transport saw it. */
interface Sent {
  method: string;
  url: string;
  adminKey: string | null;
  apiKey: string | null;
  body: unknown;
}

/**
 * Runs a command line against a fake transport: every request recorded and answered by `answer` (200 `{}` by
 * default); what the command printed and its exit code.
 */
async function cli(
  argv: string[],
  answer: (url: URL, method: string) => [number, unknown] = () => [200, {}],
  env: NodeJS.ProcessEnv = ENV,
) {
  const sent: Sent[] = [];
  const printed: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void printed.push(line));
  const fetch = async (request: Request) => {
    const text = await request.text();
    sent.push({
      method: request.method,
      url: request.url,
      adminKey: request.headers.get('x-admin-key'),
      apiKey: request.headers.get('x-api-key'),
      body: text ? JSON.parse(text) : undefined,
    });
    const [status, body] = answer(new URL(request.url), request.method);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  try {
    const code = await runOperatorCli(argv, { env, fetch });
    return { code, sent, printed };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('the help', () => {
  /** The commands HELP lists: the leading words of each usage (before the description's column), `a|b` standing for each. */
  function helpCommands(): string[] {
    const commands: string[] = [];
    for (const line of HELP.split('\n').filter((l) => /^ {2}[a-z]/.test(l))) {
      const tokens = line.slice(2).split(/ {2,}/)[0].split(' ');
      const words = tokens.slice(0, tokens.findIndex((t) => !/^[a-z][a-z|-]*$/.test(t)) >>> 0);
      if (words.length === 0) continue; // `withdraw, events, ack  as above`
      for (const last of words[words.length - 1].split('|')) commands.push([...words.slice(0, -1), last].join(' '));
    }
    return commands;
  }

  it('lists exactly the commands there are', () => {
    expect(new Set(helpCommands())).toEqual(new Set(Object.keys(COMMANDS)));
  });

  it('names exactly the flags the parser accepts', () => {
    const named = new Set((HELP.match(/--[a-z][a-z-]*/g) ?? []).map((flag) => flag.slice(2)));
    expect(named).toEqual(new Set(Object.keys(flagsOf({}))));
  });

  it('is printed for --help (exit 0) and for no command at all (exit 1)', async () => {
    expect(await cli(['--help'])).toMatchObject({ code: 0, printed: [HELP], sent: [] });
    expect(await cli(['admin', 'key', 'list', '-h'])).toMatchObject({ code: 0, printed: [HELP], sent: [] });
    expect(await cli([])).toMatchObject({ code: 1, printed: [HELP] });
  });
});

describe('resolving a command', () => {
  it('takes the longest command its words name, and hands it the rest', () => {
    expect(resolveCommand(['admin', 'partner', 'show', 'extra'])).toEqual({ name: 'admin partner show', args: ['extra'] });
    expect(resolveCommand(['admin', 'credit'])).toEqual({ name: 'admin credit', args: [] });
    expect(resolveCommand(['ack', 'e1', 'e2', 'e3'])).toEqual({ name: 'ack', args: ['e1', 'e2', 'e3'] });
    expect(resolveCommand(['dead-letters', 'replay', 'a', 'b'])).toEqual({ name: 'dead-letters replay', args: ['a', 'b'] });
    expect(resolveCommand(['admin', 'nope'])).toBeUndefined();
    expect(resolveCommand(['toString'])).toBeUndefined();
  });

  it('answers an unknown command with the help on stderr, exit 1, nothing sent', async () => {
    const { code, printed, sent } = await cli(['admin', 'nope']);
    expect({ code, sent }).toEqual({ code: 1, sent: [] });
    expect(printed[0]).toBe(`unknown command: admin nope\n\n${HELP}`);
  });

  it('refuses a flag no command takes', async () => {
    await expect(cli(['admin', 'partner', 'list', '--partnr', 'p'])).rejects.toThrow("Unknown option '--partnr'");
  });
});

describe('the operator API commands', () => {
  const op = 'http://operator.test/admin/v1';
  it.each([
    [['admin', 'partner', 'create', '--name', 'Acme'], 'POST', `${op}/partners`, { name: 'Acme' }],
    [['admin', 'partner', 'list', '--limit', '5', '--cursor', 'c1'], 'GET', `${op}/partners?limit=5&cursor=c1`, undefined],
    [['admin', 'partner', 'disable', '--partner', 'p1'], 'POST', `${op}/partners/p1/disable`, undefined],
    [['admin', 'key', 'revoke', '--partner', 'p1', '--key', 'k1'], 'DELETE', `${op}/partners/p1/api-keys/k1`, undefined],
    [
      ['admin', 'user', 'create', '--partner', 'p1', '--document', '123', '--name', 'Maria'],
      'POST',
      `${op}/partners/p1/users`,
      { document: '123', name: 'Maria' },
    ],
    [
      ['admin', 'credit', '--partner', 'p1', '--document', '123', '--micros', '2500000', '--idempotency-key', 'i1', '--reference', 'r'],
      'POST',
      `${op}/partners/p1/users/123/credits`,
      { usdt_micros: 2_500_000, idempotency_key: 'i1', reference: 'r' },
    ],
    [
      ['admin', 'brl-ledger', '--partner', 'p1', '--document', '123', '--limit', '2'],
      'GET',
      `${op}/partners/p1/users/123/brl-ledger?limit=2`,
      undefined,
    ],
    [
      ['admin', 'notifications', '--partner', 'p1', '--customer', 'c9'],
      'GET',
      `${op}/partners/p1/business-customers/c9/notifications`,
      undefined,
    ],
    [
      ['admin', 'audit', '--operator-key', 'ok1', '--from', '10', '--to', '20', '--before', '7'],
      'GET',
      `${op}/audit-log?operator_key_id=ok1&from=10&to=20&before=7`,
      undefined,
    ],
    [['admin', 'hot-wallets'], 'GET', `${op}/hot-wallets`, undefined],
  ])('%j: %s %s', async (argv, method, url, body) => {
    const { code, sent, printed } = await cli(argv);
    expect(sent).toEqual([{ method, url, adminKey: 'adm_x', apiKey: null, body }]);
    expect({ code, printed }).toEqual({ code: 0, printed: ['200 {}'] });
  });

  it('takes the addresses and keys from the flags over the environment', async () => {
    const { sent } = await cli(['admin', 'key', 'list', '--partner', 'p1', '--operator', 'http://other.test', '--admin-key', 'adm_y']);
    expect(sent.map((s) => [s.url, s.adminKey])).toEqual([['http://other.test/admin/v1/partners/p1/api-keys', 'adm_y']]);
  });

  it("takes the operator key from a file (ADMIN_API_KEY_FILE), as Compose's tools container gives it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-secrets-'));
    try {
      writeFileSync(join(dir, 'admin_api_key'), 'adm_from_file\n');
      const env = { ...ENV, ADMIN_API_KEY: undefined, ADMIN_API_KEY_FILE: join(dir, 'admin_api_key') };
      const { sent } = await cli(['admin', 'key', 'list', '--partner', 'p1'], undefined, env);
      expect(sent.map((s) => s.adminKey)).toEqual(['adm_from_file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts DATABASE_PASSWORD (or its file) into DATABASE_URL for the commands that use the database', () => {
    const context = new CommandContext({} as Flags, [], {
      DATABASE_URL: 'postgresql://postgres@postgres:5432/partner',
      DATABASE_PASSWORD: 'p@ss',
    });
    expect(context.databaseUrl).toBe('postgresql://postgres:p%40ss@postgres:5432/partner');
  });

  it('prints an error answer with its status and exits 1', async () => {
    const { code, printed } = await cli(['admin', 'partner', 'show', '--partner', 'p1'], () => [404, { code: 'partner_not_found' }]);
    expect({ code, printed }).toEqual({ code: 1, printed: ['404 {"code":"partner_not_found"}'] });
  });

  it('names a missing flag, the admin key first, and sends nothing', async () => {
    await expect(cli(['admin', 'balance', '--document', '123'])).rejects.toThrow('--partner is required (see --help)');
    await expect(cli(['admin', 'balance'], undefined, { ...ENV, ADMIN_API_KEY: '' })).rejects.toThrow('--admin-key is required');
  });

  it('backfills every user of every partner, page by page, and counts the failed registrations', async () => {
    const answers: Record<string, unknown> = {
      '/admin/v1/partners?limit=200': { partners: [{ id: 'p1' }, { id: 'p2' }], next_cursor: 'c' },
      '/admin/v1/partners?limit=200&cursor=c': { partners: [{ id: 'p3' }], next_cursor: null },
      '/admin/v1/partners/p1/users?limit=200': { users: [{ document: 'd1' }], next_cursor: 'u' },
      '/admin/v1/partners/p1/users?limit=200&cursor=u': { users: [{ document: 'd2' }], next_cursor: null },
      '/admin/v1/partners/p2/users?limit=200': { users: [], next_cursor: null },
      '/admin/v1/partners/p3/users?limit=200': { users: [{ document: 'bad' }], next_cursor: null },
    };
    const { code, sent, printed } = await cli(['admin', 'user', 'backfill'], (url, method) =>
      method === 'GET' ? [200, answers[`${url.pathname}${url.search}`]] : [url.pathname.includes('p3') ? 500 : 201, {}],
    );
    expect(sent.filter((s) => s.method === 'POST').map((s) => [s.url, s.body])).toEqual([
      ['http://operator.test/admin/v1/partners/p1/users', { document: 'd1' }],
      ['http://operator.test/admin/v1/partners/p1/users', { document: 'd2' }],
      ['http://operator.test/admin/v1/partners/p3/users', { document: 'bad' }],
    ]);
    expect({ code, printed }).toEqual({
      code: 1,
      printed: ['p1: 2 users registered again', 'p2: 0 users registered again', 'p3: 0 users registered again'],
    });
  });

  it('backfills one partner when named, without listing the partners', async () => {
    const { code, sent } = await cli(['admin', 'user', 'backfill', '--partner', 'p1'], (_url, method) =>
      method === 'GET' ? [200, { users: [{ document: 'd1' }], next_cursor: null }] : [201, {}],
    );
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET http://operator.test/admin/v1/partners/p1/users?limit=200',
      'POST http://operator.test/admin/v1/partners/p1/users',
    ]);
    expect(code).toBe(0);
  });

  it.each([
    ['no findings and every network reached', [], [], [null, null], 0],
    ['an open finding', [{ kind: 'outside_transfer' }], [], [null, null], 1],
    ['only acknowledged findings', [], [{ kind: 'nonce_ahead' }], [null, null], 0],
    ['a network not reached', [], [], [null, 'timeout'], 1],
  ])('reconcile: %s', async (_case, open, acknowledged, errors, expected) => {
    const run = { checked: 3, matched: 3, new_findings: 0, networks: errors.map((error) => ({ network: 'ETH', error })) };
    const { code, sent, printed } = await cli(['reconcile'], (url) => [
      200,
      url.pathname.endsWith('/runs') ? run : { findings: url.searchParams.get('status') === 'open' ? open : acknowledged },
    ]);
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST http://operator.test/admin/v1/reconciliation/runs',
      'GET http://operator.test/admin/v1/reconciliation/findings?status=open',
      'GET http://operator.test/admin/v1/reconciliation/findings?status=acknowledged',
    ]);
    expect(printed.at(-1)).toBe(
      `reconcile: 3 checked, 3 matched, ${open.length} findings open, ${acknowledged.length} acknowledged, ${errors.filter(Boolean).length} networks not reachable`,
    );
    expect(code).toBe(expected);
  });

  it.each(['acknowledge', 'resolve'])('admin finding %s ID --note TEXT posts the note to the finding', async (step) => {
    const { code, sent } = await cli(['admin', 'finding', step, '42', '--note', 'key rotated'], () => [200, { id: 42 }]);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `http://operator.test/admin/v1/reconciliation/findings/42/${step}`,
        adminKey: 'adm_x',
        apiKey: null,
        body: { note: 'key rotated' },
      },
    ]);
    expect(code).toBe(0);
  });

  it('a finding step needs its id and a note; a refused step exits 1', async () => {
    await expect(cli(['admin', 'finding', 'resolve', '--note', 'x'])).rejects.toThrow("needs the finding's id");
    await expect(cli(['admin', 'finding', 'resolve', '7'])).rejects.toThrow('--note is required');
    const refused = await cli(['admin', 'finding', 'acknowledge', '7', '--note', 'x'], () => [409, { code: 'invalid_transition' }]);
    expect(refused.code).toBe(1);
  });

  it("admin payout cancel ID --note TEXT posts the note to the withdrawal's payout and prints the answer", async () => {
    const view = { withdrawal_id: 42, network: 'MATIC', state: 'sent', payout_state: 'cancelling', nonce: 7 };
    const { code, sent, printed } = await cli(['admin', 'payout', 'cancel', '42', '--note', 'the node keeps refusing it'], () => [
      200,
      view,
    ]);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'http://operator.test/admin/v1/payouts/42/cancel',
        adminKey: 'adm_x',
        apiKey: null,
        body: { note: 'the node keeps refusing it' },
      },
    ]);
    expect({ code, printed }).toEqual({ code: 0, printed: [`200 ${JSON.stringify(view)}`] });
  });

  it('a cancel needs the withdrawal id and a note; a refused cancel exits 1', async () => {
    await expect(cli(['admin', 'payout', 'cancel', '--note', 'x'])).rejects.toThrow("needs the withdrawal's id");
    await expect(cli(['admin', 'payout', 'cancel', '0', '--note', 'x'])).rejects.toThrow("needs the withdrawal's id");
    await expect(cli(['admin', 'payout', 'cancel', '7'])).rejects.toThrow('--note is required');
    const refused = await cli(['admin', 'payout', 'cancel', '7', '--note', 'x'], () => [409, { error: 'invalid_transition' }]);
    expect(refused.code).toBe(1);
    const missing = await cli(['admin', 'payout', 'cancel', '7', '--note', 'x'], () => [404, { error: 'not_found' }]);
    expect(missing.code).toBe(1);
  });

  it('admin findings filters by --status and refuses an unknown one', async () => {
    const { sent } = await cli(['admin', 'findings', '--status', 'open'], () => [200, { findings: [] }]);
    expect(sent.map((s) => s.url)).toEqual(['http://operator.test/admin/v1/reconciliation/findings?status=open']);
    expect((await cli(['admin', 'findings'])).sent.map((s) => s.url)).toEqual(['http://operator.test/admin/v1/reconciliation/findings']);
    await expect(cli(['admin', 'findings', '--status', 'closed'])).rejects.toThrow('--status must be one of open, acknowledged, resolved');
  });
});

describe('the MED commands', () => {
  it('admin med-cases lists with the filters; admin med-case decide posts the decision with its note as details', async () => {
    const listed = await cli(['admin', 'med-cases', '--status', 'open', '--limit', '5'], () => [200, { med_cases: [], next_cursor: null }]);
    expect(listed.sent.map((s) => s.url)).toEqual(['http://operator.test/admin/v1/med-cases?status=open&limit=5']);
    await expect(cli(['admin', 'med-cases', '--status', 'closed'])).rejects.toThrow('--status must be one of open, agreed');
    const caseId = '7f0c2a54-3c55-4a8e-9d0e-8f4f3c2b1a10';
    const { code, sent } = await cli(
      ['admin', 'med-case', 'decide', caseId, '--decision', 'reject', '--note', 'no funds', '--rejection-reason', 'NO_BALANCE'],
      () => [200, { case_id: caseId, status: 'rejected' }],
    );
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `http://operator.test/admin/v1/med-cases/${caseId}/decision`,
        adminKey: 'adm_x',
        apiKey: null,
        body: { decision: 'reject', details: 'no funds', rejection_reason: 'NO_BALANCE' },
      },
    ]);
    expect(code).toBe(0);
    await expect(cli(['admin', 'med-case', 'decide', '--decision', 'agree', '--note', 'x'])).rejects.toThrow("needs the case's id");
    await expect(cli(['admin', 'med-case', 'decide', caseId, '--note', 'x'])).rejects.toThrow('--decision is required');
    await expect(cli(['admin', 'med-case', 'decide', caseId, '--decision', 'maybe', '--note', 'x'])).rejects.toThrow(
      '--decision must be one of',
    );
  });
});

describe('the sandbox and partner API commands', () => {
  it('creates a sandbox partner with the admin key on the public port', async () => {
    const { sent } = await cli(['partner', 'create', '--name', 'Acme']);
    expect(sent).toEqual([
      { method: 'POST', url: 'http://gateway.test/sandbox/v1/partners', adminKey: 'adm_x', apiKey: null, body: { name: 'Acme' } },
    ]);
  });

  it('credits a sandbox user as the partner', async () => {
    const { sent } = await cli(['user', 'credit', '--document', '123', '--micros', '5000000']);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'http://gateway.test/sandbox/v1/users',
        adminKey: null,
        apiKey: 'pk_x',
        body: { document: '123', usdt_micros: 5_000_000 },
      },
    ]);
  });

  it('withdraws with the defaults (MATIC, MEDIUM) and prints the idempotency key it made', async () => {
    const { sent, printed } = await cli(['withdraw', '--document', '123', '--micros', '1000000', '--address', '0xabc']);
    const key = printed[0].replace('idempotency_key ', '');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'http://gateway.test/partner/v1/withdrawals/usdt',
        adminKey: null,
        apiKey: 'pk_x',
        body: { document: '123', idempotency_key: key, address: '0xabc', usdtmicros: 1_000_000, fee_choice: 'MEDIUM', network: 'MATIC' },
      },
    ]);
  });

  it('withdraws with the given network, fee and key', async () => {
    const argv = ['withdraw', '--document', '1', '--micros', '2', '--address', '0x1', '--network', 'ETH', '--fee', 'HIGH', '--key', 'k-1'];
    const { sent } = await cli(argv);
    expect(sent[0].body).toMatchObject({ idempotency_key: 'k-1', network: 'ETH', fee_choice: 'HIGH' });
  });

  it('lists the events not yet delivered by default, and refuses a --delivered that is not a boolean', async () => {
    expect((await cli(['events'])).sent.map((s) => s.url)).toEqual(['http://gateway.test/partner/v1/events?delivered=false']);
    expect((await cli(['events', '--delivered', 'true', '--limit', '3'])).sent.map((s) => s.url)).toEqual([
      'http://gateway.test/partner/v1/events?delivered=true&limit=3',
    ]);
    await expect(cli(['events', '--delivered', 'yes'])).rejects.toThrow('--delivered must be true or false');
  });

  it('acks each event named, exit 1 when any ack failed, and needs at least one', async () => {
    const { code, sent } = await cli(['ack', 'e1', 'e2'], (url) => (url.pathname.endsWith('e2') ? [404, {}] : [200, {}]));
    expect(sent.map((s) => `${s.method} ${s.url} ${s.apiKey}`)).toEqual([
      'PATCH http://gateway.test/partner/v1/events/e1 pk_x',
      'PATCH http://gateway.test/partner/v1/events/e2 pk_x',
    ]);
    expect(code).toBe(1);
    await expect(cli(['ack'])).rejects.toThrow('ack: name at least one EVENT_ID');
  });

  it('needs the partner key for the partner API', async () => {
    await expect(cli(['events'], undefined, { ...ENV, API_KEY: '' })).rejects.toThrow('--api-key is required (see --help)');
  });
});

describe('the commands on the database', () => {
  it('refuses an operator key environment other than production or sandbox before connecting', async () => {
    await expect(cli(['operator-key', 'create', '--name', 'ops', '--environment', 'staging'])).rejects.toThrow(
      '--environment must be one of sandbox, production',
    );
  });

  it('defaults an operator key to the sandbox only on a sandbox deployment', () => {
    expect(parseCommandLine([], { SANDBOX: 'true' }).values.environment).toBe('sandbox');
    expect(parseCommandLine([], {}).values.environment).toBe('production');
  });

  it('needs --name and --key before connecting', async () => {
    await expect(cli(['operator-key', 'create'])).rejects.toThrow('--name is required');
    await expect(cli(['operator-key', 'revoke'])).rejects.toThrow('--key is required');
  });
});

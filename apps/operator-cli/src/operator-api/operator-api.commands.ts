/** `admin ...`: one call of the operator API each (docs/api.md: "Operator API"), its answer printed. */
import { MED_CASE_STATUSES, MED_DECISIONS, MED_REJECTION_REASONS } from '@partner/contracts';
import { CommandContext, Commands, defined, print } from '../command-context';
import { backfillUsers } from './user-backfill';

const partner = (c: CommandContext) => ({ path: { partner_id: c.need('partner') } });
const user = (c: CommandContext) => ({ path: { partner_id: c.need('partner'), document: c.need('document') } });
const page = (c: CommandContext) => defined({ limit: c.number('limit'), cursor: c.flags.cursor });
const FINDING_STATUSES = ['open', 'acknowledged', 'resolved'] as const;

/** A flag's value checked against its list here (the API would refuse another value too, less plainly); undefined when not given. */
function oneOf<const T extends string>(
  c: CommandContext,
  flag: 'status' | 'decision' | 'rejection-reason',
  list: readonly T[],
): T | undefined {
  const value = c.flags[flag];
  if (value === undefined) return undefined;
  const known = list.find((s) => s === value);
  if (!known) throw new Error(`--${flag} must be one of ${list.join(', ')}`);
  return known;
}

/** `admin med-case decide CASE_ID --decision D --note TEXT [--cents N] [--rejection-reason R]`: the operator's decision. */
async function decideMedCase(c: CommandContext) {
  const [caseId] = c.args;
  if (!caseId) throw new Error("admin med-case decide needs the case's id (see --help)");
  const decision = oneOf(c, 'decision', MED_DECISIONS);
  if (!decision) throw new Error('--decision is required (see --help)');
  return print(
    await c.operatorApi().POST('/admin/v1/med-cases/{case_id}/decision', {
      params: { path: { case_id: caseId } },
      body: {
        decision,
        details: c.need('note'),
        ...defined({ amount_cents: c.number('cents'), rejection_reason: oneOf(c, 'rejection-reason', MED_REJECTION_REASONS) }),
      },
    }),
  );
}

/** `admin finding acknowledge|resolve ID --note TEXT`: one step of the finding's workflow. */
const findingStep = (step: 'acknowledge' | 'resolve') => async (c: CommandContext) => {
  const [id] = c.args;
  if (!id || !/^[1-9][0-9]*$/.test(id)) throw new Error(`admin finding ${step} needs the finding's id (see --help)`);
  return print(
    await c.operatorApi().POST(`/admin/v1/reconciliation/findings/{id}/${step}`, {
      params: { path: { id: Number(id) } },
      body: { note: c.need('note') },
    }),
  );
};

/** `admin payout cancel WITHDRAWAL_ID --note TEXT`: cancel the nonce the withdrawal's payout holds. */
async function cancelPayout(c: CommandContext) {
  const [id] = c.args;
  if (!id || !/^[1-9][0-9]*$/.test(id)) throw new Error("admin payout cancel needs the withdrawal's id (see --help)");
  return print(
    await c.operatorApi().POST('/admin/v1/payouts/{withdrawal_id}/cancel', {
      params: { path: { withdrawal_id: Number(id) } },
      body: { note: c.need('note') },
    }),
  );
}

export const OPERATOR_API_COMMANDS: Commands = {
  'admin partner create': async (c) => print(await c.operatorApi().POST('/admin/v1/partners', { body: { name: c.need('name') } })),
  'admin partner list': async (c) => print(await c.operatorApi().GET('/admin/v1/partners', { params: { query: page(c) } })),
  'admin partner show': async (c) => print(await c.operatorApi().GET('/admin/v1/partners/{partner_id}', { params: partner(c) })),
  'admin partner disable': async (c) =>
    print(await c.operatorApi().POST('/admin/v1/partners/{partner_id}/disable', { params: partner(c) })),
  'admin partner enable': async (c) => print(await c.operatorApi().POST('/admin/v1/partners/{partner_id}/enable', { params: partner(c) })),
  'admin key create': async (c) => print(await c.operatorApi().POST('/admin/v1/partners/{partner_id}/api-keys', { params: partner(c) })),
  'admin key list': async (c) => print(await c.operatorApi().GET('/admin/v1/partners/{partner_id}/api-keys', { params: partner(c) })),
  'admin key revoke': async (c) =>
    print(
      await c.operatorApi().DELETE('/admin/v1/partners/{partner_id}/api-keys/{key_id}', {
        params: { path: { partner_id: c.need('partner'), key_id: c.need('key') } },
      }),
    ),
  'admin user create': async (c) =>
    print(
      await c.operatorApi().POST('/admin/v1/partners/{partner_id}/users', {
        params: partner(c),
        body: { document: c.need('document'), ...defined({ name: c.flags.name }) },
      }),
    ),
  'admin user backfill': async (c) => backfillUsers(c.operatorApi(), c.flags.partner),
  'admin user list': async (c) =>
    print(await c.operatorApi().GET('/admin/v1/partners/{partner_id}/users', { params: { ...partner(c), query: page(c) } })),
  'admin credit': async (c) =>
    print(
      await c.operatorApi().POST('/admin/v1/partners/{partner_id}/users/{document}/credits', {
        params: user(c),
        body: { usdt_micros: Number(c.need('micros')), idempotency_key: c.need('idempotency-key'), reference: c.need('reference') },
      }),
    ),
  'admin balance': async (c) =>
    print(await c.operatorApi().GET('/admin/v1/partners/{partner_id}/users/{document}/balance', { params: user(c) })),
  'admin ledger': async (c) =>
    print(await c.operatorApi().GET('/admin/v1/partners/{partner_id}/users/{document}/ledger', { params: { ...user(c), query: page(c) } })),
  'admin brl-ledger': async (c) =>
    print(
      await c.operatorApi().GET('/admin/v1/partners/{partner_id}/users/{document}/brl-ledger', { params: { ...user(c), query: page(c) } }),
    ),
  'admin unmatched-inflows': async (c) =>
    print(await c.operatorApi().GET('/admin/v1/unmatched-pix-inflows', { params: { query: page(c) } })),
  'admin med-cases': async (c) =>
    print(
      await c.operatorApi().GET('/admin/v1/med-cases', {
        params: { query: defined({ status: oneOf(c, 'status', MED_CASE_STATUSES), partner_id: c.flags.partner, ...page(c) }) },
      }),
    ),
  'admin med-case decide': decideMedCase,
  'admin notifications': async (c) =>
    print(
      await c.operatorApi().GET('/admin/v1/partners/{partner_id}/business-customers/{id}/notifications', {
        params: { path: { partner_id: c.need('partner'), id: c.need('customer') } },
      }),
    ),
  'admin hot-wallets': async (c) => print(await c.operatorApi().GET('/admin/v1/hot-wallets')),
  'admin findings': async (c) =>
    print(
      await c
        .operatorApi()
        .GET('/admin/v1/reconciliation/findings', { params: { query: defined({ status: oneOf(c, 'status', FINDING_STATUSES) }) } }),
    ),
  'admin finding acknowledge': findingStep('acknowledge'),
  'admin finding resolve': findingStep('resolve'),
  'admin payout cancel': cancelPayout,
  'admin audit': async (c) =>
    print(
      await c.operatorApi().GET('/admin/v1/audit-log', {
        params: {
          query: defined({
            partner_id: c.flags.partner,
            operator_key_id: c.flags['operator-key'],
            from: c.number('from'),
            to: c.number('to'),
            limit: c.number('limit'),
            before: c.number('before'),
          }),
        },
      }),
    ),
  reconcile,
};

/**
 * `reconcile`: a reconciliation run now (POST /admin/v1/reconciliation/runs), then the findings not resolved.
 * Exit 1 while any finding is open (nobody has taken it yet) or a network could not be checked: an alert to
 * look at. Acknowledged ones are listed but do not fail it (someone is on them); resolved ones are not listed.
 */
async function reconcile(c: CommandContext): Promise<number> {
  const admin = c.operatorApi();
  const run = await admin.POST('/admin/v1/reconciliation/runs');
  if (print(run) !== 0 || !run.data) return 1;
  const open = await admin.GET('/admin/v1/reconciliation/findings', { params: { query: { status: 'open' } } });
  if (print(open) !== 0 || !open.data) return 1;
  const acknowledged = await admin.GET('/admin/v1/reconciliation/findings', { params: { query: { status: 'acknowledged' } } });
  if (print(acknowledged) !== 0 || !acknowledged.data) return 1;
  const unchecked = run.data.networks.filter((n) => n.error !== null).length;
  console.log(
    `reconcile: ${run.data.checked} checked, ${run.data.matched} matched, ${open.data.findings.length} findings open, ${acknowledged.data.findings.length} acknowledged, ${unchecked} networks not reachable`,
  );
  return open.data.findings.length === 0 && unchecked === 0 ? 0 : 1;
}

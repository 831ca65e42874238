import { failureList, onConnection } from './audit-support';
import { ChaosPartner, LoadLedger } from './partner-load';

/**
 * The BRL verdict of a fault-injection run: the users' BRL balances (the inflows service's accounts and
 * brl_ledger_entries), the partners' refunds of their Pix inflows, and the devoluções the Pix provider holds:
 * - every balance is its ledger's sum, and the ledger's running available balance never went below zero;
 * - the credits are the credited inflows, once each;
 * - each refund took its cents once (one pix_in_refund line) and, failed, gave them back once (one reversal), none
 *   when returned; an inflow's refunded cents are its refunds not failed, its returned cents those returned, never
 *   more than its amount;
 * - every refund the clients were answered is held, with the amount they asked;
 * - at the provider (when the run can read it): each returned refund is exactly one devolução made (DEVOLVIDO) for
 *   its amount, a failed one none, and there is no devolução the service does not hold: no money left twice.
 */
export interface BrlAudit {
  users: number;
  refunds: { success: number; failed: number; open: number };
  /** Devoluções the provider made, all of them the service's returned refunds; undefined when the run cannot read the provider. */
  devolucoes?: number;
  failures: string[];
}

/** A devolução as the Pix provider holds it (the Pix API's `Devolucao`). */
export interface ProviderDevolucao {
  id: string;
  valor: string;
  status: string;
}

interface UserRow {
  partner_id: string;
  document: string;
  available: string;
  blocked: string;
  ledger_available: string;
  ledger_blocked: string;
  min_running_available: string;
  credit_lines: string;
  credit_cents: string;
  credited_inflow_cents: string;
}

interface RefundRow {
  id: string;
  partner_id: string;
  end_to_end_id: string;
  amount_cents: string;
  status: string;
  provider_id: string;
  debits: string;
  debit_cents: string;
  reversals: string;
  reversal_cents: string;
}

interface InflowRow {
  end_to_end_id: string;
  amount_cents: string;
  refunded_cents: string;
  returned_cents: string;
  held_by_refunds: string;
  returned_by_refunds: string;
}

const PER_USER = `
  WITH running AS (
    SELECT partner_id, document, sum(available_delta_cents) OVER w AS run_available
    FROM inflows.brl_ledger_entries WHERE partner_id = ANY($1::uuid[])
    WINDOW w AS (PARTITION BY partner_id, document ORDER BY id))
  SELECT a.partner_id, trim(a.document) AS document, a.available_brl_cents AS available, a.blocked_brl_cents AS blocked,
         coalesce((SELECT sum(available_delta_cents) FROM inflows.brl_ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document), 0) AS ledger_available,
         coalesce((SELECT sum(blocked_delta_cents) FROM inflows.brl_ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document), 0) AS ledger_blocked,
         coalesce((SELECT min(run_available) FROM running r WHERE r.partner_id = a.partner_id AND r.document = a.document), 0) AS min_running_available,
         (SELECT count(*) FROM inflows.brl_ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document AND l.type = 'pix_in_credit') AS credit_lines,
         coalesce((SELECT sum(available_delta_cents) FROM inflows.brl_ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document AND l.type = 'pix_in_credit'), 0) AS credit_cents,
         coalesce((SELECT sum(amount_cents) FROM inflows.pix_inflows i WHERE i.partner_id = a.partner_id AND i.document = a.document
                     AND i.status IN ('credited', 'partially_returned', 'returned', 'blocked')), 0) AS credited_inflow_cents
  FROM inflows.accounts a WHERE a.partner_id = ANY($1::uuid[])
  ORDER BY a.partner_id, a.document`;

const REFUNDS = `
  SELECT r.id::text AS id, r.partner_id, r.end_to_end_id, r.amount_cents, r.status, r.provider_id,
         (SELECT count(*) FROM inflows.brl_ledger_entries l WHERE l.end_to_end_id = r.end_to_end_id AND l.refund_id = r.id AND l.type = 'pix_in_refund') AS debits,
         coalesce((SELECT sum(available_delta_cents) FROM inflows.brl_ledger_entries l WHERE l.end_to_end_id = r.end_to_end_id AND l.refund_id = r.id AND l.type = 'pix_in_refund'), 0) AS debit_cents,
         (SELECT count(*) FROM inflows.brl_ledger_entries l WHERE l.end_to_end_id = r.end_to_end_id AND l.refund_id = r.id AND l.type = 'pix_in_refund_reversal') AS reversals,
         coalesce((SELECT sum(available_delta_cents) FROM inflows.brl_ledger_entries l WHERE l.end_to_end_id = r.end_to_end_id AND l.refund_id = r.id AND l.type = 'pix_in_refund_reversal'), 0) AS reversal_cents
  FROM inflows.pix_in_refunds r WHERE r.partner_id = ANY($1::uuid[]) AND r.med_case_id IS NULL
  ORDER BY r.id`;

const INFLOWS = `
  SELECT i.end_to_end_id, i.amount_cents, i.refunded_cents, i.returned_cents,
         coalesce((SELECT sum(amount_cents) FROM inflows.pix_in_refunds r WHERE r.end_to_end_id = i.end_to_end_id AND r.status <> 'failed'), 0) AS held_by_refunds,
         coalesce((SELECT sum(amount_cents) FROM inflows.pix_in_refunds r WHERE r.end_to_end_id = i.end_to_end_id AND r.status = 'success'), 0) AS returned_by_refunds
  FROM inflows.pix_inflows i WHERE i.partner_id = ANY($1::uuid[])`;

/** The Pix API's `valor` of an amount in cents ("12.34"). */
const valorOf = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/**
 * `devolucoesOf`: the provider's devoluções of an inflow (the Pix API test server's own record), when the run holds
 * the server; without it the provider's side is not checked.
 */
export async function auditBrl(options: {
  databaseUrl: string;
  partners: ChaosPartner[];
  ledger: LoadLedger;
  devolucoesOf?: (endToEndId: string) => ProviderDevolucao[];
}): Promise<BrlAudit> {
  const { databaseUrl, partners, ledger, devolucoesOf } = options;
  const { failures, fail } = failureList();
  const ids = [partners.map((p) => p.id)];
  const [users, refunds, inflows] = await onConnection(
    databaseUrl,
    async (db) =>
      [
        (await db.query<UserRow>(PER_USER, ids)).rows,
        (await db.query<RefundRow>(REFUNDS, ids)).rows,
        (await db.query<InflowRow>(INFLOWS, ids)).rows,
      ] as const,
  );

  for (const u of users) {
    const who = `user ${u.partner_id} ${u.document}`;
    if (BigInt(u.ledger_available) !== BigInt(u.available) || BigInt(u.ledger_blocked) !== BigInt(u.blocked))
      fail(`${who}: the ledger sums to ${u.ledger_available} / ${u.ledger_blocked}, the balance is ${u.available} / ${u.blocked}`);
    if (BigInt(u.min_running_available) < 0n) fail(`${who}: the ledger's running available balance went to ${u.min_running_available}`);
    if (BigInt(u.credit_cents) !== BigInt(u.credited_inflow_cents))
      fail(`${who}: ${u.credit_lines} credits of ${u.credit_cents} cents, its credited inflows amount to ${u.credited_inflow_cents}`);
  }

  const tally = { success: 0, failed: 0, open: 0 };
  for (const r of refunds) {
    const what = `refund ${r.id} (${r.status}, ${r.amount_cents} cents of ${r.end_to_end_id})`;
    const cents = BigInt(r.amount_cents);
    if (r.status === 'success') tally.success++;
    else if (r.status === 'failed') tally.failed++;
    else {
      tally.open++;
      fail(`${what}: not final`);
    }
    if (Number(r.debits) !== 1 || BigInt(r.debit_cents) !== -cents)
      fail(`${what}: ${r.debits} debits of ${r.debit_cents} cents, not one of -${cents}`);
    const reversals = r.status === 'failed' ? 1 : 0;
    if (Number(r.reversals) !== reversals || BigInt(r.reversal_cents) !== BigInt(reversals) * cents)
      fail(`${what}: ${r.reversals} reversals of ${r.reversal_cents} cents, expected ${reversals}`);
  }
  for (const i of inflows) {
    const what = `inflow ${i.end_to_end_id}`;
    if (BigInt(i.refunded_cents) !== BigInt(i.held_by_refunds))
      fail(`${what}: refunded_cents ${i.refunded_cents}, its refunds not failed amount to ${i.held_by_refunds}`);
    if (BigInt(i.returned_cents) !== BigInt(i.returned_by_refunds))
      fail(`${what}: returned_cents ${i.returned_cents}, its returned refunds amount to ${i.returned_by_refunds}`);
    if (BigInt(i.refunded_cents) > BigInt(i.amount_cents)) fail(`${what}: ${i.refunded_cents} cents refunded of ${i.amount_cents}`);
  }

  const held = new Map(refunds.map((r) => [r.id, r]));
  for (const told of ledger.refunds.values()) {
    const r = held.get(told.id);
    if (!r || r.partner_id !== told.partner.id || r.end_to_end_id.trim() !== told.endToEndId || Number(r.amount_cents) !== told.cents)
      fail(
        `refund ${told.id} answered for ${told.cents} cents of ${told.endToEndId}: the service holds ${r ? `${r.amount_cents} cents of ${r.end_to_end_id}` : 'nothing'}`,
      );
  }

  let devolucoes: number | undefined;
  if (devolucoesOf) {
    devolucoes = 0;
    const byProviderId = new Map(refunds.map((r) => [r.provider_id, r]));
    for (const i of inflows) {
      for (const d of devolucoesOf(i.end_to_end_id.trim())) {
        const r = byProviderId.get(d.id);
        if (d.status === 'DEVOLVIDO') devolucoes++;
        if (!r) {
          if (d.status !== 'NAO_REALIZADO')
            fail(`devolução ${d.id} of ${i.end_to_end_id} (${d.status}, ${d.valor}): no refund of the service`);
          continue;
        }
        if (r.status === 'success' && (d.status !== 'DEVOLVIDO' || d.valor !== valorOf(BigInt(r.amount_cents))))
          fail(`refund ${r.id} returned, its devolução is ${d.status} for ${d.valor}`);
        if (r.status === 'failed' && d.status === 'DEVOLVIDO')
          fail(`refund ${r.id} failed (credited back), its devolução was made: ${d.valor}`);
      }
    }
    for (const r of refunds)
      if (r.status === 'success' && !devolucoesOf(r.end_to_end_id.trim()).some((d) => d.id === r.provider_id))
        fail(`refund ${r.id} returned, the provider has no devolução ${r.provider_id}`);
  }
  return { users: users.length, refunds: tally, devolucoes, failures };
}

import { failureList, onConnection } from './audit-support';
import { callGateway, ChaosPartner, LoadLedger } from './partner-load';

/**
 * The money verdict of a fault-injection run, per user, from the withdrawals service's own tables
 * (docs/architecture.md: accounts, withdrawals, ledger_entries, credits) held against what the clients
 * were answered, and the operator API's balance held against the tables:
 * - credits: the database holds exactly the credits the clients were told of (the user's first one and
 *   every operator credit answered 201/200), none twice;
 * - withdrawals: exactly those answered 201/200; balance = credits − settled withdrawals (fees included),
 *   nothing held once every one is final (a failed withdrawal gives its hold back);
 * - the ledger sums to the balance, and its running balance, in the order it was written, never went
 *   below zero (available or held); the CHECK constraints that forbid a negative balance are in force.
 */
export interface MoneyAudit {
  users: number;
  /** Users whose balance or running ledger balance went below zero. */
  overdraft: number;
  /** Users whose balance, ledger, credits or withdrawals disagree with each other or with the clients. */
  drift: number;
  credited: number;
  /** Micros taken for good (settled withdrawals, fees included). */
  spent: number;
  acceptedWithdrawals: number;
  insufficient: number;
  failures: string[];
}

interface UserRow {
  partner_id: string;
  document: string;
  available: string;
  held: string;
  ledger_available: string;
  ledger_held: string;
  min_running_available: string;
  min_running_held: string;
  credited: string;
  credits: string;
  spent: string;
  open_held: string;
}

/** One row per account of the partners: balances, ledger sums and running minima, credits, withdrawals by outcome. */
const PER_USER = `
  WITH running AS (
    SELECT partner_id, document,
           sum(available_delta) OVER w AS run_available, sum(held_delta) OVER w AS run_held
    FROM withdrawals.ledger_entries WHERE partner_id = ANY($1::uuid[])
    WINDOW w AS (PARTITION BY partner_id, document ORDER BY id))
  SELECT a.partner_id, trim(a.document) AS document, a.available_micros AS available, a.held_micros AS held,
         coalesce((SELECT sum(available_delta) FROM withdrawals.ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document), 0) AS ledger_available,
         coalesce((SELECT sum(held_delta) FROM withdrawals.ledger_entries l WHERE l.partner_id = a.partner_id AND l.document = a.document), 0) AS ledger_held,
         coalesce((SELECT min(run_available) FROM running r WHERE r.partner_id = a.partner_id AND r.document = a.document), 0) AS min_running_available,
         coalesce((SELECT min(run_held) FROM running r WHERE r.partner_id = a.partner_id AND r.document = a.document), 0) AS min_running_held,
         coalesce((SELECT sum(amount_micros) FROM withdrawals.credits c WHERE c.partner_id = a.partner_id AND c.document = a.document), 0) AS credited,
         (SELECT count(*) FROM withdrawals.credits c WHERE c.partner_id = a.partner_id AND c.document = a.document) AS credits,
         coalesce((SELECT sum(amount_micros + fee_micros) FROM withdrawals.withdrawals w WHERE w.partner_id = a.partner_id AND w.document = a.document AND w.state = 'settled'), 0) AS spent,
         coalesce((SELECT sum(amount_micros + fee_micros) FROM withdrawals.withdrawals w WHERE w.partner_id = a.partner_id AND w.document = a.document AND w.state IN ('pending_approval', 'created', 'sent')), 0) AS open_held
  FROM withdrawals.accounts a WHERE a.partner_id = ANY($1::uuid[])
  ORDER BY a.partner_id, a.document`;

/** The constraints that make an overdraft impossible whatever the code does (migration 20261122023256_init). */
const GUARDS = ['accounts_available_non_negative', 'accounts_held_non_negative'];

/** `operatorUrl`: where the operator API answers (the gateway's operator port); default `gatewayUrl`. */
export async function auditMoney(options: {
  gatewayUrl: string;
  operatorUrl?: string;
  databaseUrl: string;
  adminKey: string;
  partners: ChaosPartner[];
  ledger: LoadLedger;
}): Promise<MoneyAudit> {
  const { gatewayUrl, databaseUrl, adminKey, partners, ledger } = options;
  const operatorUrl = options.operatorUrl ?? gatewayUrl;
  const { failures, fail } = failureList();
  const ids = [partners.map((p) => p.id)];
  const [rows, withdrawals, creditKeys, guards] = await onConnection(
    databaseUrl,
    async (db) =>
      [
        (await db.query<UserRow>(PER_USER, ids)).rows,
        (
          await db.query<{ partner_id: string; document: string; id: number }>(
            'SELECT partner_id, trim(document) AS document, id FROM withdrawals.withdrawals WHERE partner_id = ANY($1::uuid[])',
            ids,
          )
        ).rows,
        (
          await db.query<{ partner_id: string; idempotency_key: string }>(
            'SELECT partner_id, idempotency_key FROM withdrawals.credits WHERE partner_id = ANY($1::uuid[])',
            ids,
          )
        ).rows,
        (
          await db.query<{ conname: string; convalidated: boolean }>(
            "SELECT conname, convalidated FROM pg_constraint WHERE conrelid = 'withdrawals.accounts'::regclass AND contype = 'c'",
          )
        ).rows,
      ] as const,
  );

  for (const name of GUARDS) {
    if (!guards.some((g) => g.conname === name && g.convalidated))
      fail(`constraint ${name} is missing or not validated on withdrawals.accounts`);
  }

  // What the clients were told, per user.
  const userKey = (partnerId: string, document: string) => `${partnerId} ${document}`;
  const told = new Map<string, { credited: number; credits: number; withdrawals: Set<number>; micros: Map<number, number> }>();
  for (const p of partners) {
    for (const u of p.users)
      told.set(userKey(p.id, u.document), { credited: u.initialMicros, credits: 1, withdrawals: new Set(), micros: new Map() });
  }
  for (const c of ledger.credits.values()) {
    const t = told.get(userKey(c.partner.id, c.document));
    if (t) {
      t.credited += c.micros;
      t.credits++;
    }
  }
  for (const w of ledger.withdrawals.values()) {
    const t = told.get(userKey(w.partner.id, w.document));
    t?.withdrawals.add(w.id);
    t?.micros.set(w.id, w.micros);
  }
  const operatorKeys = new Set([...ledger.credits.values()].map((c) => `${c.partner.id} ${c.key}`));
  const missingCredits = [...operatorKeys].filter((k) => !creditKeys.some((c) => `${c.partner_id} ${c.idempotency_key}` === k));
  if (missingCredits.length > 0)
    fail(`${missingCredits.length} credits answered 201/200 are not in withdrawals.credits (e.g. ${missingCredits[0]})`);
  const inDatabase = new Map<string, Set<number>>();
  for (const w of withdrawals) {
    const k = userKey(w.partner_id, w.document);
    inDatabase.set(k, (inDatabase.get(k) ?? new Set()).add(Number(w.id)));
  }

  let overdraft = 0;
  let drift = 0;
  let credited = 0;
  let spent = 0;
  const seen = new Set<string>();
  for (const r of rows) {
    const k = userKey(r.partner_id, r.document);
    seen.add(k);
    const [available, held] = [BigInt(r.available), BigInt(r.held)];
    credited += Number(r.credited);
    spent += Number(r.spent);
    const problems: string[] = [];
    if (available < 0n || held < 0n || BigInt(r.min_running_available) < 0n || BigInt(r.min_running_held) < 0n) {
      overdraft++;
      fail(
        `user ${k}: below zero (available ${available}, held ${held}, lowest running ledger balance ${r.min_running_available} / ${r.min_running_held})`,
      );
    }
    const t = told.get(k);
    if (!t) {
      problems.push('an account no client made');
    } else {
      if (Number(r.credited) !== t.credited || Number(r.credits) !== t.credits)
        problems.push(`credited ${r.credited} in ${r.credits} credits, clients were told ${t.credited} in ${t.credits}`);
      const db = inDatabase.get(k) ?? new Set<number>();
      const unknown = [...db].filter((id) => !t.withdrawals.has(id));
      const lost = [...t.withdrawals].filter((id) => !db.has(id));
      if (unknown.length + lost.length > 0)
        problems.push(
          `withdrawals: ${unknown.length} in the database no client was answered for, ${lost.length} answered but not in the database`,
        );
    }
    // balance = credits − accepted withdrawals, fees included (failed ones gave their hold back; open ones still hold it).
    if (available + held !== BigInt(r.credited) - BigInt(r.spent))
      problems.push(`available ${available} + held ${held} ≠ credited ${r.credited} − settled ${r.spent}`);
    if (held !== BigInt(r.open_held)) problems.push(`held ${held} ≠ open withdrawals ${r.open_held}`);
    if (BigInt(r.ledger_available) !== available || BigInt(r.ledger_held) !== held)
      problems.push(`ledger sums to ${r.ledger_available} / ${r.ledger_held}, balance is ${available} / ${held}`);
    if (problems.length > 0) {
      drift++;
      fail(`user ${k}: ${problems.join('; ')}`);
    }
  }
  for (const k of told.keys()) {
    if (!seen.has(k)) {
      drift++;
      fail(`user ${k}: no account in the database`);
    }
  }

  // The operator API answers the same balances as the tables (a sample: one user of each partner).
  for (const p of partners) {
    const u = p.users[0];
    const row = rows.find((r) => r.partner_id === p.id && r.document === u.document);
    const res = await callGateway(operatorUrl, 'GET', `/admin/v1/partners/${p.id}/users/${u.document}/balance`, {
      'x-admin-key': adminKey,
    });
    const answered = `${String(res.body?.available_usdt_micros)} / ${String(res.body?.held_usdt_micros)}`;
    if (res.status !== 200 || !row || answered !== `${row.available} / ${row.held}`)
      fail(`user ${p.id} ${u.document}: the operator API answers ${res.status} ${answered}, the database ${row?.available} / ${row?.held}`);
  }

  return {
    users: rows.length,
    overdraft,
    drift,
    credited,
    spent,
    acceptedWithdrawals: ledger.withdrawals.size,
    insufficient: ledger.insufficient,
    failures,
  };
}

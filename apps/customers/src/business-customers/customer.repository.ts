import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, CreateBusinessCustomerRequest, PageRequest, PartnerId } from '@partner/contracts';
import { Database, KeysetFilter, keysetPageStatement, statement, Transaction } from '@partner/db';
import { NewOwnerNotification } from '../notifications/owner-notification.repository';

/** The registration as validated, in plain JSON (what is stored in `body`). */
export type BusinessCustomerBody = CreateBusinessCustomerRequest;

export interface Customer {
  id: string;
  partnerId: PartnerId;
  cnpj: string;
  legalName: string;
  externalId: string | null;
  body: BusinessCustomerBody;
  createdAt: Date;
}

/** A row of `customers` as the driver returns it (jsonb parsed). */
interface CustomerRow {
  id: string;
  partner_id: string;
  cnpj: string;
  legal_name: string;
  external_id: string | null;
  body: BusinessCustomerBody;
  created_at: Date;
}

/** A row of a LEFT JOIN whose right side may be missing. */
type Nullable<T> = { [K in keyof T]: T[K] | null };

/** A row parsed into the aggregate, field by field. Its partner id is one a PartnerId was stored as (every write takes one). */
const toCustomer = (r: CustomerRow): Customer => ({
  id: r.id,
  partnerId: authenticatedPartnerId(r.partner_id),
  cnpj: r.cnpj,
  legalName: r.legal_name,
  externalId: r.external_id,
  body: r.body,
  createdAt: r.created_at,
});

/** The idempotency key a registration claims, with the fingerprint of its request (idempotency.ts). */
export interface Claim {
  idempotencyKey: string;
  fingerprint: string;
}

/** What a registration's key is bound to: the fingerprint of the request that bound it and the customer it registered. */
export interface IdempotencyRecord {
  fingerprint: string;
  customerId: string;
}

/**
 * What a registration's statement did: registered the customer; found the CNPJ registered already (the
 * caller rolls back: a claim made with it must not stay); or found the key taken, with its record when
 * this statement's snapshot shows it.
 */
export type CreateOutcome = { created: Customer } | 'already_exists' | { taken: IdempotencyRecord | null };

/**
 * A registration in one statement, one round trip. With an idempotency key ($10, null without one), claims
 * it first (ON CONFLICT DO NOTHING on the primary key of `idempotency_records`: a concurrent duplicate
 * waits for the first transaction, then claims nothing), and inserts the rest only if the claim is ours.
 * Inserts the customer unless the partner already has one with this CNPJ (a concurrent registration of
 * the same CNPJ waits on the unique index, then inserts nothing), and its owner notifications only if it
 * was inserted. Data-modifying CTEs always run, so a claim whose customer was not inserted is there until
 * the caller rolls back. The key's record is joined for the replay of a key committed before this
 * statement started; one committed while it waited is not in its snapshot, and is read afterwards.
 */
const INSERT_CLAIMED_WITH_NOTIFICATIONS = statement(
  'customers_insert_claimed_with_notifications',
  `WITH claim AS (
     INSERT INTO idempotency_records (partner_id, idempotency_key, fingerprint, customer_id)
     SELECT $2::uuid, $10::varchar, $11::bpchar, $1::uuid WHERE $10::varchar IS NOT NULL
     ON CONFLICT (partner_id, idempotency_key) DO NOTHING
     RETURNING 1),
   c AS (
     INSERT INTO customers (id, partner_id, cnpj, legal_name, external_id, body)
     SELECT $1::uuid, $2::uuid, $3::bpchar, $4::text, $5::text, $6::jsonb
     WHERE $10::varchar IS NULL OR EXISTS (SELECT 1 FROM claim)
     ON CONFLICT (partner_id, cnpj) DO NOTHING
     RETURNING *),
   n AS (
     INSERT INTO owner_notifications (partner_id, customer_id, owner_index, channel, destination)
     SELECT c.partner_id, c.id, n.owner_index, n.channel, n.destination
     FROM c, unnest($7::int[], $8::text[], $9::text[]) AS n(owner_index, channel, destination)
     RETURNING 1)
   SELECT $10::varchar IS NULL OR EXISTS (SELECT 1 FROM claim) AS claimed, c.*,
          p.fingerprint AS p_fingerprint, p.customer_id AS p_customer_id
   FROM (SELECT 1) AS one
   LEFT JOIN c ON true
   LEFT JOIN idempotency_records p ON p.partner_id = $2 AND p.idempotency_key = $10`,
);

const FIND_RECORD = statement(
  'customers_idempotency_find',
  'SELECT fingerprint, customer_id FROM idempotency_records WHERE partner_id = $1 AND idempotency_key = $2',
);

const FIND_BY_CNPJ = statement('customers_by_cnpj', 'SELECT * FROM customers WHERE partner_id = $1 AND cnpj = $2');
const FIND_BY_ID = statement('customers_by_id', 'SELECT * FROM customers WHERE partner_id = $1 AND id = $2');

/** The Customer aggregate's storage. Every method is scoped by partner. */
@Injectable()
export class CustomerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims `claim` (none: no key) and inserts the customer with the owner notifications its config asks for
   * (see INSERT_CLAIMED_WITH_NOTIFICATIONS). Answers the customer, or why there is none; the caller rolls
   * back unless created.
   */
  async create(
    tx: Transaction,
    partnerId: PartnerId,
    id: string,
    body: BusinessCustomerBody,
    notifications: NewOwnerNotification[],
    claim?: Claim,
  ): Promise<CreateOutcome> {
    const {
      rows: [row],
    } = await tx.query<Nullable<CustomerRow> & { claimed: boolean; p_fingerprint: string | null; p_customer_id: string | null }>(
      INSERT_CLAIMED_WITH_NOTIFICATIONS,
      [
        id,
        partnerId,
        body.cnpj,
        body.legal_name,
        body.metadata?.external_id ?? null,
        // As JSON text: the driver would send an array as a PostgreSQL array, and `body` is an object anyway.
        JSON.stringify(body),
        notifications.map((n) => n.ownerIndex),
        notifications.map((n) => n.channel),
        notifications.map((n) => n.destination),
        claim?.idempotencyKey ?? null,
        claim?.fingerprint ?? null,
      ],
    );
    if (!row.claimed) {
      const { p_fingerprint: fingerprint, p_customer_id: customerId } = row;
      return { taken: fingerprint !== null && customerId !== null ? { fingerprint, customerId } : null };
    }
    return row.id === null ? 'already_exists' : { created: toCustomer(row as CustomerRow) };
  }

  /** The committed record of the partner's idempotency key, read outside any transaction (a fresh snapshot). */
  async findIdempotencyRecord(partnerId: PartnerId, idempotencyKey: string): Promise<IdempotencyRecord | null> {
    const { rows } = await this.db.query<{ fingerprint: string; customer_id: string }>(FIND_RECORD, [partnerId, idempotencyKey]);
    return rows[0] ? { fingerprint: rows[0].fingerprint, customerId: rows[0].customer_id } : null;
  }

  /** The partner's customer `id`; null when the partner has none with that id (another partner's included). */
  async findById(partnerId: PartnerId, id: string): Promise<Customer | null> {
    const { rows } = await this.db.query<CustomerRow>(FIND_BY_ID, [partnerId, id]);
    return rows[0] ? toCustomer(rows[0]) : null;
  }

  /**
   * One page of the partner's customers, newest first (created_at, then id), by keyset: the indexes of
   * migration `customer_list_indexes` ((partner_id, created_at, id), with external_id first) and the
   * unique (partner_id, cnpj) for one CNPJ.
   */
  async list(partnerId: PartnerId, filter: KeysetFilter, page: PageRequest): Promise<Customer[]> {
    const { statement: s, values } = keysetPageStatement('customers_list', 'customers', 'uuid', partnerId, filter, page);
    const { rows } = await this.db.query<CustomerRow>(s, values);
    return rows.map(toCustomer);
  }

  async findByCnpj(partnerId: PartnerId, cnpj: string): Promise<Customer | null> {
    const { rows } = await this.db.query<CustomerRow>(FIND_BY_CNPJ, [partnerId, cnpj]);
    return rows[0] ? toCustomer(rows[0]) : null;
  }
}

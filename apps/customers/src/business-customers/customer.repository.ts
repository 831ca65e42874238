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

/**
 * A registration in one statement, one round trip: inserts the customer unless the partner already
 * has one with this CNPJ (a concurrent registration of the same CNPJ waits on the unique index, then
 * inserts nothing), and its owner notifications only if it was inserted. Returns the customer, or no
 * row for a duplicate.
 */
const INSERT_WITH_NOTIFICATIONS = statement(
  'customers_insert_with_notifications',
  `WITH c AS (
     INSERT INTO customers (id, partner_id, cnpj, legal_name, external_id, body)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (partner_id, cnpj) DO NOTHING
     RETURNING *),
   n AS (
     INSERT INTO owner_notifications (partner_id, customer_id, owner_index, channel, destination)
     SELECT c.partner_id, c.id, n.owner_index, n.channel, n.destination
     FROM c, unnest($7::int[], $8::text[], $9::text[]) AS n(owner_index, channel, destination)
     RETURNING 1)
   SELECT * FROM c`,
);

const FIND_BY_CNPJ = statement('customers_by_cnpj', 'SELECT * FROM customers WHERE partner_id = $1 AND cnpj = $2');
const FIND_BY_ID = statement('customers_by_id', 'SELECT * FROM customers WHERE partner_id = $1 AND id = $2');

/** The Customer aggregate's storage. Every method is scoped by partner. */
@Injectable()
export class CustomerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the customer with the owner notifications its config asks for (see INSERT_WITH_NOTIFICATIONS);
   * null when the partner already has a customer with this CNPJ, even one registered concurrently.
   */
  async create(
    tx: Transaction,
    partnerId: PartnerId,
    id: string,
    body: BusinessCustomerBody,
    notifications: NewOwnerNotification[],
  ): Promise<Customer | null> {
    const {
      rows: [row],
    } = await tx.query<CustomerRow>(INSERT_WITH_NOTIFICATIONS, [
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
    ]);
    return row ? toCustomer(row) : null;
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

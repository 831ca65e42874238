import { Injectable } from '@nestjs/common';
import { ok, PartnerId, Reply, UpsertUserCommand, UpsertUserResult } from '@partner/contracts';
import { Queryable, statement, Statement } from '@partner/db';

/**
 * The users of each partner that a service knows (table `users` in the service's own schema, primary key
 * (partner_id, document)): pix-keys and inflows keep the same table for the same command. Every lookup is
 * scoped by partner. The upsert writes one row and reports no event, so it is one prepared statement on
 * the database (atomic on its own): a unit of work would only add BEGIN and COMMIT. Each service subclasses it
 * with its Database, whose search_path names its schema.
 */
export abstract class PartnerUserRepository {
  private readonly statements: Record<'upsert' | 'createdAt' | 'exists', Statement>;

  /** `statementPrefix` names the prepared statements (they are per connection: one service's own names). */
  protected constructor(
    private readonly db: Queryable,
    statementPrefix: string,
  ) {
    this.statements = {
      // Returns a row only when the user was new. A concurrent insert of the same user waits on the primary key, then inserts nothing.
      upsert: statement(
        `${statementPrefix}_user_upsert`,
        'INSERT INTO users (partner_id, document) VALUES ($1, $2) ON CONFLICT (partner_id, document) DO NOTHING RETURNING created_at',
      ),
      createdAt: statement(`${statementPrefix}_user_created_at`, 'SELECT created_at FROM users WHERE partner_id = $1 AND document = $2'),
      exists: statement(
        `${statementPrefix}_user_exists`,
        'SELECT EXISTS (SELECT 1 FROM users WHERE partner_id = $1 AND document = $2) AS exists',
      ),
    };
  }

  /** Records the user unless known already; tells whether it was new. Safe under concurrent calls. */
  async upsert(partnerId: PartnerId, document: string): Promise<{ created: boolean; createdAt: Date }> {
    const inserted = await this.db.query<{ created_at: Date }>(this.statements.upsert, [partnerId, document]);
    if (inserted.rows[0]) return { created: true, createdAt: inserted.rows[0].created_at };
    // Known already (or a concurrent upsert won): this second statement sees the committed row.
    const { rows } = await this.db.query<{ created_at: Date }>(this.statements.createdAt, [partnerId, document]);
    return { created: false, createdAt: rows[0].created_at };
  }

  async exists(partnerId: PartnerId, document: string): Promise<boolean> {
    const { rows } = await this.db.query<{ exists: boolean }>(this.statements.exists, [partnerId, document]);
    return rows[0].exists;
  }
}

/**
 * Makes a user of a partner known to the service (upsert-user command). Idempotent. A service provides
 * PartnerUserRepository as its own UserRepository (`{ provide: PartnerUserRepository, useExisting: UserRepository }`).
 */
@Injectable()
export class RecordPartnerUserUseCase {
  constructor(private readonly users: PartnerUserRepository) {}

  async execute(command: UpsertUserCommand): Promise<Reply<UpsertUserResult, never>> {
    const { created, createdAt } = await this.users.upsert(command.partner_id, command.document);
    return ok({ created, created_at: createdAt.toISOString() });
  }
}

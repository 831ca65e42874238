import { Injectable } from '@nestjs/common';
import { statement } from '@partner/kafka';
import { PrismaService } from '../prisma/prisma.service';

/** Inserts the user unless known; returns a row only when it was new. A concurrent insert of the same user waits on the primary key, then inserts nothing. */
const UPSERT = statement(
  'inflows_user_upsert',
  'INSERT INTO users (partner_id, document) VALUES ($1, $2) ON CONFLICT (partner_id, document) DO NOTHING RETURNING created_at',
);

const CREATED_AT = statement('inflows_user_created_at', 'SELECT created_at FROM users WHERE partner_id = $1 AND document = $2');

const EXISTS = statement('inflows_user_exists', 'SELECT EXISTS (SELECT 1 FROM users WHERE partner_id = $1 AND document = $2) AS exists');

/**
 * The partner's users known here: who may receive a Pix. Scoped by partner. The upsert writes one row
 * and reports no event, so it is one prepared statement on the pool (atomic on its own): a unit of work
 * would only add BEGIN and COMMIT. The simulated network checks the user inside its own statement
 * (SpiPaymentRepository.send).
 */
@Injectable()
export class UserRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Idempotent: tells whether the user was new. A concurrent duplicate waits on the key, then does nothing. */
  async upsert(partnerId: string, document: string): Promise<{ created: boolean; createdAt: Date }> {
    const inserted = await this.prisma.pool.query<{ created_at: Date }>({ ...UPSERT, values: [partnerId, document] });
    if (inserted.rows[0]) return { created: true, createdAt: inserted.rows[0].created_at };
    // Known already (or a concurrent upsert won): this second statement sees the committed row.
    const { rows } = await this.prisma.pool.query<{ created_at: Date }>({ ...CREATED_AT, values: [partnerId, document] });
    return { created: false, createdAt: rows[0].created_at };
  }

  async exists(partnerId: string, document: string): Promise<boolean> {
    const { rows } = await this.prisma.pool.query<{ exists: boolean }>({ name: EXISTS.name, text: EXISTS.text, values: [partnerId, document] });
    return rows[0].exists;
  }
}

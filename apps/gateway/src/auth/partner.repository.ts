import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../prisma/prisma.service';
import { generateApiKey } from './api-key';

/** The partner's own rate limit; absent = RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
export interface PartnerLimits {
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
}

export interface Partner extends PartnerLimits {
  id: string;
  name: string;
}

interface PartnerRow {
  id: string;
  name: string;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
}

/** A partner and its first key in one statement. */
const CREATE = `WITH partner AS (
    INSERT INTO partners (id, name, rate_limit_per_second, rate_limit_burst) VALUES ($1, $2, $3, $4)
    RETURNING id, name, rate_limit_per_second, rate_limit_burst),
  key AS (INSERT INTO api_keys (id, partner_id, prefix, hash) SELECT $5, id, $6, $7 FROM partner)
  SELECT * FROM partner`;

/** Run on every request whose key is not in the gateway's cache: prepared once per connection. */
const BY_KEY_HASH = {
  name: 'partner_by_key_hash',
  text: `SELECT k.hash, p.id, p.name, p.rate_limit_per_second, p.rate_limit_burst
         FROM api_keys k JOIN partners p ON p.id = k.partner_id
         WHERE k.hash = $1 AND k.revoked_at IS NULL LIMIT 1`,
};

/**
 * Partners and their API key hashes, on the pg driver (no ORM query at run time: its query compiler
 * alone costs ~45 MB of memory per process, measured).
 */
@Injectable()
export class PartnerRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates a partner with one API key; the key itself is returned once and never stored. */
  async create(name: string, limits: PartnerLimits = {}): Promise<{ partner: Partner; apiKey: string }> {
    const { key, prefix, hash } = generateApiKey();
    const { rows } = await this.prisma.pool.query<PartnerRow>(CREATE, [
      randomUUID(),
      name,
      limits.rateLimitPerSecond ?? null,
      limits.rateLimitBurst ?? null,
      randomUUID(),
      prefix,
      hash,
    ]);
    return { partner: toPartner(rows[0]), apiKey: key };
  }

  /** The partner owning an active key with this hash, with the stored hash for a constant-time check. */
  async findByKeyHash(hash: string): Promise<(Partner & { hash: string }) | null> {
    const { rows } = await this.prisma.pool.query<PartnerRow & { hash: string }>({ ...BY_KEY_HASH, values: [hash] });
    return rows[0] ? { ...toPartner(rows[0]), hash: rows[0].hash } : null;
  }
}

function toPartner(row: PartnerRow): Partner {
  return { id: row.id, name: row.name, rateLimitPerSecond: row.rate_limit_per_second ?? undefined, rateLimitBurst: row.rate_limit_burst ?? undefined };
}

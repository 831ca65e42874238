import { Injectable } from '@nestjs/common';
import { authenticatedPartnerId, PartnerId } from '@partner/contracts';
import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../prisma/prisma.service';

/** The partner's own rate limit; absent = RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST. */
export interface PartnerLimits {
  rateLimitPerSecond?: number;
  rateLimitBurst?: number;
}

export interface Partner extends PartnerLimits {
  id: PartnerId;
  name: string;
}

/** A partner's columns as the pg driver reads them (partners, or a join with them). */
export interface PartnerRow {
  id: string;
  name: string;
  rate_limit_per_second: number | null;
  rate_limit_burst: number | null;
}

/**
 * A partners row as the domain sees it: no limit of its own is `undefined` (the defaults apply). Its id
 * becomes a PartnerId here: a row of `partners` is the partner itself (found by its API key, or created).
 */
export const partnerOf = (row: PartnerRow): Partner => ({
  id: authenticatedPartnerId(row.id),
  name: row.name,
  rateLimitPerSecond: row.rate_limit_per_second ?? undefined,
  rateLimitBurst: row.rate_limit_burst ?? undefined,
});

/**
 * Partners, on the pg driver (no ORM query at run time: its query compiler alone costs ~45 MB of memory
 * per process, measured). Their API keys are ApiKeyRepository's.
 */
@Injectable()
export class PartnerRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates a partner (without a key: CreateApiKeyUseCase issues those). */
  async create(name: string, limits: PartnerLimits = {}): Promise<Partner & { createdAt: Date }> {
    const { rows } = await this.prisma.pool.query<PartnerRow & { created_at: Date }>(
      `INSERT INTO partners (id, name, rate_limit_per_second, rate_limit_burst) VALUES ($1, $2, $3, $4)
       RETURNING id, name, rate_limit_per_second, rate_limit_burst, created_at`,
      [randomUUID(), name, limits.rateLimitPerSecond ?? null, limits.rateLimitBurst ?? null],
    );
    return { ...partnerOf(rows[0]), createdAt: rows[0].created_at };
  }

  /** Whether the partner exists; false for anything that is not a UUID (never a query error). */
  async exists(id: string): Promise<boolean> {
    if (!isUUID(id)) return false;
    const { rows } = await this.prisma.pool.query({ name: 'partner_exists', text: 'SELECT 1 FROM partners WHERE id = $1', values: [id] });
    return rows.length > 0;
  }
}

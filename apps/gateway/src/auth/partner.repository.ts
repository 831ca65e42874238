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

/** Partners and their API key hashes. */
@Injectable()
export class PartnerRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates a partner with one API key; the key itself is returned once and never stored. */
  async create(name: string, limits: PartnerLimits = {}): Promise<{ partner: Partner; apiKey: string }> {
    const { key, prefix, hash } = generateApiKey();
    const row = await this.prisma.partner.create({
      data: { id: randomUUID(), name, ...limits, apiKeys: { create: { id: randomUUID(), prefix, hash } } },
      select: { id: true, name: true, rateLimitPerSecond: true, rateLimitBurst: true },
    });
    return { partner: toPartner(row), apiKey: key };
  }

  /** The partner owning an active key with this hash, with the stored hash for a constant-time check. */
  async findByKeyHash(hash: string): Promise<(Partner & { hash: string }) | null> {
    const key = await this.prisma.apiKey.findFirst({
      where: { hash, revokedAt: null },
      select: { hash: true, partner: { select: { id: true, name: true, rateLimitPerSecond: true, rateLimitBurst: true } } },
    });
    return key ? { ...toPartner(key.partner), hash: key.hash } : null;
  }
}

function toPartner(row: { id: string; name: string; rateLimitPerSecond: number | null; rateLimitBurst: number | null }): Partner {
  return { id: row.id, name: row.name, rateLimitPerSecond: row.rateLimitPerSecond ?? undefined, rateLimitBurst: row.rateLimitBurst ?? undefined };
}

import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../prisma/prisma.service';
import { generateApiKey } from './api-key';

export interface Partner {
  id: string;
  name: string;
}

/** Partners and their API key hashes. */
@Injectable()
export class PartnerRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates a partner with one API key; the key itself is returned once and never stored. */
  async create(name: string): Promise<{ partner: Partner; apiKey: string }> {
    const { key, prefix, hash } = generateApiKey();
    const partner = await this.prisma.partner.create({
      data: { id: randomUUID(), name, apiKeys: { create: { id: randomUUID(), prefix, hash } } },
      select: { id: true, name: true },
    });
    return { partner, apiKey: key };
  }

  /** The partner owning an active key with this hash, with the stored hash for a constant-time check. */
  async findByKeyHash(hash: string): Promise<(Partner & { hash: string }) | null> {
    const key = await this.prisma.apiKey.findFirst({
      where: { hash, revokedAt: null },
      select: { hash: true, partner: { select: { id: true, name: true } } },
    });
    return key ? { ...key.partner, hash: key.hash } : null;
  }
}

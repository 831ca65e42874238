import { testPartnerId } from '@partner/testing';
import { Partner, PartnerLimits, PartnerRepository } from './partner.repository';

/** The partners table in memory, for unit specs: what the gateway's use cases and key lookups read of it. */
export class FakePartnerRepository implements Pick<PartnerRepository, 'exists'> {
  private readonly partners = new Map<string, Partner>();

  /** Stores the partner (active, named `P`, unless told otherwise), or replaces it: an operator disabled or re-enabled it. */
  put(partner: { id: string; name?: string; disabled?: boolean } & PartnerLimits): Partner {
    const stored: Partner = { name: 'P', disabled: false, ...partner, id: testPartnerId(partner.id) };
    this.partners.set(stored.id, stored);
    return { ...stored };
  }

  /** The partner as stored now (a copy: a row read, not a live object). */
  get(id: string): Partner | undefined {
    const partner = this.partners.get(id);
    return partner && { ...partner };
  }

  async exists(id: string): Promise<boolean> {
    return this.partners.has(id);
  }
}

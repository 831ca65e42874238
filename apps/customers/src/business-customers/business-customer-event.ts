import { randomUUID } from 'node:crypto';
import { BusinessCustomerRegisteredEvent, BusinessCustomerSnapshot, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { Customer } from './customer.repository';

/** The customer as partners see it in business_customer events (docs/api.md: "Business customers"). */
export function toSnapshot(c: Customer): BusinessCustomerSnapshot {
  const { body } = c;
  return {
    id: c.id,
    cnpj: body.cnpj,
    legal_name: body.legal_name,
    trade_name: body.trade_name ?? null,
    email: body.email,
    phone: body.phone,
    address: { ...body.address, complement: body.address.complement ?? null },
    owners: body.owners.map((o) => ({
      owner_type: o.owner_type,
      name: o.name,
      social_name: o.social_name ?? null,
      document: o.document,
      ownership: { ownership_type: o.ownership.ownership_type, ownership_bps: o.ownership.ownership_bps },
    })),
    metadata: { ...(body.metadata ?? {}) },
    config: {
      auto_send_owner_sms: body.config?.auto_send_owner_sms ?? false,
      auto_send_owner_email: body.config?.auto_send_owner_email ?? false,
    },
    created_at: Math.floor(c.createdAt.getTime() / 1000),
  };
}

/** The outbox row reporting the registration (its contract keys it by customer). */
export function registered(c: Customer) {
  const event: BusinessCustomerRegisteredEvent = {
    event_id: randomUUID(),
    partner_id: c.partnerId,
    type: 'business_customer',
    state: 'registered',
    resource_id: c.id,
    occurred_at: c.createdAt.toISOString(),
    resource: toSnapshot(c),
  };
  return outboxMessage(Topics.BusinessCustomerRegistered, event);
}

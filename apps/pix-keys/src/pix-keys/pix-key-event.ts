import { randomUUID } from 'node:crypto';
import { PixKeySnapshot, PixKeyStateChangedEvent, Topics } from '@partner/contracts';
import { outboxMessage } from '@partner/db';
import { PixKey } from './pix-key.repository';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The key as partners see it (docs/api.md: "Pix keys"). */
export function toSnapshot(k: PixKey): PixKeySnapshot {
  return {
    id: k.id,
    key: k.key,
    key_type: k.keyType,
    document: k.document,
    state: k.state,
    failure_reason: k.failureReason,
    created_at: unix(k.createdAt),
    last_updated_at: unix(k.updatedAt),
  };
}

/** The outbox row reporting that `k` reached its current state (its contract keys it by user, not by key). */
export function stateChanged(k: PixKey) {
  const event: PixKeyStateChangedEvent = {
    event_id: randomUUID(),
    partner_id: k.partnerId,
    type: 'pix_key',
    state: k.state,
    resource_id: k.id,
    occurred_at: k.updatedAt.toISOString(),
    resource: toSnapshot(k),
  };
  return outboxMessage(Topics.PixKeyStateChanged, event);
}

import { randomUUID } from 'node:crypto';
import {
  EventPayload,
  EventTopic,
  PartnerId,
  payloadClassOf,
  PixKeyState,
  PixKeyStateChangedEvent,
  WithdrawalState,
  WithdrawalStateChangedEvent,
} from '@partner/contracts';
import { validateContract } from '@partner/validation';
import { newCpf, VALID_ADDRESS } from './fixtures';

/** A valid `usdt_withdrawal` domain event, as the withdrawals service writes it to its outbox. */
export function withdrawalStateChanged(
  partnerId: PartnerId,
  { resourceId = 1, state = 'created', at = new Date() }: { resourceId?: number; state?: WithdrawalState; at?: Date } = {},
): WithdrawalStateChangedEvent {
  const unix = Math.floor(at.getTime() / 1000);
  return {
    event_id: randomUUID(),
    partner_id: partnerId,
    type: 'usdt_withdrawal',
    state,
    resource_id: String(resourceId),
    occurred_at: at.toISOString(),
    resource: {
      id: resourceId,
      document: newCpf(),
      idempotency_key: randomUUID(),
      address: VALID_ADDRESS,
      network: 'MATIC',
      fee_choice: 'LOW',
      usdtmicros: 1_000_000,
      fee_micros: 20_000,
      state,
      tx_hash: null,
      block_number: null,
      failure_reason: null,
      created_at: unix,
      last_updated_at: unix,
    },
  };
}

/** A valid `pix_key` domain event for a CPF key, as the pix-keys service writes it to its outbox. */
export function pixKeyStateChanged(
  partnerId: PartnerId,
  { document, keyId, state, at = new Date() }: { document: string; keyId: string; state: PixKeyState; at?: Date },
): PixKeyStateChangedEvent {
  const unix = Math.floor(at.getTime() / 1000);
  return {
    event_id: randomUUID(),
    partner_id: partnerId,
    type: 'pix_key',
    state,
    resource_id: keyId,
    occurred_at: at.toISOString(),
    resource: { id: keyId, key: document, key_type: 'cpf', document, state, failure_reason: null, created_at: unix, last_updated_at: unix },
  };
}

/** The `state` of each outbox event of one partner, in the order of the rows given (their ids'). */
export function outboxStatesOf(rows: ReadonlyArray<{ payload: unknown }>, partnerId: string): string[] {
  return rows
    .map((r) => r.payload as { partner_id: string; state: string })
    .filter((p) => p.partner_id === partnerId)
    .map((p) => p.state);
}

/**
 * An event payload read back as JSON (an outbox row's), checked against its topic's contract class as a
 * consumer checks it: a spec reads events it proved valid instead of casting JSON to their type.
 */
export function eventPayloadOf<T extends EventTopic>(topic: T, json: unknown): EventPayload<T> {
  if (!isPayloadOf(topic, json)) throw new Error(`not a ${topic} payload`);
  return json;
}

function isPayloadOf<T extends EventTopic>(topic: T, json: unknown): json is EventPayload<T> {
  const checked = validateContract(payloadClassOf(topic), json);
  if (!checked.ok)
    throw new Error(
      `a ${topic} payload breaks its contract (${checked.error.field ?? 'body'}: ${checked.error.message}): ${JSON.stringify(json)}`,
    );
  return true;
}

/** The payloads of `topic` among outbox rows, in the rows' order, each checked (eventPayloadOf); `partnerId`: that partner's only. */
export function outboxEventsOf<T extends EventTopic>(
  topic: T,
  rows: ReadonlyArray<{ topic: string; payload: unknown }>,
  partnerId?: string,
): Array<EventPayload<T>> {
  return rows
    .filter((r) => r.topic === topic && (partnerId === undefined || partnerOf(r.payload) === partnerId))
    .map((r) => eventPayloadOf(topic, r.payload));
}

const partnerOf = (json: unknown): unknown =>
  typeof json === 'object' && json !== null && 'partner_id' in json ? json.partner_id : undefined;

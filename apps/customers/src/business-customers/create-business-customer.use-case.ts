import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  CreateBusinessCustomerCommand,
  CreateBusinessCustomerCommandResult,
  fail,
  PartnerId,
  requestRefusalsOf,
  RequestReply,
  Topics,
} from '@partner/contracts';
import { KeyedAttempt, Rejected, runIdempotent, UnitOfWork } from '@partner/db';
import { NewOwnerNotification } from '../notifications/owner-notification.repository';
import { registered } from './business-customer-event';
import { BusinessCustomerBody, Claim, CreateOutcome, CustomerRepository, IdempotencyRecord } from './customer.repository';
import { fingerprintOf } from './idempotency';

/** One notification per owner per channel the config switches on. */
export function notificationsFor(body: BusinessCustomerBody): NewOwnerNotification[] {
  return body.owners.flatMap((owner, ownerIndex) => [
    ...(body.config?.auto_send_owner_sms ? [{ ownerIndex, channel: 'sms' as const, destination: owner.phone }] : []),
    ...(body.config?.auto_send_owner_email ? [{ ownerIndex, channel: 'email' as const, destination: owner.email }] : []),
  ]);
}

type CreateReply = RequestReply<typeof Topics.CustomersCreateBusiness>;

/**
 * Registers a business customer: in one transaction of one statement (CustomerRepository.create), the
 * idempotency key's claim when the request has one, the customer and the owner notifications its config
 * asks for; then the `registered` event, which the unit of work writes to the outbox before COMMIT.
 * The CNPJ is unique per partner: a second registration of it is refused with already_exists, naming the
 * customer registered first, and changes nothing (its transaction rolls back, so it binds no key). Under
 * an Idempotency-Key (runIdempotent, as withdrawals and Pix keys), the same request again replays the first
 * answer (`replayed`), a concurrent duplicate waiting on the claim first; another request is refused as
 * idempotency_key_reused.
 */
@Injectable()
export class CreateBusinessCustomerUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly customers: CustomerRepository,
  ) {}

  async execute(command: CreateBusinessCustomerCommand): Promise<CreateReply> {
    const { partner_id: partnerId, idempotency_key: idempotencyKey, ...request } = command;
    // Plain JSON from here on: what is stored is exactly what is echoed in the event, and what the key's fingerprint covers.
    const body = JSON.parse(JSON.stringify(request)) as BusinessCustomerBody;
    const reply = idempotencyKey == null ? await this.register(partnerId, body) : await this.registerKeyed(partnerId, body, idempotencyKey);
    if (reply.ok || reply.error.code !== 'already_exists') return reply;
    // The partner's customer that holds the CNPJ: committed, since the refusing statement waited for it.
    const existing = await this.customers.findByCnpj(partnerId, body.cnpj);
    return existing ? { ok: false, error: { ...reply.error, code: 'already_exists', id: existing.id } } : reply;
  }

  private async register(partnerId: PartnerId, body: BusinessCustomerBody): Promise<CreateReply> {
    try {
      const outcome = await this.attempt(partnerId, body);
      if ('created' in outcome) return { ok: true, data: { id: outcome.created.id, replayed: false } };
      throw new Error('a registration without an idempotency key claimed one');
    } catch (error) {
      if (error instanceof Rejected) return fail('already_exists', error.message, error.field);
      throw error;
    }
  }

  private registerKeyed(partnerId: PartnerId, body: BusinessCustomerBody, idempotencyKey: string): Promise<CreateReply> {
    const claim: Claim = { idempotencyKey, fingerprint: fingerprintOf(body) };
    return runIdempotent({
      ...claim,
      refusalCodes: requestRefusalsOf(Topics.CustomersCreateBusiness),
      attempt: async (): Promise<KeyedAttempt<CreateBusinessCustomerCommandResult, IdempotencyRecord>> => {
        const outcome = await this.attempt(partnerId, body, claim);
        return 'created' in outcome ? { done: { id: outcome.created.id, replayed: false } } : outcome;
      },
      // A claim that waited on another transaction's sees no record: it committed after this statement's snapshot. Records are never removed.
      find: () => this.customers.findIdempotencyRecord(partnerId, idempotencyKey),
      fingerprintOf: (record) => record.fingerprint,
      replay: (record) => ({ id: record.customerId, replayed: true }),
      requestNoun: 'registration',
    });
  }

  /** One transaction: the claim (if any), the customer, its notifications and its event; rolled back (Rejected) when the CNPJ is taken. */
  private attempt(partnerId: PartnerId, body: BusinessCustomerBody, claim?: Claim): Promise<Exclude<CreateOutcome, 'already_exists'>> {
    return this.unitOfWork.run(async (tx) => {
      const outcome = await this.customers.create(tx, partnerId, randomUUID(), body, notificationsFor(body), claim);
      if (outcome === 'already_exists')
        throw new Rejected('already_exists', `a business customer with CNPJ ${body.cnpj} is already registered`, 'cnpj');
      if ('created' in outcome) tx.emit(registered(outcome.created));
      return outcome;
    });
  }
}

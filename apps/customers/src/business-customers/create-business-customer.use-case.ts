import { Inject, Injectable } from '@nestjs/common';
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
import { KeyedAttempt, Rejected, runIdempotent, Transaction, UnitOfWork } from '@partner/db';
import { phoneCountryOf } from '@partner/validation';
import { CustomersConfig } from '../config/customers.config';
import { NewOwnerNotification, OwnerNotificationRepository } from '../notifications/owner-notification.repository';
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

/** Where and how many SMS owners are sent (docs/operations/notifications.md, "SMS: countries and quota"). */
export type SmsPolicy = Pick<CustomersConfig, 'NOTIFY_SMS_COUNTRIES' | 'NOTIFY_SMS_PER_PARTNER_PER_DAY'>;

/** A registration whose SMS would pass the partner's quota: thrown in its transaction (rolled back), answered as its refusal. */
class SmsQuotaExceeded extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The first SMS the registration asks for at a number outside `countries`, with that number's country. */
function smsAbroad(notifications: NewOwnerNotification[], countries: readonly string[]) {
  for (const n of notifications.filter((n) => n.channel === 'sms')) {
    const country = phoneCountryOf(n.destination);
    if (country === undefined || !countries.includes(country)) return { ...n, country: country ?? 'no single country' };
  }
  return undefined;
}

/**
 * Registers a business customer: in one transaction of one statement (CustomerRepository.create), the
 * idempotency key's claim when the request has one, the customer and the owner notifications its config
 * asks for; then the `registered` event, which the unit of work writes to the outbox before COMMIT.
 * The CNPJ is unique per partner: a second registration of it is refused with already_exists, naming the
 * customer registered first, and changes nothing (its transaction rolls back, so it binds no key). Under
 * an Idempotency-Key (runIdempotent, as withdrawals and Pix keys), the same request again replays the first
 * answer (`replayed`), a concurrent duplicate waiting on the claim first; another request is refused as
 * idempotency_key_reused. SMS to owners are bounded (SmsPolicy): a number outside the countries SMS go to is
 * refused before anything is done (sms_country_not_allowed); in the transaction, under the partner's quota lock,
 * SMS past its quota of 24 hours are refused (sms_quota_exceeded, with when they would fit). Neither binds a key.
 */
@Injectable()
export class CreateBusinessCustomerUseCase {
  private readonly smsCountries: readonly string[];
  private readonly smsPerDay: number;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly customers: CustomerRepository,
    private readonly notifications: OwnerNotificationRepository,
    @Inject(CustomersConfig) sms: SmsPolicy,
  ) {
    this.smsCountries = sms.NOTIFY_SMS_COUNTRIES.split(',');
    this.smsPerDay = sms.NOTIFY_SMS_PER_PARTNER_PER_DAY;
  }

  async execute(command: CreateBusinessCustomerCommand): Promise<CreateReply> {
    const { partner_id: partnerId, idempotency_key: idempotencyKey, ...request } = command;
    // Plain JSON from here on: what is stored is exactly what is echoed in the event, and what the key's fingerprint covers.
    const body = JSON.parse(JSON.stringify(request)) as BusinessCustomerBody;
    const abroad = smsAbroad(notificationsFor(body), this.smsCountries);
    if (abroad) {
      const field = `owners.${abroad.ownerIndex}.phone`;
      return fail(
        'sms_country_not_allowed',
        `${field} is a number of ${abroad.country}: owners are sent SMS only at numbers of ${this.smsCountries.join(', ')}; give a number there, or register without auto_send_owner_sms`,
        field,
      );
    }
    let reply: CreateReply;
    try {
      reply = idempotencyKey == null ? await this.register(partnerId, body) : await this.registerKeyed(partnerId, body, idempotencyKey);
    } catch (error) {
      if (!(error instanceof SmsQuotaExceeded)) throw error;
      const { message, retryAfterSeconds } = error;
      return {
        ok: false,
        error: { code: 'sms_quota_exceeded', message, ...(retryAfterSeconds ? { retry_after_seconds: retryAfterSeconds } : {}) },
      };
    }
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
      const notifications = notificationsFor(body);
      await this.withinSmsQuota(tx, partnerId, notifications.filter((n) => n.channel === 'sms').length);
      const outcome = await this.customers.create(tx, partnerId, randomUUID(), body, notifications, claim);
      if (outcome === 'already_exists')
        throw new Rejected('already_exists', `a business customer with CNPJ ${body.cnpj} is already registered`, 'cnpj');
      if ('created' in outcome) tx.emit(registered(outcome.created));
      return outcome;
    });
  }

  /** Throws SmsQuotaExceeded when `wanted` more SMS would pass the partner's quota of 24 hours; else holds its lock to COMMIT. */
  private async withinSmsQuota(tx: Transaction, partnerId: PartnerId, wanted: number): Promise<void> {
    if (wanted === 0) return;
    const quota = this.smsPerDay;
    const what = `this registration would send ${wanted} SMS`;
    if (wanted > quota)
      throw new SmsQuotaExceeded(`${what}, more than the ${quota} a partner may in 24 hours: register without auto_send_owner_sms`);
    const used = await this.notifications.lockSmsWithinDay(tx, partnerId);
    if (used + wanted <= quota) return;
    const seconds = await this.notifications.smsFreedIn(tx, partnerId, used + wanted - quota);
    throw new SmsQuotaExceeded(
      `${what}; ${used} of the ${quota} a partner may send in 24 hours are used: retry in ${seconds} s, or register without auto_send_owner_sms`,
      seconds,
    );
  }
}

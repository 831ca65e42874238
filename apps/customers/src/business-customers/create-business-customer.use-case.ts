import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreateBusinessCustomerCommand, CreateBusinessCustomerResult, fail, ok, Reply } from '@partner/contracts';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { NewOwnerNotification, OwnerNotificationRepository } from '../notifications/owner-notification.repository';
import { PrismaService } from '../prisma/prisma.service';
import { registered } from './business-customer-event';
import { BusinessCustomerBody, CustomerRepository, DuplicateCnpjError } from './customer.repository';

/** One notification per owner per channel the config switches on. */
export function notificationsFor(body: BusinessCustomerBody): NewOwnerNotification[] {
  return body.owners.flatMap((owner, ownerIndex) => [
    ...(body.config?.auto_send_owner_sms ? [{ ownerIndex, channel: 'sms' as const, destination: owner.phone }] : []),
    ...(body.config?.auto_send_owner_email ? [{ ownerIndex, channel: 'email' as const, destination: owner.email }] : []),
  ]);
}

/**
 * Registers a business customer: in one transaction, the customer, the owner notifications its config
 * asks for, and the `registered` event. The spec gives this endpoint no idempotency key; the CNPJ,
 * unique per partner, plays that part: a repeated registration (a retry after a 503 included) is
 * refused with already_exists and changes nothing.
 */
@Injectable()
export class CreateBusinessCustomerUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly customers: CustomerRepository,
    private readonly notifications: OwnerNotificationRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async execute(command: CreateBusinessCustomerCommand): Promise<Reply<CreateBusinessCustomerResult>> {
    const { partner_id: partnerId, ...request } = command;
    // Plain JSON from here on: what is stored is exactly what is echoed in the event.
    const body = JSON.parse(JSON.stringify(request)) as BusinessCustomerBody;
    try {
      const customer = await this.prisma.$transaction(async (tx) => {
        const created = await this.customers.create(tx, partnerId, randomUUID(), body);
        await this.notifications.addPending(tx, partnerId, created.id, notificationsFor(body));
        await this.outbox.add(tx, registered(created));
        return created;
      });
      this.relay.wake();
      return ok({ id: customer.id });
    } catch (error) {
      if (error instanceof DuplicateCnpjError) {
        return fail('already_exists', `a business customer with CNPJ ${body.cnpj} is already registered`, 'cnpj');
      }
      throw error;
    }
  }
}

import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CreateBusinessCustomerCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { NewOwnerNotification } from '../notifications/owner-notification.repository';
import { registered } from './business-customer-event';
import { BusinessCustomerBody, CustomerRepository } from './customer.repository';

/** One notification per owner per channel the config switches on. */
export function notificationsFor(body: BusinessCustomerBody): NewOwnerNotification[] {
  return body.owners.flatMap((owner, ownerIndex) => [
    ...(body.config?.auto_send_owner_sms ? [{ ownerIndex, channel: 'sms' as const, destination: owner.phone }] : []),
    ...(body.config?.auto_send_owner_email ? [{ ownerIndex, channel: 'email' as const, destination: owner.email }] : []),
  ]);
}

/**
 * Registers a business customer: in one transaction of one statement (CustomerRepository.create), the
 * customer and the owner notifications its config asks for; then the `registered` event, which the
 * unit of work writes to the outbox before COMMIT. The spec gives this endpoint no idempotency key; the
 * CNPJ, unique per partner, plays that part: a repeated registration (a retry after a 503 included) is
 * refused with already_exists and changes nothing.
 */
@Injectable()
export class CreateBusinessCustomerUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly customers: CustomerRepository,
  ) {}

  async execute(command: CreateBusinessCustomerCommand): Promise<RequestReply<typeof Topics.CustomersCreateBusiness>> {
    const { partner_id: partnerId, ...request } = command;
    // Plain JSON from here on: what is stored is exactly what is echoed in the event.
    const body = JSON.parse(JSON.stringify(request)) as BusinessCustomerBody;
    const customer = await this.unitOfWork.run(async (tx) => {
      const created = await this.customers.create(tx, partnerId, randomUUID(), body, notificationsFor(body));
      // A duplicate inserted nothing: the transaction has nothing to undo, and no event to write.
      if (created) tx.emit(registered(created));
      return created;
    });
    if (!customer) return fail('already_exists', `a business customer with CNPJ ${body.cnpj} is already registered`, 'cnpj');
    return ok({ id: customer.id });
  }
}

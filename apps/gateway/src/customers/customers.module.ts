import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';
import { OwnerNotificationsController } from './owner-notifications.controller';
import { ReadOwnerNotificationsUseCase } from './read-owner-notifications.use-case';
import { ForwardingBus } from '../http/forwarding-bus';

/**
 * POST /partner/v1/customers/business (docs/api.md: "Business customers"); GET /partner/v1/customers/business/{id};
 * the operator's GET /admin/v1/partners/{partner_id}/business-customers/{id}/notifications.
 */
@Module({ controllers: [CustomersController, OwnerNotificationsController], providers: [ForwardingBus, ReadOwnerNotificationsUseCase] })
export class CustomersModule {}

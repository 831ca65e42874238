import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';
import { ForwardingBus } from '../http/forwarding-bus';

/** POST /partner/v1/customers/business (docs/api.md: "Business customers"); GET /partner/v1/customers/business/{id}. */
@Module({ controllers: [CustomersController], providers: [ForwardingBus] })
export class CustomersModule {}

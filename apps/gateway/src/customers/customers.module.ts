import { Module } from '@nestjs/common';
import { CustomersController } from './customers.controller';
import { ForwardingBus } from '../http/forwarding-bus';

/** POST /partner/v1/customers/business (spec 4.2); GET /partner/v1/customers/business/{id}. */
@Module({ controllers: [CustomersController], providers: [ForwardingBus] })
export class CustomersModule {}

import { Module } from '@nestjs/common';
import { BusinessCustomersHandler } from './business-customers.handler';

@Module({ controllers: [BusinessCustomersHandler] })
export class BusinessCustomersModule {}

import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { ForwardingBus } from '../http/forwarding-bus';

@Module({ controllers: [EventsController], providers: [ForwardingBus] })
export class EventsModule {}

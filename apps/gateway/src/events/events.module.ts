import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { AckEventsUseCase, ListEventsUseCase, MarkEventDeliveredUseCase } from './events.use-cases';

@Module({ controllers: [EventsController], providers: [ListEventsUseCase, MarkEventDeliveredUseCase, AckEventsUseCase] })
export class EventsModule {}

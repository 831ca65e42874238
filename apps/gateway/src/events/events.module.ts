import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { ListEventsUseCase, MarkEventDeliveredUseCase } from './events.use-cases';

@Module({ controllers: [EventsController], providers: [ListEventsUseCase, MarkEventDeliveredUseCase] })
export class EventsModule {}

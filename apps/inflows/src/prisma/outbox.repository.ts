import { Injectable } from '@nestjs/common';
import { EventTopic } from '@partner/contracts';
import { OutboxMessage } from '@partner/kafka';
import { Prisma } from '../generated/prisma/client';
import { Tx } from './prisma.service';

/** Writes outbox rows; only ever inside the transaction of the change they report. */
@Injectable()
export class OutboxRepository {
  async add<T extends EventTopic>(tx: Tx, message: OutboxMessage<T>): Promise<void> {
    await tx.outboxMessage.create({
      data: { topic: message.topic, key: message.key, payload: message.payload as unknown as Prisma.InputJsonValue },
    });
  }
}

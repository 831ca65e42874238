import { outboxModule } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';

/** The service's outbox: the writer its use cases call inside their transactions, and the relay. */
export const OutboxModule = outboxModule(PrismaService, PixKeysConfig, DB_SCHEMA);

import { outboxModule } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { DB_SCHEMA, PrismaService } from './prisma.service';

/** One outbox for the whole service: the simulated network's announcements and the pix_in events. */
export const OutboxModule = outboxModule(PrismaService, InflowsConfig, DB_SCHEMA);

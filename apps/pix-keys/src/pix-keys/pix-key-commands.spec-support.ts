import { loadConfig } from '@partner/config';
import { Database, UnitOfWork } from '@partner/db';
import { prismaForSpecs } from '@partner/testing';
import { DB_SCHEMA } from '../database/db-schema';
import { PrismaClient } from '../generated/prisma-for-specs/client';
import { PixKeysConfig } from '../config/pix-keys.config';
import { UserRepository } from '../users/user.repository';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotentCommandService } from './idempotent-command.service';
import { PixKeyRepository } from './pix-key.repository';

/**
 * The Pix key commands wired as the module wires them, on the real pix_keys schema (integration specs).
 * `relay.wakes` counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events.
 * `prisma` reads the rows back (a spec-only client); `close` ends both after the suite.
 */
export function pixKeyCommands(config: PixKeysConfig = loadConfig(PixKeysConfig)) {
  const db = new Database(config, DB_SCHEMA);
  const pixKeys = new PixKeyRepository(db);
  const relay = { wakes: 0, wake: () => void relay.wakes++ };
  const unitOfWork = new UnitOfWork(db, relay);
  const idempotent = new IdempotentCommandService(unitOfWork, new IdempotencyRecordRepository(db));
  const prisma = prismaForSpecs(PrismaClient, db);
  return {
    prisma,
    close: () => prisma.$disconnect().then(() => db.close()),
    users: new UserRepository(db),
    pixKeys,
    relay,
    unitOfWork,
    create: new CreatePixKeyUseCase(idempotent, pixKeys),
    remove: new DeletePixKeyUseCase(idempotent, pixKeys),
  };
}

import { loadConfig } from '@partner/config';
import { UnitOfWork } from '@partner/kafka';
import { PixKeysConfig } from '../config/pix-keys.config';
import { PrismaService } from '../prisma/prisma.service';
import { UserRepository } from '../users/user.repository';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotentCommandService } from './idempotent-command.service';
import { PixKeyRepository } from './pix-key.repository';

/**
 * The Pix key commands wired as the module wires them, on the real pix_keys schema (integration specs).
 * `relay.wakes` counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events.
 */
export function pixKeyCommands(config: PixKeysConfig = loadConfig(PixKeysConfig)) {
  const prisma = new PrismaService(config);
  const pixKeys = new PixKeyRepository(prisma);
  const relay = { wakes: 0, wake: () => void relay.wakes++ };
  const unitOfWork = new UnitOfWork(prisma.pool, relay);
  const idempotent = new IdempotentCommandService(unitOfWork, new IdempotencyRecordRepository(prisma));
  return {
    prisma,
    users: new UserRepository(prisma),
    pixKeys,
    relay,
    unitOfWork,
    create: new CreatePixKeyUseCase(idempotent, pixKeys),
    remove: new DeletePixKeyUseCase(idempotent, pixKeys),
  };
}

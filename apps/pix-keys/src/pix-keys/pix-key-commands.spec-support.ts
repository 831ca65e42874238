import { loadConfig } from '@partner/config';
import { Database, UnitOfWork } from '@partner/db';
import { selectRow, selectRows } from '@partner/testing';
import { DB_SCHEMA } from '../database/db-schema';
import { PixKeysConfig } from '../config/pix-keys.config';
import { UserHolder, UserRepository } from '../users/user.repository';
import { CreatePixKeyUseCase } from './create-pix-key.use-case';
import { DeletePixKeyUseCase } from './delete-pix-key.use-case';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotentCommandService } from './idempotent-command.service';
import { PixKeyRepository } from './pix-key.repository';

/**
 * DICT settings for specs that never call DICT (the commands): the config requires them, nothing reads
 * them. Specs of the DICT queue point them at a DICT test server of their own (dict/*.int.spec.ts).
 */
export const UNUSED_DICT_SETTINGS = {
  DICT_URL: 'https://127.0.0.1:9/api/v1',
  DICT_ISPB: '12345678',
  DICT_CLIENT_CERT_FILE: 'unused',
  DICT_CLIENT_KEY_FILE: 'unused',
  DICT_CA_FILE: 'unused',
  DICT_SIGNING_CERT_FILE: 'unused',
  DICT_SIGNING_KEY_FILE: 'unused',
  DICT_RESPONSE_SIGNING_CERT_FILE: 'unused',
};

/** The service's configuration for specs: the environment's, DICT's settings defaulted to UNUSED_DICT_SETTINGS. */
export const specConfig = (env: Record<string, string> = {}) =>
  loadConfig(PixKeysConfig, { ...UNUSED_DICT_SETTINGS, ...process.env, ...env });

/** What a user needs on file for a key to be accepted: a holder's name DICT takes (the account is checked later). */
export const NAMED: UserHolder = { name: 'Maria Souza' };

/** A pix_keys row as pg reads it: the columns the specs look at. */
export interface PixKeyRow {
  id: string;
  document: string;
  key: string;
  state: string;
  failure_reason: string | null;
  holder_name: string | null;
  deletion_requested_at: Date | null;
  dict_request_id: string;
  dict_attempts: number;
  dict_next_attempt_at: Date | null;
  dict_last_error: string | null;
  dict_mismatch: string | null;
}

/**
 * The Pix key commands wired as the module wires them, on the real pix_keys schema (integration specs).
 * `relay.wakes` counts the relay's wake-ups: the unit of work wakes it after each commit that wrote events.
 * `keysOf` and `keyRow` read the keys back, `db` anything else; `close` ends the pool after the suite.
 */
export function pixKeyCommands(config: PixKeysConfig = specConfig()) {
  const db = new Database(config, DB_SCHEMA);
  const pixKeys = new PixKeyRepository(db);
  const relay = { wakes: 0, wake: () => void relay.wakes++ };
  const unitOfWork = new UnitOfWork(db, relay);
  const idempotent = new IdempotentCommandService(unitOfWork, new IdempotencyRecordRepository(db));
  return {
    db,
    close: () => db.close(),
    /** The partner's keys, oldest first. */
    keysOf: (partnerId: string) =>
      selectRows<PixKeyRow>(db, 'SELECT * FROM pix_keys WHERE partner_id = $1 ORDER BY created_at, id', [partnerId]),
    keyRow: (id: string) => selectRow<PixKeyRow>(db, 'SELECT * FROM pix_keys WHERE id = $1', [id]),
    users: new UserRepository(db),
    pixKeys,
    relay,
    unitOfWork,
    create: new CreatePixKeyUseCase(idempotent, pixKeys),
    remove: new DeletePixKeyUseCase(idempotent, pixKeys),
  };
}

import { Injectable } from '@nestjs/common';
import { PartnerId, PIX_KEY_STATES, PixKeyState } from '@partner/contracts';
import { Database, statement } from '@partner/db';

/**
 * Records the key's state unless a newer one is stored: the row is written only if the event is newer
 * by (occurred_at, position of the state in the lifecycle $6), which the conflict's WHERE decides on
 * the locked latest row, so concurrent deliveries cannot overwrite a newer state either.
 */
const APPLY = statement(
  'inflows_pix_key_replica_apply',
  `INSERT INTO pix_key_replica (partner_id, key_id, document, state, occurred_at, updated_at, key)
   VALUES ($1, $2, $3, $4, $5, now(), $7)
   ON CONFLICT (partner_id, key_id) DO UPDATE
     SET document = EXCLUDED.document, state = EXCLUDED.state, occurred_at = EXCLUDED.occurred_at, updated_at = now(), key = EXCLUDED.key
     WHERE (pix_key_replica.occurred_at, array_position($6::text[], pix_key_replica.state))
         < (EXCLUDED.occurred_at, array_position($6::text[], EXCLUDED.state))`,
);

const HAS_REGISTERED_KEY = statement(
  'inflows_pix_key_replica_registered',
  `SELECT EXISTS (SELECT 1 FROM pix_key_replica WHERE partner_id = $1 AND document = $2 AND state = 'registered') AS registered`,
);

const LIFECYCLE: readonly string[] = [...PIX_KEY_STATES];

/**
 * The local replica of the pix-keys service's keys (one row per key id). Scoped by partner. Writes keep
 * the newest state: an event older than the stored one (by occurred_at, then by lifecycle order for
 * events of the same millisecond) changes nothing, so redeliveries and late arrivals are harmless.
 *
 * Applying an event writes one row and reports nothing, so it is one prepared statement on the pool,
 * atomic on its own: a unit of work would only add BEGIN and COMMIT round trips. (The check a Pix by key
 * needs runs inside the simulated network's own statement, SpiPaymentRepository.send.)
 */
@Injectable()
export class PixKeyReplicaRepository {
  constructor(private readonly db: Database) {}

  /** Records `state` for the key unless a newer state is already known; tells whether it was applied. */
  async apply(
    partnerId: PartnerId,
    key: { keyId: string; key: string | null; document: string; state: PixKeyState; occurredAt: Date },
  ): Promise<boolean> {
    const { rowCount } = await this.db.query(APPLY, [partnerId, key.keyId, key.document, key.state, key.occurredAt, LIFECYCLE, key.key]);
    return rowCount === 1;
  }

  /** Whether the user can be paid by key: one of their keys is registered now. */
  async hasRegisteredKey(partnerId: PartnerId, document: string): Promise<boolean> {
    const { rows } = await this.db.query<{ registered: boolean }>(HAS_REGISTERED_KEY, [partnerId, document]);
    return rows[0].registered;
  }
}

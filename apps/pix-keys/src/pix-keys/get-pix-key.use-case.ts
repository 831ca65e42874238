import { Injectable } from '@nestjs/common';
import { fail, GetPixKeyQuery, GetPixKeyResult, ok, RequestReply, Topics } from '@partner/contracts';
import { toSnapshot } from './pix-key-event';
import { PixKey, PixKeyRepository } from './pix-key.repository';

/** The key as GET /partner/v1/pix-key/{document} answers it: the event's snapshot, its state named `status`. */
export function toView(k: PixKey): GetPixKeyResult {
  const { document, key_type, key, state, created_at, last_updated_at } = toSnapshot(k);
  return { document, key_type, key, status: state, created_at, last_updated_at };
}

/**
 * Reads the user's current Pix key: the active one when there is one, else the latest that ended
 * (failed or canceled), so a key canceled and asked for again answers the new one. not_found when the
 * user never had a key, is unknown, or is another partner's.
 */
@Injectable()
export class GetPixKeyUseCase {
  constructor(private readonly pixKeys: PixKeyRepository) {}

  async execute(query: GetPixKeyQuery): Promise<RequestReply<typeof Topics.PixKeysGet>> {
    const key = await this.pixKeys.findCurrent(query.partner_id, query.document);
    return key ? ok(toView(key)) : fail('not_found', `no Pix key for document ${query.document}`);
  }
}

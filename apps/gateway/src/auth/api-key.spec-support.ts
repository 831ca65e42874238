import { ApiKeyRepository } from '../api-keys/api-key.repository';
import { hashApiKey } from './api-key';

/** A repository with one key of partner p1, counting its lookups; `gate` holds lookups until released. */
export function repositoryWith(key: string, keyId = 'k1') {
  const hash = hashApiKey(key);
  const state = { lookups: 0, gate: undefined as Promise<void> | undefined };
  const keys = {
    authenticate: async (h: string) => {
      state.lookups++;
      await state.gate;
      return h === hash ? { partner: { id: 'p1', name: 'P' }, keyId, hash } : null;
    },
  } as unknown as ApiKeyRepository;
  return { keys, state };
}

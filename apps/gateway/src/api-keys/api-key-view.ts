import { unixSeconds, unixSecondsOrNull } from '../http/unix-seconds';
import { ApiKeyRecord } from './api-key.repository';
import { AdminApiKeyView } from './api-keys.dto';

export const toApiKeyView = (key: ApiKeyRecord): AdminApiKeyView => ({
  id: key.id,
  prefix: key.prefix,
  created_at: unixSeconds(key.created_at),
  last_used_at: unixSecondsOrNull(key.last_used_at),
  revoked_at: unixSecondsOrNull(key.revoked_at),
});

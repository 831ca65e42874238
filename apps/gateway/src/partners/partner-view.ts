import { PartnerRecord } from '../auth/partner.repository';
import { unixSeconds, unixSecondsOrNull } from '../http/unix-seconds';
import { AdminPartnerDetail } from './partners.dto';

export const toPartnerDetail = (p: PartnerRecord): AdminPartnerDetail => ({
  id: p.id,
  name: p.name,
  created_at: unixSeconds(p.created_at),
  status: p.disabled_at === null ? 'active' : 'disabled',
  disabled_at: unixSecondsOrNull(p.disabled_at),
  active_api_keys: p.active_api_keys,
  rate_limit_per_second: p.rate_limit_per_second,
  rate_limit_burst: p.rate_limit_burst,
});

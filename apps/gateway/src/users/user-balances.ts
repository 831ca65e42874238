import { PartnerId, Topics, UserBalances } from '@partner/contracts';
import { MessageBus } from '@partner/kafka';
import { unwrap } from '../http/unwrap-reply';

/**
 * A user's balances in both currencies, as the partner's and the operator's balance routes answer them:
 * USDT from withdrawals (its user_not_found is the answer's) and BRL from inflows, asked in parallel. A
 * user the inflows service does not know has no payment account, so nothing was credited to it: 0 BRL.
 */
export async function readUserBalances(bus: Pick<MessageBus, 'request'>, partnerId: PartnerId, document: string): Promise<UserBalances> {
  const [usdt, brl] = await Promise.all([
    bus.request(Topics.WithdrawalsGetBalance, { partner_id: partnerId, document }),
    bus.request(Topics.InflowsGetBalance, { partner_id: partnerId, document }),
  ]);
  const { available_usdt_micros, held_usdt_micros } = unwrap(usdt);
  const { available_brl_cents, blocked_brl_cents } =
    !brl.ok && brl.error.code === 'user_not_found' ? { available_brl_cents: 0, blocked_brl_cents: 0 } : unwrap(brl);
  return { available_usdt_micros, held_usdt_micros, available_brl_cents, blocked_brl_cents };
}

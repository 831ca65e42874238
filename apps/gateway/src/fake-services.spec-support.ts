import { fail, ok, RequestPayload, RequestReply, RequestTopic, Topics, UserAccount } from '@partner/contracts';
import { GatewayBus } from './app.module';

/** A claim id the fake pix-keys service knows nothing of (claim_not_found). */
export const FAKE_UNKNOWN_CLAIM = '00000000-0000-4000-8000-00000000c1a1';

interface Account {
  createdAt: string;
  available: number;
  credits: Map<string, { usdtMicros: number; reference: string }>;
}

/**
 * The services as the gateway sees them over request-reply, in memory, for the gateway's integration
 * specs of the operator API: users (per service, with inflows' payment account), balances (a BRL balance of 0)
 * and credits with their idempotency keys,
 * "no such withdrawal" for reads, and a payout's cancel (withdrawal 404 unknown, 409's payout mined). Every request is recorded, to check what the gateway sent.
 */
export class FakeServices implements GatewayBus {
  readonly sent: Array<{ topic: RequestTopic; payload: unknown }> = [];
  /** Users each service knows, by `<service>:<partner>:<document>`. */
  readonly users = new Set<string>();
  private readonly accounts = new Map<string, Account>();
  /** The inflows service's payment accounts, by `<partner>:<document>`. */
  private readonly paymentAccounts = new Map<string, UserAccount>();

  async request<T extends RequestTopic>(topic: T, payload: RequestPayload<T>): Promise<RequestReply<T>> {
    this.sent.push({ topic, payload });
    return this.answer(topic, payload as never) as RequestReply<T>;
  }

  sentTo(topic: RequestTopic): unknown[] {
    return this.sent.filter((s) => s.topic === topic).map((s) => s.payload);
  }

  private answer(topic: RequestTopic, p: { partner_id: string; document: string } & Record<string, unknown>): unknown {
    const user = `${p.partner_id}:${p.document}`;
    switch (topic) {
      case Topics.WithdrawalsUpsertUser: {
        const existing = this.accounts.get(user);
        if (existing) return ok({ created: false, created_at: existing.createdAt });
        const account: Account = { createdAt: new Date().toISOString(), available: 0, credits: new Map() };
        this.accounts.set(user, account);
        return ok({ created: true, created_at: account.createdAt });
      }
      case Topics.PixKeysUpsertUser: {
        const key = `${topic}:${user}`;
        const created = !this.users.has(key);
        this.users.add(key);
        return ok({ created, created_at: new Date().toISOString() });
      }
      case Topics.InflowsUpsertUser: {
        // The user's payment account, opened the first time: the same one after.
        const key = `${topic}:${user}`;
        const created = !this.users.has(key);
        this.users.add(key);
        if (!this.paymentAccounts.has(user)) {
          const number = String(100_000_000 + this.paymentAccounts.size * 10);
          this.paymentAccounts.set(user, { ispb: '99999999', branch: '0001', number, type: 'TRAN', opened_at: new Date().toISOString() });
        }
        return ok({ created, created_at: new Date().toISOString(), account: this.paymentAccounts.get(user) });
      }
      case Topics.InflowsGetBalance:
        return this.paymentAccounts.has(user)
          ? ok({ available_brl_cents: 0, blocked_brl_cents: 0 })
          : fail('user_not_found', `no user with document ${p.document}`);
      case Topics.WithdrawalsCreditAccount: {
        const account = this.accounts.get(user);
        if (!account) return fail('user_not_found', `no user with document ${p.document}`);
        const credit = { usdtMicros: p.usdt_micros as number, reference: p.reference as string };
        const earlier = account.credits.get(p.idempotency_key as string);
        if (earlier && (earlier.usdtMicros !== credit.usdtMicros || earlier.reference !== credit.reference)) {
          return fail('idempotency_key_reused', 'idempotency_key was already used with a different credit', 'idempotency_key');
        }
        if (!earlier) {
          account.credits.set(p.idempotency_key as string, credit);
          account.available += credit.usdtMicros;
        }
        return ok({ available_usdt_micros: account.available, held_usdt_micros: 0, replayed: Boolean(earlier) });
      }
      case Topics.WithdrawalsGetBalance: {
        const account = this.accounts.get(user);
        return account
          ? ok({ available_usdt_micros: account.available, held_usdt_micros: 0 })
          : fail('user_not_found', `no user with document ${p.document}`);
      }
      case Topics.WithdrawalsGet:
        return fail('not_found', 'no such withdrawal');
      case Topics.WithdrawalsCancelPayout: {
        // Withdrawal 404 does not exist, 409's payout is mined; any other is cancelled.
        const id = p.withdrawal_id as number;
        if (id === 404) return fail('not_found', `no withdrawal ${id}`);
        if (id === 409)
          return fail('invalid_transition', `withdrawal ${id}'s payout is mined: only a signed payout not yet mined can be cancelled`);
        const [from_address, tx_hash] = [`0x${'11'.repeat(20)}`, `0x${'ab'.repeat(32)}`];
        const reason = `${String(p.by)}: ${String(p.note)}`;
        return ok({
          withdrawal_id: id,
          network: 'MATIC',
          state: 'sent',
          payout_state: 'cancelling',
          reason,
          from_address,
          nonce: 7,
          tx_hash,
        });
      }
      case Topics.PixKeysConfirmClaim:
      case Topics.PixKeysCancelClaim: {
        // A claim is decided once: the same decision again is already_sent; FAKE_UNKNOWN_CLAIM is no claim of the user's.
        if (p.claim_id === FAKE_UNKNOWN_CLAIM) return fail('claim_not_found', `no claim ${String(p.claim_id)}`);
        const key = `${topic}:${user}:${String(p.claim_id)}`;
        const again = this.users.has(key);
        this.users.add(key);
        return ok({ status: again ? 'already_sent' : 'accepted' });
      }
      default:
        return fail('not_implemented', `the fake services do not answer ${topic}`);
    }
  }
}

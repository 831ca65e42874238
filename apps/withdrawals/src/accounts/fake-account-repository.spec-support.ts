import { AccountRepository, Balance, CreditOutcome, NewCredit } from './account.repository';

type EarlierCredit = Pick<NewCredit, 'document' | 'micros' | 'reference'>;

/**
 * The accounts and credits tables in memory, for unit specs: every account and credit is the partner's
 * (keyed by partner id, as the SQL's primary keys are), so another partner's user is not found. A credit
 * claims its idempotency key unless an earlier credit holds it, as the credit statement does; `failure`,
 * when set, fails every call as a lost database does.
 */
export class FakeAccountRepository implements Pick<AccountRepository, 'find' | 'open' | 'credit'> {
  private readonly accounts = new Map<string, Balance & { createdAt: Date }>();
  private readonly credits = new Map<string, EarlierCredit>();
  failure?: Error;

  /** An account opened earlier, with a balance. */
  seed(
    partnerId: string,
    document: string,
    { availableMicros = 0n, heldMicros = 0n, createdAt = new Date() }: Partial<Balance> & { createdAt?: Date } = {},
  ): void {
    this.accounts.set(`${partnerId}:${document}`, { availableMicros, heldMicros, createdAt });
  }

  /** A credit applied earlier, which holds its idempotency key. */
  seedCredit(partnerId: string, idempotencyKey: string, { document, micros, reference }: EarlierCredit): void {
    this.credits.set(`${partnerId}:${idempotencyKey}`, { document, micros, reference });
  }

  /** The credit that holds a key of the partner's, if any. */
  creditOf(partnerId: string, idempotencyKey: string): EarlierCredit | undefined {
    return this.credits.get(`${partnerId}:${idempotencyKey}`);
  }

  /** When the partner's user's account was opened, if it was. */
  openedAt(partnerId: string, document: string): Date | undefined {
    return this.accounts.get(`${partnerId}:${document}`)?.createdAt;
  }

  async find(partnerId: string, document: string): Promise<Balance | null> {
    this.failIfTold();
    const account = this.accounts.get(`${partnerId}:${document}`);
    return account ? { availableMicros: account.availableMicros, heldMicros: account.heldMicros } : null;
  }

  async open(partnerId: string, document: string, now: Date): Promise<{ created: boolean; createdAt: Date }> {
    this.failIfTold();
    const existing = this.accounts.get(`${partnerId}:${document}`);
    if (existing) return { created: false, createdAt: existing.createdAt };
    this.seed(partnerId, document, { createdAt: now });
    return { created: true, createdAt: now };
  }

  /** The credit statement's outcomes; an unknown user claims no key (the caller's rollback would undo the claim). */
  async credit(_tx: unknown, credit: NewCredit): Promise<CreditOutcome> {
    this.failIfTold();
    const earlier = this.creditOf(credit.partnerId, credit.idempotencyKey);
    if (earlier) {
      const balance = await this.find(credit.partnerId, earlier.document);
      if (!balance) throw new Error(`credit ${credit.idempotencyKey} of partner ${credit.partnerId} conflicted but cannot be read`);
      return { earlier: { ...earlier }, balance };
    }
    const account = this.accounts.get(`${credit.partnerId}:${credit.document}`);
    if (!account) return 'user_not_found';
    this.seedCredit(credit.partnerId, credit.idempotencyKey, credit);
    account.availableMicros += credit.micros;
    return { applied: { availableMicros: account.availableMicros, heldMicros: account.heldMicros } };
  }

  private failIfTold(): void {
    if (this.failure) throw this.failure;
  }
}

import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { fail, ok, ReplaceSdnListCommand, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { FailBeforeSigning } from '../payouts/fail-before-signing';
import { PayoutRepository } from '../payouts/payout.repository';
import { GetScreeningStatusUseCase } from './get-screening-status.use-case';
import { OFAC_SDN_COPY } from './ofac-sdn-copy';
import { ScreeningRepository } from './screening.repository';

/** Who loaded the copy the service ships with. */
export const VENDORED_COPY = 'vendored copy';

export interface SdnCopy {
  source: string;
  publishedAt: Date;
  loadedBy: string;
  addresses: readonly string[];
}

/**
 * A new copy of the SDN list's addresses replaces the one in use, whole, unless the one in use was published
 * later (invalid_transition). In the same transaction every withdrawal not signed yet to an address of the new
 * copy fails (`address_blocked`), its hold released and its event written. At start the service loads the copy
 * it ships with (ofac-sdn-copy.ts) the same way when the database holds none or an older one.
 */
@Injectable()
export class ReplaceSdnListUseCase implements OnApplicationBootstrap {
  private readonly logger = new Logger('screening');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly lists: ScreeningRepository,
    private readonly payouts: PayoutRepository,
    private readonly failBeforeSigning: FailBeforeSigning,
    private readonly status: GetScreeningStatusUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Only when the database holds none or an older one: every instance starts with it, and a restart changes nothing.
    const loaded = await this.replace({ ...OFAC_SDN_COPY, loadedBy: VENDORED_COPY }, new Date(), false);
    if (loaded) this.logger.log(`loaded the SDN copy it ships with (published ${OFAC_SDN_COPY.publishedAt.toISOString()})`);
  }

  async execute(c: ReplaceSdnListCommand): Promise<RequestReply<typeof Topics.WithdrawalsReplaceSdnList>> {
    const copy = { source: c.source, publishedAt: new Date(c.published_at * 1000), loadedBy: c.by, addresses: c.addresses };
    const failed = await this.replace(copy, new Date(c.asked_at), true);
    if (failed === null)
      return fail(
        'invalid_transition',
        `the SDN copy in use was published after ${copy.publishedAt.toISOString()}: an older copy is refused`,
      );
    this.logger.warn(
      `${c.by} loaded an SDN copy of ${copy.addresses.length} addresses published ${copy.publishedAt.toISOString()} (${c.source}); ${failed.length} waiting withdrawal(s) failed`,
    );
    const sdn = (await this.status.execute()).lists.find((l) => l.list === 'ofac_sdn');
    if (!sdn) throw new Error('the SDN list vanished from the status');
    return ok({ ...sdn, failed_withdrawals: failed });
  }

  /** The ids of the withdrawals it failed, or null when the copy in use is newer (nothing changed). */
  private replace(copy: SdnCopy, now: Date, sameDate: boolean): Promise<number[] | null> {
    const addresses = copy.addresses.map((a) => a.toLowerCase());
    return this.unitOfWork.run(async (tx) => {
      if (!(await this.lists.replaceCopy(tx, 'ofac_sdn', { ...copy, addresses }, now, sameDate))) return null;
      const waiting = await this.payouts.unsignedTo(tx, addresses);
      const failed = await this.failBeforeSigning.execute(tx, waiting, 'address_blocked', now);
      return failed.map((w) => w.id);
    });
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { DenyListAddCommand, DenyListEntryView, DenyListRemoveCommand, fail, ok, RequestReply, Topics } from '@partner/contracts';
import { UnitOfWork } from '@partner/db';
import { FailBeforeSigning } from '../payouts/fail-before-signing';
import { PayoutRepository } from '../payouts/payout.repository';
import { DenyListEntry, ScreeningRepository } from './screening.repository';

export const toDenyListEntryView = (e: DenyListEntry): DenyListEntryView => ({
  address: e.address,
  note: e.note,
  added_by: e.addedBy,
  added_at: Math.floor(e.addedAt.getTime() / 1000),
});

/**
 * The operator's deny list. Adding an address fails, in the same transaction, every withdrawal not signed yet
 * to it (`address_blocked`, hold released, event written); adding it again changes nothing. Removing lifts
 * the entry for the requests and rounds that follow (what failed stays failed).
 */
@Injectable()
export class ChangeDenyListUseCase {
  private readonly logger = new Logger('screening');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly lists: ScreeningRepository,
    private readonly payouts: PayoutRepository,
    private readonly failBeforeSigning: FailBeforeSigning,
  ) {}

  async add(c: DenyListAddCommand): Promise<RequestReply<typeof Topics.WithdrawalsDenyListAdd>> {
    const address = c.address.toLowerCase();
    const now = new Date(c.asked_at);
    const added = await this.unitOfWork.run(async (tx) => {
      const entry = await this.lists.deny(tx, { address, note: c.note, addedBy: c.by, addedAt: now });
      if (!entry) return null;
      const failed = await this.failBeforeSigning.execute(tx, await this.payouts.unsignedTo(tx, [address]), 'address_blocked', now);
      return { entry, failed: failed.map((w) => w.id) };
    });
    if (added) {
      this.logger.warn(`${c.by} denied ${address} (${c.note}); ${added.failed.length} waiting withdrawal(s) failed`);
      return ok({ ...toDenyListEntryView(added.entry), created: true, failed_withdrawals: added.failed });
    }
    const existing = await this.lists.denied(address);
    if (!existing) throw new Error(`${address} is neither newly denied nor on the deny list`);
    return ok({ ...toDenyListEntryView(existing), created: false, failed_withdrawals: [] });
  }

  async remove(c: DenyListRemoveCommand): Promise<RequestReply<typeof Topics.WithdrawalsDenyListRemove>> {
    const removed = await this.lists.undeny(c.address.toLowerCase());
    if (!removed) return fail('not_found', `${c.address.toLowerCase()} is not on the deny list`);
    this.logger.warn(`${c.by} lifted ${removed.address} from the deny list (added by ${removed.addedBy}: ${removed.note})`);
    return ok(toDenyListEntryView(removed));
  }
}

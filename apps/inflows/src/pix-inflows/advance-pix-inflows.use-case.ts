import { Injectable } from '@nestjs/common';
import { PixInStatus } from '@partner/contracts';
import { OutboxRelay, OutboxRepository } from '@partner/kafka';
import { InflowsConfig } from '../config/inflows.config';
import { PrismaService } from '../prisma/prisma.service';
import { pixInStateChanged } from './pix-in-event';
import { PixInflowRepository } from './pix-inflow.repository';

const BATCH = 200;

/**
 * The simulated settlement of incoming Pix: `processing` → `approved` (or `denied`), then `approved` →
 * `credited` (or `failed`), each after PIX_IN_STEP_DELAY_MS, as the sandbox asked (the payment's
 * outcome). Each move is one transaction with its pix_in event; a move another instance already made is
 * skipped, so any number of instances may run.
 */
@Injectable()
export class AdvancePixInflowsUseCase {
  constructor(
    private readonly config: InflowsConfig,
    private readonly prisma: PrismaService,
    private readonly inflows: PixInflowRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  /** Makes every move that is due at `now`; returns how many inflows moved. */
  async execute(now = new Date()): Promise<number> {
    const dueBefore = new Date(now.getTime() - this.config.PIX_IN_STEP_DELAY_MS);
    let moved = 0;
    for (const { id, partnerId, outcome } of await this.inflows.findDueAcrossPartners('processing', dueBefore, BATCH)) {
      moved += await this.move(partnerId, id, 'processing', outcome === 'denied' ? 'denied' : 'approved');
    }
    for (const { id, partnerId, outcome } of await this.inflows.findDueAcrossPartners('approved', dueBefore, BATCH)) {
      moved += await this.move(partnerId, id, 'approved', outcome === 'failed' ? 'failed' : 'credited');
    }
    if (moved > 0) this.relay.wake();
    return moved;
  }

  private move(partnerId: string, id: bigint, from: PixInStatus, to: PixInStatus): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const inflow = await this.inflows.transition(tx, partnerId, id, from, to);
      if (!inflow) return 0;
      await this.outbox.add(tx, pixInStateChanged(inflow));
      return 1;
    });
  }
}

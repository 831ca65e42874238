import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS_REGISTRY } from '@partner/platform';
import { Counter, Gauge, Registry } from 'prom-client';

/** The payouts' metrics (docs/operations/observability.md, "Metrics"), labelled by network. */
@Injectable()
export class PayoutMetrics {
  readonly waiting = new Gauge({
    name: 'payouts_waiting',
    help: 'Withdrawals waiting to be signed, by why: usdt or gas (hot wallet short), fee_cap (fees above the cap), node (node down or wrong)',
    labelNames: ['network', 'reason'],
    registers: [],
  });
  readonly rpcFailures = new Counter({
    name: 'chain_rpc_failures_total',
    help: "Payout rounds cut short because the network's node was down, slow, answered garbage or served another chain",
    labelNames: ['network', 'reason'],
    registers: [],
  });
  readonly broadcasts = new Counter({
    name: 'payout_broadcasts_total',
    help: 'Raw transactions sent to the node, by what it answered: accepted, known, nonce_used, underpriced, refused',
    labelNames: ['network', 'outcome'],
    registers: [],
  });
  readonly replacements = new Counter({
    name: 'payout_replacements_total',
    help: 'Transactions replaced (same nonce, fees raised) because they were not mined in time',
    labelNames: ['network'],
    registers: [],
  });
  readonly reorgs = new Counter({
    name: 'payout_reorgs_total',
    help: 'Receipts lost to a reorganisation before finality (the withdrawal waits to be mined again)',
    labelNames: ['network'],
    registers: [],
  });
  readonly finished = new Counter({
    name: 'payouts_finished_total',
    help: 'Withdrawals settled or failed on chain',
    labelNames: ['network', 'state'],
    registers: [],
  });
  readonly usdt = new Gauge({
    name: 'hot_wallet_usdt_micros',
    help: "The hot wallet's USDT, in micros",
    labelNames: ['network'],
    registers: [],
  });
  readonly native = new Gauge({
    name: 'hot_wallet_native_wei',
    help: "The hot wallet's native coin for gas (ETH, POL), in wei (a float: exact to 2^53)",
    labelNames: ['network'],
    registers: [],
  });
  readonly low = new Gauge({
    name: 'hot_wallet_low',
    help: '1 when the hot wallet holds less than its alert threshold (HOT_WALLET_LOW_USDT_MICROS, HOT_WALLET_LOW_NATIVE_GWEI)',
    labelNames: ['network', 'asset'],
    registers: [],
  });
  readonly mismatches = new Counter({
    name: 'reconciliation_mismatches_total',
    help: 'Findings of the reconciliation: the chain disagrees with the books (an alert: never mended silently)',
    labelNames: ['network', 'kind'],
    registers: [],
  });

  constructor(@Optional() @Inject(METRICS_REGISTRY) registry?: Registry) {
    for (const m of [
      this.waiting,
      this.rpcFailures,
      this.broadcasts,
      this.replacements,
      this.reorgs,
      this.finished,
      this.usdt,
      this.native,
      this.low,
      this.mismatches,
    ])
      registry?.registerMetric(m);
  }
}

import { Injectable } from '@nestjs/common';
import { metric, metricSet } from '@partner/platform';

/** The payouts' metrics (docs/operations/observability.md, "Metrics"), labelled by network. */
@Injectable()
export class PayoutMetrics extends metricSet({
  waiting: metric.gauge(
    'payouts_waiting',
    ['network', 'reason'],
    "Why payouts wait: node (1 while the network's node is down, wrong or unfit), or the number of hot wallets (lanes) waiting for token_refuses_wallet, usdt_short, gas_short, in_flight_cap, stopped (a finding stopped it)",
  ),
  rpcFailures: metric.counter(
    'chain_rpc_failures_total',
    ['network', 'reason'],
    "Payout rounds cut short because the network's node was down, slow, answered garbage (unavailable), served another chain (wrong_chain), or was syncing or behind (unfit)",
  ),
  broadcasts: metric.counter(
    'payout_broadcasts_total',
    ['network', 'outcome'],
    'Raw transactions sent to the node, by what it answered: accepted, known, nonce_used, underpriced, refused',
  ),
  replacements: metric.counter(
    'payout_replacements_total',
    ['network'],
    'Transactions replaced (same nonce, fees raised) because they were not mined in time',
  ),
  cancels: metric.counter(
    'payout_cancels_total',
    ['network', 'outcome'],
    "Operators' cancels of a stuck nonce: signed (a 0-value self-transfer at it), cancelled (it took the nonce: the withdrawal gets a new one)",
  ),
  reorgs: metric.counter(
    'payout_reorgs_total',
    ['network'],
    'Receipts lost to a reorganisation before finality (the withdrawal waits to be mined again)',
  ),
  finished: metric.counter('payouts_finished_total', ['network', 'state'], 'Withdrawals settled or failed on chain'),
  aside: metric.gauge('payouts_aside', ['network'], 'Withdrawals waiting aside: no hot wallet can pay them now (exceeds_float, fee_cap)'),
  usdt: metric.gauge('hot_wallet_usdt_micros', ['network', 'wallet'], "Each hot wallet's USDT, in micros"),
  native: metric.gauge(
    'hot_wallet_native_wei',
    ['network', 'wallet'],
    "The hot wallet's native coin for gas (ETH, POL), in wei (a float: exact to 2^53)",
  ),
  low: metric.gauge(
    'hot_wallet_low',
    ['network', 'wallet', 'asset'],
    '1 when the hot wallet holds less than its alert threshold (HOT_WALLET_LOW_USDT_MICROS, HOT_WALLET_LOW_NATIVE_GWEI)',
  ),
  mismatches: metric.counter(
    'reconciliation_mismatches_total',
    ['network', 'kind'],
    'Findings of the reconciliation: the chain disagrees with the books (an alert: never mended silently)',
  ),
}) {}

import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS_REGISTRY } from '@partner/platform';
import { Counter, Gauge, Histogram, Metric, Registry } from 'prom-client';

/** The DICT client's metrics (docs/operations/observability.md, "Metrics"; docs/operations/pix-and-dict.md, "DICT"). */
@Injectable()
export class DictMetrics {
  readonly requests = new Counter({
    name: 'dict_requests_total',
    help: 'Calls to DICT by operation and outcome: done, unavailable (timeout, 5xx, 429, untrusted answer) or refused_<DICT problem type>',
    labelNames: ['operation', 'outcome'],
    registers: [],
  });
  readonly duration = new Histogram({
    name: 'dict_request_duration_seconds',
    help: 'How long each call to DICT took, by operation',
    labelNames: ['operation'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  });
  readonly finished = new Counter({
    name: 'dict_keys_finished_total',
    help: 'Keys the DICT queue ended: registered, failed (by partner-facing reason) or canceled',
    labelNames: ['state', 'reason'],
    registers: [],
  });
  readonly waiting = new Gauge({
    name: 'dict_queue_retrying',
    help: 'Registrations and deletions waiting for another attempt after DICT did not answer (or answered a refusal worth retrying)',
    registers: [],
  });
  readonly mismatches = new Counter({
    name: 'dict_reconciliation_mismatches_total',
    help: 'Registered keys whose DICT entry is missing or differs (an alert: never mended automatically)',
    labelNames: ['kind'],
    registers: [],
  });

  constructor(@Optional() @Inject(METRICS_REGISTRY) registry?: Registry) {
    const all: Metric[] = [this.requests, this.duration, this.finished, this.waiting, this.mismatches];
    for (const m of all) registry?.registerMetric(m);
  }
}

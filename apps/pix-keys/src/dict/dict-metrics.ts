import { Injectable } from '@nestjs/common';
import { metric, metricSet } from '@partner/platform';

/** The DICT client's metrics (docs/operations/observability.md, "Metrics"; docs/operations/pix-and-dict.md, "DICT"). */
@Injectable()
export class DictMetrics extends metricSet({
  requests: metric.counter(
    'dict_requests_total',
    ['operation', 'outcome'],
    'Calls to DICT by operation and outcome: done, unavailable (timeout, 5xx, 429, untrusted answer) or refused_<DICT problem type>',
  ),
  duration: metric.histogram(
    'dict_request_duration_seconds',
    ['operation'],
    'How long each call to DICT took, by operation',
    [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  ),
  finished: metric.counter(
    'dict_keys_finished_total',
    ['state', 'reason'],
    'Keys the DICT queue ended: registered, failed (by partner-facing reason) or canceled',
  ),
  waiting: metric.gauge(
    'dict_queue_retrying',
    [],
    'Registrations and deletions waiting for another attempt after DICT did not answer (or answered a refusal worth retrying)',
  ),
  mismatches: metric.counter(
    'dict_reconciliation_mismatches_total',
    ['kind'],
    'Registered keys whose DICT entry is missing or differs (an alert: never mended automatically)',
  ),
}) {}

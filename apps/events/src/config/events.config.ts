import { IntInRange, ServiceConfig } from '@partner/config';
import { SERVICE_CATALOGUE } from '@partner/contracts';

export class EventsConfig extends ServiceConfig {
  override HEALTH_PORT: number = SERVICE_CATALOGUE.events.healthPort;

  /**
   * The projector receives about three events per withdrawal: batches are worth waiting for (range checked
   * by ServiceConfig). Under load a fetch ends when 16 KB have gathered, well before this; idle, an empty
   * fetch comes back every 100 ms instead of every 25 (less idle CPU in the broker and this service), and a
   * lone event reaches the feed at most this much later.
   */
  override KAFKA_EVENT_FETCH_WAIT_MS: number = 100;

  /** Delivered events older than this many days (by delivery time) are removed from the feed; undelivered ones stay. */
  @IntInRange(1, 3650)
  FEED_RETENTION_DAYS: number = 30;

  /** How often the feed is pruned. */
  @IntInRange(1_000, 86_400_000)
  FEED_PRUNE_INTERVAL_MS: number = 3_600_000;

  /** Events removed per statement: a large backlog is pruned in short transactions, not one long lock. */
  @IntInRange(1, 100_000)
  FEED_PRUNE_BATCH_SIZE: number = 5_000;

  /**
   * Most events projected in one transaction. Events arriving while a projection runs wait and go out
   * together; the cap keeps one transaction (and the counter locks it holds) short.
   */
  @IntInRange(1, 10_000)
  FEED_PROJECTION_BATCH_SIZE: number = 200;
}

-- Written by hand: schema.prisma cannot declare a partial index (only behind Prisma's "partialIndexes"
-- preview feature, which this project does not enable).
--
-- The most-called query is "the partner's undelivered events, in sequence order" (GET /events?delivered=false).
-- A partner keeps up to FEED_RETENTION_DAYS of delivered events (a million for a busy one) and a handful
-- of undelivered ones; through (partner_id, sequence) PostgreSQL has to step over every delivered row to
-- reach them (about 215 ms for 1,000,000 delivered rows). These indexes hold only undelivered rows, so
-- they stay as small as the backlog and the query reads just the page it returns.
--
-- scripts/db/new-migration.ts does not propose dropping them: without the preview feature the schema
-- engine leaves partial indexes out of its diff (checked: a plain index missing from schema.prisma is
-- dropped, these are not). Enabling "partialIndexes" would change that: declare them in schema.prisma
-- with `where: raw("delivered_at IS NULL")` first.
--
-- Not CONCURRENTLY: a migration file runs in one transaction. On a large live table create them by hand
-- with CREATE INDEX CONCURRENTLY (same names) before deploying, then this file becomes a no-op.

CREATE INDEX IF NOT EXISTS "feed_events_undelivered_partner_id_sequence_idx"
    ON "feed_events"("partner_id", "sequence") WHERE "delivered_at" IS NULL;

-- The type filter on the undelivered list (GET /events?delivered=false&type=...).
CREATE INDEX IF NOT EXISTS "feed_events_undelivered_partner_id_type_sequence_idx"
    ON "feed_events"("partner_id", "type", "sequence") WHERE "delivered_at" IS NULL;

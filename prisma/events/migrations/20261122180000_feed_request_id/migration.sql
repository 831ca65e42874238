-- The X-Request-Id of the call that caused each feed event (README: "Request ids"); null for events
-- no request caused and for the events stored before this column.

-- AlterTable
ALTER TABLE "feed_events" ADD COLUMN     "request_id" TEXT;

-- Owner notifications sent for real (docs/operations.md: "Owner notifications"): attempts, the next one's
-- time, the last error (no personal data), a final `failed`, and the provider's id of each message sent.
-- The simulated notifier's index (status, created_at) gives way to a partial one on what the notifier claims.

-- DropIndex
DROP INDEX "owner_notifications_status_created_at_idx";

-- AlterTable
ALTER TABLE "owner_notifications" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failed_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "provider_message_id" TEXT;

-- Written by hand (schema.prisma cannot declare a partial index; the schema engine leaves it out of its diff):
-- the notifier's claim, pending rows by due time. Sent and failed rows, nearly all of them, stay out of it.
CREATE INDEX "owner_notifications_due_idx" ON "owner_notifications"("next_attempt_at", "id") WHERE "status" = 'pending';

-- Not expressible in schema.prisma: the states there are now, and what each one carries.
ALTER TABLE "owner_notifications" DROP CONSTRAINT "owner_notifications_status_check";
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'failed'));
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_attempts_check" CHECK ("attempts" >= 0);
ALTER TABLE "owner_notifications" ADD CONSTRAINT "owner_notifications_outcome_check" CHECK (
  ("status" = 'sent') = ("sent_at" IS NOT NULL) AND ("status" = 'failed') = ("failed_at" IS NOT NULL)
);

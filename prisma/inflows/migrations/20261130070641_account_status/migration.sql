-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'active',
ADD COLUMN     "status_changed_at" TIMESTAMPTZ(3),
ADD COLUMN     "status_reason" TEXT;

-- AlterTable
ALTER TABLE "unmatched_pix_inflows" ADD COLUMN     "refusal" TEXT;

-- Added by hand (Prisma cannot express them) -------------------------------------------------------
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_status_known" CHECK ("status" IN ('active', 'blocked', 'closed'));
ALTER TABLE "unmatched_pix_inflows" ADD CONSTRAINT "unmatched_pix_inflows_refusal_known"
  CHECK ("refusal" IS NULL OR "refusal" IN ('account_not_found', 'account_blocked', 'account_closed'));

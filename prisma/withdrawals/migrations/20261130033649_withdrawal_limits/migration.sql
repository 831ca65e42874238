-- CreateTable
CREATE TABLE "partner_limits" (
    "partner_id" UUID NOT NULL,
    "per_withdrawal_micros" BIGINT,
    "daily_micros" BIGINT,
    "monthly_micros" BIGINT,
    "partner_daily_micros" BIGINT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "partner_limits_pkey" PRIMARY KEY ("partner_id")
);

-- CreateTable
CREATE TABLE "user_limits" (
    "partner_id" UUID NOT NULL,
    "document" CHAR(11) NOT NULL,
    "per_withdrawal_micros" BIGINT,
    "daily_micros" BIGINT,
    "monthly_micros" BIGINT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "user_limits_pkey" PRIMARY KEY ("partner_id","document")
);

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- A limit is a number of micros, never below 0 (0 allows nothing); null is none.
ALTER TABLE "partner_limits" ADD CONSTRAINT "partner_limits_non_negative" CHECK (
  coalesce("per_withdrawal_micros", 0) >= 0 AND coalesce("daily_micros", 0) >= 0 AND coalesce("monthly_micros", 0) >= 0
  AND coalesce("partner_daily_micros", 0) >= 0);
ALTER TABLE "user_limits" ADD CONSTRAINT "user_limits_non_negative" CHECK (
  coalesce("per_withdrawal_micros", 0) >= 0 AND coalesce("daily_micros", 0) >= 0 AND coalesce("monthly_micros", 0) >= 0);

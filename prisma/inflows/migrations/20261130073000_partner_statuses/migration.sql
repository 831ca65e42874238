-- CreateTable
CREATE TABLE "partner_statuses" (
    "partner_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "partner_statuses_pkey" PRIMARY KEY ("partner_id")
);

-- Added by hand (Prisma cannot express them) -------------------------------------------------------
ALTER TABLE "partner_statuses" ADD CONSTRAINT "partner_statuses_status_known" CHECK ("status" IN ('active', 'disabled'));

-- CreateTable
CREATE TABLE "payout_round_leases" (
    "network" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payout_round_leases_pkey" PRIMARY KEY ("network")
);

-- CreateTable
CREATE TABLE "screening_copies" (
    "list" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "loaded_at" TIMESTAMPTZ(3) NOT NULL,
    "loaded_by" TEXT NOT NULL,

    CONSTRAINT "screening_copies_pkey" PRIMARY KEY ("list")
);

-- CreateTable
CREATE TABLE "screened_addresses" (
    "address" TEXT NOT NULL,
    "list" TEXT NOT NULL,
    "note" TEXT,
    "added_by" TEXT NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "screened_addresses_pkey" PRIMARY KEY ("address","list")
);

-- CreateIndex
CREATE INDEX "screened_addresses_list_address_idx" ON "screened_addresses"("list", "address");

-- Added by hand (Prisma cannot express them) -------------------------------------------------------

-- The lists the service keeps, and addresses in one spelling (lower case: EIP-55 is only letter case), so that
-- a lookup by the lower-case address finds every listing.
ALTER TABLE "screening_copies" ADD CONSTRAINT "screening_copies_list_check" CHECK ("list" IN ('ofac_sdn'));
ALTER TABLE "screened_addresses" ADD CONSTRAINT "screened_addresses_list_check" CHECK ("list" IN ('ofac_sdn', 'deny_list'));
ALTER TABLE "screened_addresses" ADD CONSTRAINT "screened_addresses_address_check" CHECK ("address" ~ '^0x[0-9a-f]{40}$');

-- The list of GET /partner/v1/customers/business (docs/api.md: "Lists"): newest first by (created_at, id),
-- keyset-paged; the external_id index gains the order's columns (nothing else read it), a CNPJ uses the unique index.

-- DropIndex
DROP INDEX "customers_partner_id_external_id_idx";

-- CreateIndex
CREATE INDEX "customers_list_by_external_id_idx" ON "customers"("partner_id", "external_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "customers_list_idx" ON "customers"("partner_id", "created_at", "id");

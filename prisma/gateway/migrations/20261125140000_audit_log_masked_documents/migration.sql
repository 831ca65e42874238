-- Audit entries keep no document in clear (docs/operations.md: "Personal data"): the gateway now writes the
-- path's document masked (maskIdentifiers); the entries written before are masked here, the one change the
-- append-only table ever takes (its trigger is off for this statement only, inside the migration's transaction).
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_no_update_delete";
UPDATE "audit_log" SET "document" = '[masked]' WHERE "document" IS NOT NULL AND "document" <> '[masked]';
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_no_update_delete";

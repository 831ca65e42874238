-- MED cases their opener cancelled in DICT before they were decided: a status `cancelled` (docs/operations/pix-and-dict.md,
-- "MED"). By hand: the schema is unchanged, only the CHECK constraint (which Prisma cannot express).
ALTER TABLE "med_cases" DROP CONSTRAINT "med_cases_status_known";
ALTER TABLE "med_cases" ADD CONSTRAINT "med_cases_status_known"
  CHECK ("status" IN ('open', 'agreed', 'disagreed', 'returning', 'returned', 'rejected', 'cancelled'));

-- AlterTable
ALTER TABLE "partners" ADD COLUMN     "rate_limit_burst" INTEGER,
ADD COLUMN     "rate_limit_per_second" INTEGER;

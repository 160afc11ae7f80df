-- Which PSA the MSP's copies, queue, board setup and users' PSA links came from (decision 042): keys saved for another
-- PSA start that data over. Backfilled from the MSP's newest sync run that names its connection; without one it stays
-- null and the keys saved before are taken instead. Additive only: servers of the previous release ignore the column
-- (docs/operations.md §7).
ALTER TABLE "integrations" ADD COLUMN "data_psa_connection" text;--> statement-breakpoint
UPDATE "integrations" AS i SET "data_psa_connection" = (
  SELECT r."psa_connection" FROM "sync_runs" AS r
  WHERE r."msp_id" = i."msp_id" AND r."psa_connection" IS NOT NULL
  ORDER BY r."created_at" DESC
  LIMIT 1
) WHERE i."data_psa_connection" IS NULL;

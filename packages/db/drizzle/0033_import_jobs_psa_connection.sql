-- The PSA connection an import stream read (decision 042, "Work in flight"): its rows are saved, and the job resumed,
-- only while the MSP is still connected to it. Null on jobs of earlier releases (the PSA connected at the save is
-- taken). Additive only: servers of the previous release ignore the column (docs/operations.md §7).
ALTER TABLE "import_jobs" ADD COLUMN "psa_connection" text;

-- Each PSA write keeps the PSA connection it was stored for (decision 013): the same identity as
-- sync_runs.psa_connection (0028). A write stored for another connection than the MSP's current one is settled failed,
-- never sent. Additive only: servers of the previous release ignore the column, and the rows they store (null) are sent
-- as before (docs/operations.md §7).
ALTER TABLE "psa_outbox" ADD COLUMN "psa_connection" text;
-- An admin may discard a PSA write the PSA refused for good (review s29): the row stays failed and gets the time it was
-- discarded; it is never sent again and leaves the admin's list and the tickets' counts. Additive only: servers of the
-- previous release ignore the column and read a discarded row as failed, which they never send either
-- (docs/operations.md §7).
ALTER TABLE "psa_outbox" ADD COLUMN "discarded_at" timestamp with time zone;

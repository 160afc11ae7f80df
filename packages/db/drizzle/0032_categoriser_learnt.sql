-- Which closed ticket copies the MSP's categoriser has learnt (issue #9, review s27): each learning pass takes the closed
-- copies not learnt yet, whatever their close time, instead of those closed after the newest close it had seen (copies
-- arriving out of close-time order were skipped). Backfilled with what the stored model has seen: the closed copies up to
-- its trained_until. Additive only: servers of the previous release ignore the column (docs/operations.md §7).
ALTER TABLE "psa_tickets" ADD COLUMN "categoriser_learnt_at" timestamp with time zone;--> statement-breakpoint
UPDATE "psa_tickets" AS t SET "categoriser_learnt_at" = m."updated_at"
FROM "categoriser_models" AS m
WHERE m."msp_id" = t."msp_id" AND m."psa_type" = t."psa_type" AND t."is_closed"
  AND coalesce(t."psa_closed_at", t."synced_at") <= m."trained_until";--> statement-breakpoint
CREATE INDEX "psa_tickets_unlearnt_idx" ON "psa_tickets" USING btree ("msp_id","psa_type") WHERE "psa_tickets"."is_closed" and "psa_tickets"."categoriser_learnt_at" is null and "psa_tickets"."type_name" is not null and "psa_tickets"."subtype_name" is not null;

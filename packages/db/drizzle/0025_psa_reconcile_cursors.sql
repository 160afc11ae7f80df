-- The reconcile loop's cursor gets a row of its own per MSP (decision 016). It lived on psa_event_subscriptions, so
-- an MSP whose PSA refused the webhook had none (every pass read only the look-back), and a re-registration reset it.
CREATE TABLE "psa_reconcile_cursors" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"last_reconciled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "psa_reconcile_cursors" ADD CONSTRAINT "psa_reconcile_cursors_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The cursors the subscriptions held move over (hand-written), so no MSP's next pass falls back to the look-back.
INSERT INTO "psa_reconcile_cursors" ("msp_id", "last_reconciled_at") SELECT "msp_id", "last_reconciled_at" FROM "psa_event_subscriptions" WHERE "last_reconciled_at" IS NOT NULL;
-- psa_event_subscriptions.last_reconciled_at stays for this release: servers of the previous release still read and
-- write it during a rolling restart (expand, then contract: docs/operations.md §7). It is dropped one release later.
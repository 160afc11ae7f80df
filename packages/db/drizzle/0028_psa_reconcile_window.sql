-- The reconcile loop's cursor row also holds (decision 016): the window a pass cut by its request budget left
-- unfinished, so the next pass goes on after the last ticket id it read instead of reading the same first pages
-- again; the newest PSA change time that window has seen (the next cursor comes from the PSA's clock); and how far the
-- check for open copies deleted in the PSA has got. A sync run records the PSA connection it was started for.
-- Additive only: servers of the previous release ignore these columns (docs/operations.md §7).
ALTER TABLE "psa_reconcile_cursors" ADD COLUMN "window_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psa_reconcile_cursors" ADD COLUMN "window_after_id" integer;--> statement-breakpoint
ALTER TABLE "psa_reconcile_cursors" ADD COLUMN "window_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psa_reconcile_cursors" ADD COLUMN "window_last_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "psa_reconcile_cursors" ADD COLUMN "checked_after_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "psa_connection" text;
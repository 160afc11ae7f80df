-- Where the email connector starts reading a mailbox (review s29): the INBOX's UIDVALIDITY and UIDNEXT, and the time,
-- when it was connected, so the mail it already held is not turned into tickets. Additive only: nullable columns that
-- servers of the previous release ignore, and null on existing connectors (which read every unread mail, as before;
-- docs/operations.md §7).
ALTER TABLE "email_connectors" ADD COLUMN "read_from_uid_validity" bigint;--> statement-breakpoint
ALTER TABLE "email_connectors" ADD COLUMN "read_from_uid" bigint;--> statement-breakpoint
ALTER TABLE "email_connectors" ADD COLUMN "read_from_at" timestamp with time zone;
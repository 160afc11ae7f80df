-- An authenticator app being set up waits in its own column (review s27 #2): the enrolled secret keeps working until the
-- new one is confirmed with a code. Setups the previous release left unconfirmed ("pending:" + sealed secret in
-- totp_secret) move over. Additive only: servers of the previous release ignore the column (docs/operations.md §7).
ALTER TABLE "users" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
UPDATE "users" SET "totp_pending_secret" = substr("totp_secret", 9), "totp_secret" = NULL WHERE "totp_secret" LIKE 'pending:%';

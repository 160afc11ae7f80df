-- A skipped mail a person chose a company (and maybe a contact) for: "Make a ticket…" on the Recent mail list (decision 036).
-- The next reading files it there. Additive nullable columns: servers of the previous release neither read nor write them
-- (docs/operations.md §7).
ALTER TABLE "email_connector_messages" ADD COLUMN "file_psa_type" text;--> statement-breakpoint
ALTER TABLE "email_connector_messages" ADD COLUMN "file_company_id" text;--> statement-breakpoint
ALTER TABLE "email_connector_messages" ADD COLUMN "file_contact_id" text;
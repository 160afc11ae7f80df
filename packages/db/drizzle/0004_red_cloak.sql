-- Tenancy enforced by the database (issue #6 §3): every reference into a tenant table carries
-- msp_id in a composite foreign key. Rows that an older database may hold and that the new keys
-- would refuse are repaired first, so an existing data folder migrates instead of failing.

-- Users whose role was deleted get their MSP's built-in role for their kind (the least privilege
-- the product has). An MSP missing that built-in role gets it, with the permissions it ships with.
INSERT INTO "roles" ("msp_id", "name", "custom", "permissions")
SELECT DISTINCT u."msp_id", CASE u."kind" WHEN 'client' THEN 'Client' ELSE 'Technician' END, false,
  CASE u."kind"
    WHEN 'client' THEN '{"clientBilling":false,"mspBilling":false,"clientUserManagement":false,"technicianUserManagement":false,"clientIntegrations":false,"mspBranding":false,"mspIntegrations":false,"clientDocuments":true,"mspDocuments":false,"adminPortal":false,"boardView":false,"roleManagement":false}'::jsonb
    ELSE '{"clientBilling":false,"mspBilling":false,"clientUserManagement":false,"technicianUserManagement":false,"clientIntegrations":false,"mspBranding":false,"mspIntegrations":false,"clientDocuments":true,"mspDocuments":true,"adminPortal":false,"boardView":true,"roleManagement":false}'::jsonb
  END
FROM "users" u
WHERE NOT EXISTS (SELECT 1 FROM "roles" r WHERE r."msp_id" = u."msp_id" AND r."id" = u."role_id")
  AND NOT EXISTS (
    SELECT 1 FROM "roles" b
    WHERE b."msp_id" = u."msp_id" AND b."custom" = false AND b."name" = CASE u."kind" WHEN 'client' THEN 'Client' ELSE 'Technician' END
  )
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "users" u SET "role_id" = b."id"
FROM "roles" b
WHERE b."msp_id" = u."msp_id" AND b."custom" = false AND b."name" = CASE u."kind" WHEN 'client' THEN 'Client' ELSE 'Technician' END
  AND NOT EXISTS (SELECT 1 FROM "roles" r WHERE r."msp_id" = u."msp_id" AND r."id" = u."role_id");--> statement-breakpoint
-- A PSA row id that names no row of the same MSP is cleared; the PSA's own id stays beside it.
UPDATE "users" u SET "psa_member_row_id" = NULL
WHERE u."psa_member_row_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "psa_members" p WHERE p."msp_id" = u."msp_id" AND p."id" = u."psa_member_row_id");--> statement-breakpoint
UPDATE "users" u SET "psa_contact_row_id" = NULL
WHERE u."psa_contact_row_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "psa_contacts" p WHERE p."msp_id" = u."msp_id" AND p."id" = u."psa_contact_row_id");--> statement-breakpoint
UPDATE "users" u SET "company_row_id" = NULL
WHERE u."company_row_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "psa_companies" p WHERE p."msp_id" = u."msp_id" AND p."id" = u."company_row_id");--> statement-breakpoint
UPDATE "psa_contacts" c SET "company_row_id" = NULL
WHERE c."company_row_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "psa_companies" p WHERE p."msp_id" = c."msp_id" AND p."id" = c."company_row_id");--> statement-breakpoint
-- Sessions and one-time codes of users or accounts that no longer exist, or of no clear principal, cannot be used; they go.
DELETE FROM "sessions" s
WHERE NOT (
  (s."principal_kind" = 'user' AND s."msp_id" IS NOT NULL AND s."user_id" IS NOT NULL AND s."account_id" IS NULL
    AND EXISTS (SELECT 1 FROM "users" u WHERE u."msp_id" = s."msp_id" AND u."id" = s."user_id"))
  OR (s."principal_kind" = 'account' AND s."account_id" IS NOT NULL AND s."msp_id" IS NULL AND s."user_id" IS NULL
    AND EXISTS (SELECT 1 FROM "accounts" a WHERE a."id" = s."account_id"))
);--> statement-breakpoint
DELETE FROM "verification_codes" v
WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE u."msp_id" = v."msp_id" AND u."id" = v."user_id");--> statement-breakpoint
ALTER TABLE "verification_codes" DROP CONSTRAINT "verification_codes_pkey";--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_msp_id_id_pk" PRIMARY KEY("msp_id","id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_fk" FOREIGN KEY ("msp_id","role_id") REFERENCES "public"."roles"("msp_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- SET NULL with a column list (PostgreSQL 15+): only the row id is cleared, never msp_id.
-- drizzle-kit writes a plain "set null"; these lines are narrowed by hand (see schema/tenancy.ts).
ALTER TABLE "users" ADD CONSTRAINT "users_psa_member_fk" FOREIGN KEY ("msp_id","psa_member_row_id") REFERENCES "public"."psa_members"("msp_id","id") ON DELETE SET NULL ("psa_member_row_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_psa_contact_fk" FOREIGN KEY ("msp_id","psa_contact_row_id") REFERENCES "public"."psa_contacts"("msp_id","id") ON DELETE SET NULL ("psa_contact_row_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_fk" FOREIGN KEY ("msp_id","company_row_id") REFERENCES "public"."psa_companies"("msp_id","id") ON DELETE SET NULL ("company_row_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_contacts" ADD CONSTRAINT "psa_contacts_company_fk" FOREIGN KEY ("msp_id","company_row_id") REFERENCES "public"."psa_companies"("msp_id","id") ON DELETE SET NULL ("company_row_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("msp_id","role_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_principal_ck" CHECK (("sessions"."principal_kind" = 'user' and "sessions"."msp_id" is not null and "sessions"."user_id" is not null and "sessions"."account_id" is null) or ("sessions"."principal_kind" = 'account' and "sessions"."account_id" is not null and "sessions"."msp_id" is null and "sessions"."user_id" is null));

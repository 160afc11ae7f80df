DROP INDEX "psa_companies_name_idx";--> statement-breakpoint
DROP INDEX "psa_contacts_company_idx";--> statement-breakpoint
DROP INDEX "psa_contacts_name_idx";--> statement-breakpoint
CREATE INDEX "psa_companies_name_idx" ON "psa_companies" USING btree ("msp_id","psa_type","name","id");--> statement-breakpoint
CREATE INDEX "psa_contacts_company_idx" ON "psa_contacts" USING btree ("msp_id","external_company_id","is_active","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "psa_contacts_name_idx" ON "psa_contacts" USING btree ("msp_id","psa_type","is_active","last_name","first_name","id");
CREATE TABLE "contact_outbox" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"idempotency_key" text NOT NULL,
	"psa_type" text NOT NULL,
	"company_row_id" uuid NOT NULL,
	"external_company_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"external_contact_id" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_outbox_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "contact_outbox" ADD CONSTRAINT "contact_outbox_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_outbox" ADD CONSTRAINT "contact_outbox_company_fk" FOREIGN KEY ("msp_id","company_row_id") REFERENCES "public"."psa_companies"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_outbox_key_uq" ON "contact_outbox" USING btree ("msp_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "contact_outbox_due_idx" ON "contact_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "contact_outbox_company_idx" ON "contact_outbox" USING btree ("msp_id","external_company_id","status");--> statement-breakpoint
CREATE INDEX "psa_companies_name_idx" ON "psa_companies" USING btree ("msp_id","name");--> statement-breakpoint
CREATE INDEX "psa_contacts_company_idx" ON "psa_contacts" USING btree ("msp_id","external_company_id","is_active","last_name","first_name");--> statement-breakpoint
CREATE INDEX "psa_contacts_name_idx" ON "psa_contacts" USING btree ("msp_id","is_active","last_name","first_name");
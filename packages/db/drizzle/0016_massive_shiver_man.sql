CREATE TABLE "psa_ticket_embeddings" (
	"msp_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"embedding_model" text NOT NULL,
	"text_hash" text NOT NULL,
	"embedding" real[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_ticket_embeddings_msp_id_ticket_id_pk" PRIMARY KEY("msp_id","ticket_id")
);
--> statement-breakpoint
DROP INDEX "psa_companies_name_idx";--> statement-breakpoint
DROP INDEX "psa_contacts_company_idx";--> statement-breakpoint
DROP INDEX "psa_contacts_name_idx";--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "llm_providers" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "psa_ticket_embeddings" ADD CONSTRAINT "psa_ticket_embeddings_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_ticket_embeddings" ADD CONSTRAINT "psa_ticket_embeddings_ticket_fk" FOREIGN KEY ("msp_id","ticket_id") REFERENCES "public"."psa_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "psa_companies_name_idx" ON "psa_companies" USING btree ("msp_id","psa_type","name","id");--> statement-breakpoint
CREATE INDEX "psa_contacts_company_idx" ON "psa_contacts" USING btree ("msp_id","external_company_id","is_active","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "psa_contacts_name_idx" ON "psa_contacts" USING btree ("msp_id","psa_type","is_active","last_name","first_name","id");
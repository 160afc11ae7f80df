CREATE TABLE "email_connector_attachments" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"message_row_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"data" "bytea",
	"psa_attachment_external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_connector_attachments_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "email_connector_attachments" ADD CONSTRAINT "email_connector_attachments_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_connector_attachments" ADD CONSTRAINT "email_connector_attachments_message_fk" FOREIGN KEY ("msp_id","message_row_id") REFERENCES "public"."email_connector_messages"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_connector_attachments_message_idx" ON "email_connector_attachments" USING btree ("msp_id","message_row_id");
CREATE TABLE "email_connector_messages" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"psa_ticket_external_id" text,
	"psa_ticket_number" text,
	"received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_connector_messages_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "email_connectors" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"imap_host" text NOT NULL,
	"imap_port" integer NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"password_hint" text NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_connector_messages" ADD CONSTRAINT "email_connector_messages_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_connectors" ADD CONSTRAINT "email_connectors_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_connector_messages_message_uq" ON "email_connector_messages" USING btree ("msp_id","message_id");--> statement-breakpoint
CREATE INDEX "email_connector_messages_created_idx" ON "email_connector_messages" USING btree ("msp_id","created_at");
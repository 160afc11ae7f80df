CREATE TABLE "psa_event_subscriptions" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"psa_type" text NOT NULL,
	"webhook_id" integer NOT NULL,
	"route_token_hash" text NOT NULL,
	"secret_ciphertext" text,
	"events_received" integer DEFAULT 0 NOT NULL,
	"events_refused" integer DEFAULT 0 NOT NULL,
	"last_event_at" timestamp with time zone,
	"last_reconciled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_providers" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"base_url" text,
	"secret_ciphertext" text NOT NULL,
	"key_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "psa_event_subscriptions" ADD CONSTRAINT "psa_event_subscriptions_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_providers" ADD CONSTRAINT "llm_providers_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;
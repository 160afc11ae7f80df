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
ALTER TABLE "llm_providers" ADD CONSTRAINT "llm_providers_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;
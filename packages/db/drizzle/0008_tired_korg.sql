CREATE TABLE "psa_outbox" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"result" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "psa_outbox_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "psa_outbox" ADD CONSTRAINT "psa_outbox_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "psa_outbox_key_uq" ON "psa_outbox" USING btree ("msp_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "psa_outbox_due_idx" ON "psa_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "psa_outbox_target_idx" ON "psa_outbox" USING btree ("msp_id","target_type","target_id","status");
CREATE TABLE "diagnostic_question_lists" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"type_id" integer NOT NULL,
	"subtype_id" integer NOT NULL,
	"questions" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diagnostic_question_lists_msp_id_psa_type_type_id_subtype_id_pk" PRIMARY KEY("msp_id","psa_type","type_id","subtype_id")
);
--> statement-breakpoint
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
CREATE TABLE "sla_alert_mails" (
	"msp_id" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "sla_alert_mails_msp_id_alert_id_user_id_pk" PRIMARY KEY("msp_id","alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sla_alert_reads" (
	"msp_id" uuid NOT NULL,
	"alert_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sla_alert_reads_msp_id_alert_id_user_id_pk" PRIMARY KEY("msp_id","alert_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sla_alerts" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"tech_id" uuid NOT NULL,
	"threshold" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sla_alerts_msp_id_id_pk" PRIMARY KEY("msp_id","id"),
	CONSTRAINT "sla_alerts_threshold_ck" CHECK ("sla_alerts"."threshold" in (50, 75, 90, 100))
);
--> statement-breakpoint
CREATE TABLE "wizard_progress" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"completed_steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"board_id" integer,
	"board_name" text,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diagnostic_question_lists" ADD CONSTRAINT "diagnostic_question_lists_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_event_subscriptions" ADD CONSTRAINT "psa_event_subscriptions_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "llm_providers" ADD CONSTRAINT "llm_providers_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_mails" ADD CONSTRAINT "sla_alert_mails_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_mails" ADD CONSTRAINT "sla_alert_mails_alert_fk" FOREIGN KEY ("msp_id","alert_id") REFERENCES "public"."sla_alerts"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_mails" ADD CONSTRAINT "sla_alert_mails_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_reads" ADD CONSTRAINT "sla_alert_reads_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_reads" ADD CONSTRAINT "sla_alert_reads_alert_fk" FOREIGN KEY ("msp_id","alert_id") REFERENCES "public"."sla_alerts"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alert_reads" ADD CONSTRAINT "sla_alert_reads_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alerts" ADD CONSTRAINT "sla_alerts_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alerts" ADD CONSTRAINT "sla_alerts_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_alerts" ADD CONSTRAINT "sla_alerts_tech_fk" FOREIGN KEY ("msp_id","tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wizard_progress" ADD CONSTRAINT "wizard_progress_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sla_alert_mails_unsent_idx" ON "sla_alert_mails" USING btree ("msp_id") WHERE "sla_alert_mails"."sent_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sla_alerts_once_uq" ON "sla_alerts" USING btree ("msp_id","queue_ticket_id","tech_id","threshold");--> statement-breakpoint
CREATE INDEX "sla_alerts_tech_idx" ON "sla_alerts" USING btree ("msp_id","tech_id","created_at");--> statement-breakpoint
CREATE INDEX "psa_tickets_synced_idx" ON "psa_tickets" USING btree ("msp_id","synced_at");
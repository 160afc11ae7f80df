CREATE TABLE "queue_events" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"tech_id" uuid,
	"kind" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_events_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_notes" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"psa_ticket_id" integer NOT NULL,
	"kind" text NOT NULL,
	"note_type" integer,
	"info" text DEFAULT '' NOT NULL,
	"text" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"psa_note_id" integer,
	CONSTRAINT "queue_notes_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_rejections" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"tech_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "queue_rejections_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_settings" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"priority_weight" double precision NOT NULL,
	"subtype_weight" double precision NOT NULL,
	"sla_weight" double precision NOT NULL,
	"age_weight" double precision NOT NULL,
	"reject_cooldown_minutes" integer NOT NULL,
	"idle_release_minutes" integer NOT NULL,
	"release_on_sign_out" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_tickets" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"ticket_row_id" uuid NOT NULL,
	"psa_ticket_id" integer NOT NULL,
	"board_id" integer,
	"tier" text DEFAULT 'Tier1' NOT NULL,
	"tier_rank" smallint DEFAULT 1 NOT NULL,
	"is_tier_pinned" boolean DEFAULT false NOT NULL,
	"impact" text,
	"severity" text,
	"priority_score" integer DEFAULT 0 NOT NULL,
	"subtype_score" integer DEFAULT 0 NOT NULL,
	"sla_hours" integer,
	"sla_due_at" timestamp with time zone,
	"ticket_created_at" timestamp with time zone NOT NULL,
	"rank_key" double precision DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"hold_until" timestamp with time zone,
	"assigned_tech_id" uuid,
	"is_reserved" boolean DEFAULT false NOT NULL,
	"claimed_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_tickets_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "queue_timer_sessions" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"timer_id" uuid NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"tech_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"flag" text,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "queue_timer_sessions_msp_id_id_pk" PRIMARY KEY("msp_id","id"),
	CONSTRAINT "queue_timer_sessions_order_ck" CHECK ("queue_timer_sessions"."ended_at" is null or "queue_timer_sessions"."ended_at" >= "queue_timer_sessions"."started_at")
);
--> statement-breakpoint
CREATE TABLE "queue_timers" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"queue_ticket_id" uuid NOT NULL,
	"tech_id" uuid NOT NULL,
	"state" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"notes" text,
	"psa_time_entry_id" integer,
	CONSTRAINT "queue_timers_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "queue_events" ADD CONSTRAINT "queue_events_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_events" ADD CONSTRAINT "queue_events_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_events" ADD CONSTRAINT "queue_events_tech_fk" FOREIGN KEY ("msp_id","tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_notes" ADD CONSTRAINT "queue_notes_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_notes" ADD CONSTRAINT "queue_notes_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_notes" ADD CONSTRAINT "queue_notes_author_fk" FOREIGN KEY ("msp_id","created_by") REFERENCES "public"."users"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_rejections" ADD CONSTRAINT "queue_rejections_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_rejections" ADD CONSTRAINT "queue_rejections_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_rejections" ADD CONSTRAINT "queue_rejections_tech_fk" FOREIGN KEY ("msp_id","tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_settings" ADD CONSTRAINT "queue_settings_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD CONSTRAINT "queue_tickets_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD CONSTRAINT "queue_tickets_ticket_fk" FOREIGN KEY ("msp_id","ticket_row_id") REFERENCES "public"."psa_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_tickets" ADD CONSTRAINT "queue_tickets_tech_fk" FOREIGN KEY ("msp_id","assigned_tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timer_sessions" ADD CONSTRAINT "queue_timer_sessions_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timer_sessions" ADD CONSTRAINT "queue_timer_sessions_timer_fk" FOREIGN KEY ("msp_id","timer_id") REFERENCES "public"."queue_timers"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timer_sessions" ADD CONSTRAINT "queue_timer_sessions_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timer_sessions" ADD CONSTRAINT "queue_timer_sessions_tech_fk" FOREIGN KEY ("msp_id","tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timers" ADD CONSTRAINT "queue_timers_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timers" ADD CONSTRAINT "queue_timers_ticket_fk" FOREIGN KEY ("msp_id","queue_ticket_id") REFERENCES "public"."queue_tickets"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_timers" ADD CONSTRAINT "queue_timers_tech_fk" FOREIGN KEY ("msp_id","tech_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_events_at_idx" ON "queue_events" USING btree ("msp_id","at");--> statement-breakpoint
CREATE INDEX "queue_events_ticket_idx" ON "queue_events" USING btree ("msp_id","queue_ticket_id");--> statement-breakpoint
CREATE INDEX "queue_notes_ticket_idx" ON "queue_notes" USING btree ("msp_id","queue_ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "queue_rejections_ticket_idx" ON "queue_rejections" USING btree ("msp_id","queue_ticket_id","tech_id","until");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_tickets_ticket_uq" ON "queue_tickets" USING btree ("msp_id","ticket_row_id");--> statement-breakpoint
CREATE INDEX "queue_tickets_psa_id_idx" ON "queue_tickets" USING btree ("msp_id","psa_ticket_id");--> statement-breakpoint
CREATE INDEX "queue_tickets_next_idx" ON "queue_tickets" USING btree ("msp_id","tier_rank","rank_key") WHERE "queue_tickets"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "queue_tickets_tech_idx" ON "queue_tickets" USING btree ("msp_id","assigned_tech_id","state");--> statement-breakpoint
CREATE INDEX "queue_tickets_created_idx" ON "queue_tickets" USING btree ("msp_id","ticket_created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_timer_sessions_running_uq" ON "queue_timer_sessions" USING btree ("msp_id","tech_id") WHERE "queue_timer_sessions"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "queue_timer_sessions_ticket_idx" ON "queue_timer_sessions" USING btree ("msp_id","queue_ticket_id","tech_id");--> statement-breakpoint
CREATE INDEX "queue_timer_sessions_started_idx" ON "queue_timer_sessions" USING btree ("msp_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_timers_open_uq" ON "queue_timers" USING btree ("msp_id","queue_ticket_id","tech_id") WHERE "queue_timers"."state" <> 'completed';--> statement-breakpoint
CREATE INDEX "queue_timers_tech_idx" ON "queue_timers" USING btree ("msp_id","tech_id","state");
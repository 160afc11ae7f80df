CREATE TABLE "import_jobs" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'STREAMING' NOT NULL,
	"fetched" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"saved" integer DEFAULT 0 NOT NULL,
	"last_external_id" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_jobs_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"psa_type" text NOT NULL,
	"board_ids" jsonb NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text NOT NULL,
	"requested_by" uuid,
	"phase1_status" text DEFAULT 'QUEUED' NOT NULL,
	"phase1_processed" integer DEFAULT 0 NOT NULL,
	"phase1_error" text,
	"phase1_started_at" timestamp with time zone,
	"phase1_finished_at" timestamp with time zone,
	"phase2_status" text,
	"phase2_processed" integer DEFAULT 0 NOT NULL,
	"phase2_error" text,
	"phase2_started_at" timestamp with time zone,
	"phase2_finished_at" timestamp with time zone,
	"reference_names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_ticket_id" integer DEFAULT 0 NOT NULL,
	"psa_requests" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_runs_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_runs_open_idx" ON "sync_runs" USING btree ("phase1_status","phase2_status");--> statement-breakpoint
CREATE INDEX "psa_companies_name_idx" ON "psa_companies" USING btree ("msp_id","name");--> statement-breakpoint
CREATE INDEX "psa_contacts_company_idx" ON "psa_contacts" USING btree ("msp_id","external_company_id","is_active","last_name","first_name");--> statement-breakpoint
CREATE INDEX "psa_contacts_name_idx" ON "psa_contacts" USING btree ("msp_id","is_active","last_name","first_name");
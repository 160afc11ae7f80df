CREATE TABLE "board_configs" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"board_id" integer NOT NULL,
	"board_name" text NOT NULL,
	"new_status_id" integer,
	"new_status_name" text,
	"closing_status_id" integer,
	"closing_status_name" text,
	"ticket_type_id" integer,
	"ticket_type_label" text,
	"ticket_category_value" integer,
	"ticket_category_label" text,
	"source_value" integer,
	"source_label" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_configs_msp_id_psa_type_board_id_pk" PRIMARY KEY("msp_id","psa_type","board_id")
);
--> statement-breakpoint
CREATE TABLE "board_priorities" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"board_id" integer NOT NULL,
	"priority_id" integer NOT NULL,
	"priority_name" text NOT NULL,
	"priority_score" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "board_priorities_msp_id_psa_type_board_id_priority_id_pk" PRIMARY KEY("msp_id","psa_type","board_id","priority_id")
);
--> statement-breakpoint
CREATE TABLE "board_subtypes" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"board_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"subtype_id" integer NOT NULL,
	"subtype_name" text NOT NULL,
	"priority_id" integer,
	"priority_name" text,
	"priority_score" integer DEFAULT 0 NOT NULL,
	"subtype_score" integer DEFAULT 0 NOT NULL,
	"tier" text DEFAULT 'Tier1' NOT NULL,
	"sla_hours" integer DEFAULT 1 NOT NULL,
	"type_association_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "board_subtypes_msp_id_psa_type_board_id_type_id_subtype_id_pk" PRIMARY KEY("msp_id","psa_type","board_id","type_id","subtype_id")
);
--> statement-breakpoint
CREATE TABLE "board_types" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"board_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"type_name" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "board_types_msp_id_psa_type_board_id_type_id_pk" PRIMARY KEY("msp_id","psa_type","board_id","type_id")
);
--> statement-breakpoint
CREATE TABLE "psa_ticketing_configs" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"default_company_id" integer,
	"default_company_name" text,
	"board_ticket_sync" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sync_clients_type_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_ticketing_configs_msp_id_psa_type_pk" PRIMARY KEY("msp_id","psa_type")
);
--> statement-breakpoint
CREATE TABLE "psa_tickets" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"psa_type" text NOT NULL,
	"external_id" text NOT NULL,
	"ticket_number" text,
	"summary" text NOT NULL,
	"description" text,
	"board_external_id" text,
	"board_name" text,
	"type_external_id" text,
	"type_name" text,
	"subtype_external_id" text,
	"subtype_name" text,
	"item_external_id" text,
	"item_name" text,
	"priority_external_id" text,
	"priority_name" text,
	"status_external_id" text,
	"status_name" text,
	"company_external_id" text,
	"company_name" text,
	"contact_external_id" text,
	"contact_name" text,
	"owner_external_id" text,
	"owner_name" text,
	"is_closed" boolean DEFAULT false NOT NULL,
	"resolution" text,
	"time_spent_minutes" integer,
	"psa_created_at" timestamp with time zone,
	"psa_updated_at" timestamp with time zone,
	"psa_closed_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_tickets_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "board_configs" ADD CONSTRAINT "board_configs_config_fk" FOREIGN KEY ("msp_id","psa_type") REFERENCES "public"."psa_ticketing_configs"("msp_id","psa_type") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_priorities" ADD CONSTRAINT "board_priorities_board_fk" FOREIGN KEY ("msp_id","psa_type","board_id") REFERENCES "public"."board_configs"("msp_id","psa_type","board_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_subtypes" ADD CONSTRAINT "board_subtypes_type_fk" FOREIGN KEY ("msp_id","psa_type","board_id","type_id") REFERENCES "public"."board_types"("msp_id","psa_type","board_id","type_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_types" ADD CONSTRAINT "board_types_board_fk" FOREIGN KEY ("msp_id","psa_type","board_id") REFERENCES "public"."board_configs"("msp_id","psa_type","board_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_ticketing_configs" ADD CONSTRAINT "psa_ticketing_configs_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_tickets" ADD CONSTRAINT "psa_tickets_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "psa_tickets_ext_uq" ON "psa_tickets" USING btree ("msp_id","psa_type","external_id");--> statement-breakpoint
CREATE INDEX "psa_tickets_board_idx" ON "psa_tickets" USING btree ("msp_id","psa_type","board_external_id","is_closed");
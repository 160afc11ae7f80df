CREATE TABLE "diagnostic_question_lists" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"type_id" integer NOT NULL,
	"subtype_id" integer NOT NULL,
	"questions" jsonb NOT NULL,
	"updated_by_user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diagnostic_question_lists_msp_id_psa_type_type_id_subtype_id_pk" PRIMARY KEY("msp_id","psa_type","type_id","subtype_id")
);
--> statement-breakpoint
ALTER TABLE "diagnostic_question_lists" ADD CONSTRAINT "diagnostic_question_lists_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "agents" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"agent_name" text NOT NULL,
	"role" text NOT NULL,
	"description" text NOT NULL,
	"objectives" jsonb NOT NULL,
	"default_prompt" text,
	"example_prompts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"previous_agent_id" uuid,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "agents_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "categoriser_models" (
	"msp_id" uuid NOT NULL,
	"psa_type" text NOT NULL,
	"model" jsonb NOT NULL,
	"trained_on" integer NOT NULL,
	"trained_until" timestamp with time zone,
	"macro_f1" real,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categoriser_models_msp_id_psa_type_pk" PRIMARY KEY("msp_id","psa_type")
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"type" text DEFAULT 'markdown' NOT NULL,
	"interactive_elements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"engine" text,
	"feedback" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"agent_id" uuid,
	"conversation_name" text NOT NULL,
	"custom_prompt" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "ticket_drafts" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"user_message" text NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"proposal" jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"did_not_help_count" integer DEFAULT 0 NOT NULL,
	"ticket_request_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_drafts_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "ticket_requests" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"created_by_kind" text NOT NULL,
	"psa_type" text NOT NULL,
	"title" text NOT NULL,
	"company_external_id" text NOT NULL,
	"contact_external_id" text,
	"board_external_id" text NOT NULL,
	"draft" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"psa_ticket_external_id" text,
	"psa_ticket_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_requests_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"heading" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"company_external_id" text,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(heading, '') || ' ' || content)) STORED NOT NULL,
	CONSTRAINT "knowledge_chunks_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "knowledge_documents" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_name" text,
	"content_type" text,
	"size_bytes" integer DEFAULT 0 NOT NULL,
	"upload_name" text,
	"source_ref" text,
	"type_name" text,
	"sub_type_name" text,
	"company_external_id" text,
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_documents_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_owner_fk" FOREIGN KEY ("msp_id","owner_user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_previous_fk" FOREIGN KEY ("msp_id","previous_agent_id") REFERENCES "public"."agents"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categoriser_models" ADD CONSTRAINT "categoriser_models_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_conversation_fk" FOREIGN KEY ("msp_id","conversation_id") REFERENCES "public"."conversations"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_agent_fk" FOREIGN KEY ("msp_id","agent_id") REFERENCES "public"."agents"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_drafts" ADD CONSTRAINT "ticket_drafts_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_drafts" ADD CONSTRAINT "ticket_drafts_user_fk" FOREIGN KEY ("msp_id","user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_drafts" ADD CONSTRAINT "ticket_drafts_conversation_fk" FOREIGN KEY ("msp_id","conversation_id") REFERENCES "public"."conversations"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_drafts" ADD CONSTRAINT "ticket_drafts_request_fk" FOREIGN KEY ("msp_id","ticket_request_id") REFERENCES "public"."ticket_requests"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_requests" ADD CONSTRAINT "ticket_requests_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_requests" ADD CONSTRAINT "ticket_requests_user_fk" FOREIGN KEY ("msp_id","created_by_user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_document_fk" FOREIGN KEY ("msp_id","document_id") REFERENCES "public"."knowledge_documents"("msp_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_uploader_fk" FOREIGN KEY ("msp_id","uploaded_by_user_id") REFERENCES "public"."users"("msp_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_owner_idx" ON "agents" USING btree ("msp_id","owner_user_id","is_deleted");--> statement-breakpoint
CREATE INDEX "chat_messages_conversation_idx" ON "chat_messages" USING btree ("msp_id","conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_user_agent_idx" ON "conversations" USING btree ("msp_id","user_id","agent_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_requests_user_idx" ON "ticket_requests" USING btree ("msp_id","created_by_user_id","created_at");--> statement-breakpoint
CREATE INDEX "ticket_requests_company_idx" ON "ticket_requests" USING btree ("msp_id","company_external_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_document_idx" ON "knowledge_chunks" USING btree ("msp_id","document_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin ("search");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_trgm_idx" ON "knowledge_chunks" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_documents_source_uq" ON "knowledge_documents" USING btree ("msp_id","source_ref");--> statement-breakpoint
CREATE INDEX "knowledge_documents_company_idx" ON "knowledge_documents" USING btree ("msp_id","company_external_id");
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"company_id" text,
	"company_name" text,
	"company_address" jsonb,
	"password_hash" text,
	"provider" text,
	"provider_subject" text,
	"failed_sign_ins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"custom_domain" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"website_url" text NOT NULL,
	"logo_path" text,
	"logo_mime" text,
	"primary_colour" text DEFAULT '#e03131' NOT NULL,
	"primary_button_colour" text DEFAULT '#e03131' NOT NULL,
	"secondary_button_colour" text DEFAULT '#e03131' NOT NULL,
	"bootstrap_token_hash" text,
	"bootstrap_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "msps_custom_domain_unique" UNIQUE("custom_domain")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"custom" boolean DEFAULT true NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"role_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"password_hash" text,
	"tier_level" text,
	"psa_member_id" text,
	"psa_member_row_id" uuid,
	"psa_contact_id" text,
	"psa_contact_row_id" uuid,
	"psa_company_id" text,
	"company_row_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"totp_secret" text,
	"failed_sign_ins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msp_id" uuid,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"target" text,
	"outcome" text NOT NULL,
	"ip" text,
	"request_id" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox_mail" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"msp_id" uuid,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"transport" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"principal_kind" text NOT NULL,
	"msp_id" uuid,
	"user_id" uuid,
	"account_id" uuid,
	"auth_method" text DEFAULT 'password' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"msp_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"msp_id" uuid PRIMARY KEY NOT NULL,
	"psa_type" text NOT NULL,
	"settings" jsonb NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"key_hint" text NOT NULL,
	"connect_wise_manage_integrator" boolean DEFAULT false NOT NULL,
	"microsoft_graph_integrator" boolean DEFAULT false NOT NULL,
	"email_integrator" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psa_companies" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"psa_type" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"identifier" text,
	"company_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phone" text,
	"website" text,
	"city" text,
	"state" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_companies_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "psa_contacts" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"psa_type" text NOT NULL,
	"external_id" text NOT NULL,
	"external_company_id" text NOT NULL,
	"company_row_id" uuid,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"title" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_contacts_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
CREATE TABLE "psa_members" (
	"msp_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"psa_type" text NOT NULL,
	"external_id" text NOT NULL,
	"identifier" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"title" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psa_members_msp_id_id_pk" PRIMARY KEY("msp_id","id")
);
--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_companies" ADD CONSTRAINT "psa_companies_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_contacts" ADD CONSTRAINT "psa_contacts_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psa_members" ADD CONSTRAINT "psa_members_msp_id_msps_id_fk" FOREIGN KEY ("msp_id") REFERENCES "public"."msps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_kind_email_uq" ON "accounts" USING btree ("kind",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "roles_msp_name_uq" ON "roles" USING btree ("msp_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_msp_kind_email_uq" ON "users" USING btree ("msp_id","kind",lower("email"));--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "audit_events_msp_idx" ON "audit_events" USING btree ("msp_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_mail_to_idx" ON "outbox_mail" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("msp_id","user_id");--> statement-breakpoint
CREATE INDEX "verification_codes_user_idx" ON "verification_codes" USING btree ("msp_id","user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "psa_companies_ext_uq" ON "psa_companies" USING btree ("msp_id","psa_type","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "psa_contacts_ext_uq" ON "psa_contacts" USING btree ("msp_id","psa_type","external_id");--> statement-breakpoint
CREATE INDEX "psa_contacts_email_idx" ON "psa_contacts" USING btree ("msp_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "psa_members_ext_uq" ON "psa_members" USING btree ("msp_id","psa_type","external_id");--> statement-breakpoint
CREATE INDEX "psa_members_email_idx" ON "psa_members" USING btree ("msp_id","email");
-- Admin lists at scale (issue #8): the contacts search ("%text%" on first name, last name and e-mail,
-- or "text%" for one or two letters) is answered from one GIN index that also holds the tenant and the
-- Active flag, so a search never reads another MSP's rows or the whole table.
-- btree_gin puts msp_id (uuid) and is_active (boolean) into the GIN index beside the trigrams; both
-- are trusted extensions (PostgreSQL 13+), loaded into PGlite by openDatabase().
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "psa_contacts_search_trgm_idx" ON "psa_contacts" USING gin ("msp_id", "is_active", "first_name" gin_trgm_ops, "last_name" gin_trgm_ops, "email" gin_trgm_ops);

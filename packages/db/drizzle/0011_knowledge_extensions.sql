-- Jarvis retrieval (issue #9): trigram similarity over knowledge passages and past resolutions.
-- pg_trgm is a trusted extension (PostgreSQL 13+), loaded into PGlite by openDatabase().
CREATE EXTENSION IF NOT EXISTS pg_trgm;

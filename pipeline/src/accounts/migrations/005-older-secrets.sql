-- Issue 37: a second secret rotation inside the grace dropped the original secret early (previous_secret holds one).
-- The webhook secrets rotated out before the previous one, each until the end of its own grace:
-- [{"secret": "whsec_…", "expires_at": "<ISO time>"}, …]; deliveries are signed with every one not yet expired.
ALTER TABLE channels ADD COLUMN older_secrets JSONB NOT NULL DEFAULT '[]'::jsonb

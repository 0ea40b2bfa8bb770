-- Limits counted atomically (issue 37: concurrent guesses all passed a limit read before any failure was written):
-- one row per limited thing (a guessing network, a code, an account), incremented and read in one statement
-- (limit-counters.ts). A code belongs to the network that asked for it (`requested_by`; null when the address could
-- not tell one client from another); a sign-in mail past the day's codes carries only the link (`code_hash` null).
CREATE TABLE limit_counters (
  key TEXT PRIMARY KEY,
  resets_at TIMESTAMPTZ NOT NULL,
  n INTEGER NOT NULL
);
CREATE INDEX limit_counters_resets ON limit_counters (resets_at);
ALTER TABLE verifications ADD COLUMN requested_by TEXT;
ALTER TABLE verifications ALTER COLUMN code_hash DROP NOT NULL;
ALTER TABLE verifications DROP COLUMN attempts;
DROP TABLE sign_in_failures;

-- Abuse limits (issue 24): email channels to an address other than the account's own wait for that address to
-- confirm; wrong sign-in codes are counted per requester; deliveries are rate-limited per target.
CREATE TABLE email_confirmations (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  address TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  sent_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  confirmed_at TIMESTAMPTZ,
  PRIMARY KEY (account_id, address)
);
CREATE TABLE sign_in_failures (
  id BIGSERIAL PRIMARY KEY,
  verification_id TEXT REFERENCES verifications(id) ON DELETE CASCADE,
  requester TEXT NOT NULL,
  at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sign_in_failures_requester ON sign_in_failures (requester, at);
CREATE INDEX sign_in_failures_verification ON sign_in_failures (verification_id, requester);
CREATE TABLE target_windows (
  target TEXT PRIMARY KEY,
  window_start TIMESTAMPTZ NOT NULL,
  sent INTEGER NOT NULL
);
-- Email channels saved before confirmation existed, to another address: pending until it confirms, their queue held.
UPDATE channels c SET status = 'pending'
FROM rules r, accounts a
WHERE c.rule_id = r.id AND a.id = r.account_id AND c.kind = 'email' AND lower(c.target) <> a.email;
UPDATE deliveries d SET status = 'held'
FROM channels c
WHERE c.id = d.channel_id AND c.status = 'pending' AND d.status = 'pending';

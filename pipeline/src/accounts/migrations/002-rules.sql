-- Alert rules, their delivery channels (webhook, Slack, Discord, Teams, email), deliveries and every attempt.
CREATE TABLE rules (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  scope_kind TEXT NOT NULL,
  scope_value TEXT NOT NULL,
  scope_state TEXT,
  kinds TEXT[] NOT NULL,
  min_customers INTEGER NOT NULL,
  min_pct DOUBLE PRECISION,
  quiet_start TEXT,
  quiet_end TEXT,
  quiet_tz TEXT,
  watched TEXT[] NOT NULL,
  sync_interval_min INTEGER,
  next_sync_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX rules_account ON rules (account_id);
CREATE TABLE channels (
  id TEXT PRIMARY KEY,
  rule_id TEXT NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  secret TEXT,
  previous_secret TEXT,
  previous_secret_expires_at TIMESTAMPTZ,
  status TEXT NOT NULL DEFAULT 'active',
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  first_failure_at TIMESTAMPTZ,
  disabled_at TIMESTAMPTZ,
  disabled_reason TEXT
);
CREATE INDEX channels_rule ON channels (rule_id);
CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  event_id BIGINT,
  dedupe_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  lease_until TIMESTAMPTZ,
  delivered_at TIMESTAMPTZ,
  UNIQUE (channel_id, dedupe_key)
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
CREATE TABLE delivery_attempts (
  id BIGSERIAL PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  at TIMESTAMPTZ NOT NULL,
  outcome TEXT NOT NULL,
  status_code INTEGER,
  latency_ms INTEGER NOT NULL,
  error TEXT
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id);
-- The last pipeline event id turned into deliveries (enqueueing is idempotent, so a crash only repeats work).
CREATE TABLE delivery_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), last_event_id BIGINT NOT NULL);

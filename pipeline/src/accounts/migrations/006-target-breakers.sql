-- Issue 37 part 3: one account's never-answering URLs took every sending slot. Each channel's target key (its URL, or
-- `email:` and the address without case) is kept beside it, so the lease, the per-minute limit and the coalescing
-- read one definition; a target's circuit breaker (delivery-breaker.ts) counts its failed attempts in a row and holds
-- it paused until `paused_until` (`openings`: pauses since its last success, which lengthen the next one). A target
-- with no failures since its last success has no row.
ALTER TABLE channels ADD COLUMN target_key TEXT GENERATED ALWAYS AS (CASE WHEN kind = 'email' THEN 'email:' || lower(target) ELSE target END) STORED;
CREATE INDEX channels_target_key ON channels (target_key);
CREATE TABLE target_breakers (
  target TEXT PRIMARY KEY,
  consecutive_failures INTEGER NOT NULL,
  openings INTEGER NOT NULL DEFAULT 0,
  paused_until TIMESTAMPTZ,
  paused_reason TEXT
);
-- what is in flight (leased, not yet answered) is counted per target and per account at every lease
CREATE INDEX deliveries_leased ON deliveries (lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL

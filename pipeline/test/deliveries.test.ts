// Delivery: signatures checked by an independent implementation (openssl), at-least-once delivery with retries to
// an idempotent receiver, timeouts, restarts, SSRF refusals after DNS and on redirects, chat and email formats, and
// disabling after sustained failure. Real HTTP and SMTP on loopback; the account database as in accounts.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import type dns from 'node:dns';
import { DeliveryEngine } from '../src/accounts/deliver.ts';
import { AccountService } from '../src/accounts/service.ts';
import type { Account } from '../src/accounts/account-types.ts';
import { smtpMailer } from '../src/accounts/mailer.ts';
import { signatureHeader, verifySignature } from '../src/accounts/signing.ts';
import { manualClock } from '../src/clock.ts';
import type { PublicEvent } from '../src/contract/events.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { receiver, smtpSink, testDb, countyEvent } from './accounts-support.ts';
import { INCIDENT_DELIVERIES_PER_CYCLE } from '../src/accounts/delivery-policy.ts';

let sql: Sql;
let drop: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
const clock = manualClock(new Date('2026-09-01T08:00:00Z'));
const safety = { allowLoopback: true };
let svc: AccountService;
let account: Account;
let eventId = 0;
const engines: DeliveryEngine[] = [];

beforeAll(async () => {
  ({ sql, drop } = await testDb());
  smtp = await smtpSink();
  svc = new AccountService({
    sql,
    mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
    baseUrl: 'https://outage.test',
    clock,
    safety,
  });
  const now = clock();
  await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
    'acct_test',
    'owner@example.org',
    now,
  ]);
  account = {
    id: 'acct_test',
    email: 'owner@example.org',
    created_at: now.toISOString(),
    verified_at: now.toISOString(),
  };
});
afterEach(async () => {
  await sql.query('DELETE FROM rules');
  while (engines.length) await engines.pop()!.close();
});
afterAll(async () => {
  await smtp?.close();
  await drop?.();
});

function engine(over: Partial<ConstructorParameters<typeof DeliveryEngine>[0]> = {}): DeliveryEngine {
  const e = new DeliveryEngine({
    sql,
    mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
    baseUrl: 'https://outage.test',
    clock,
    safety,
    jitter: 0,
    retrySchedule: [30, 120, 600],
    timeoutMs: 2_000,
    ...over,
  });
  engines.push(e);
  return e;
}

function event(over: Partial<PublicEvent> = {}): PublicEvent {
  eventId += 1;
  return countyEvent(eventId, clock().toISOString(), over);
}

async function rule(channels: unknown[], over: Record<string, unknown> = {}) {
  return svc.createRule(account, { name: 'Miami-Dade', scope: { kind: 'county', fips: '12086' }, channels, ...over });
}

describe('signatures', () => {
  it('match an independent HMAC-SHA256 (openssl) over "<t>.<raw body>", with both secrets during a rotation', () => {
    const body = JSON.stringify({ id: 'dlv_1', type: 'event.outage_began', data: { note: 'ünïcode ✓' } });
    const t = 1_788_000_000;
    const header = signatureHeader(['whsec_new', 'whsec_old'], t, body);
    const openssl = (secret: string) =>
      execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-hex'], {
        input: Buffer.from(`${t}.${body}`, 'utf8'),
      })
        .toString()
        .trim()
        .split('= ')[1];
    expect(header).toBe(`t=${t},v1=${openssl('whsec_new')},v1=${openssl('whsec_old')}`);
    expect(verifySignature(header, body, ['whsec_old'], t + 10)).toBe(true);
    expect(verifySignature(header, body, ['whsec_other'], t + 10)).toBe(false);
    expect(verifySignature(header, `${body} `, ['whsec_new'], t + 10)).toBe(false);
    expect(verifySignature(header, body, ['whsec_new'], t + 301)).toBe(false); // outside the tolerance: a replay
    expect(verifySignature(null, body, ['whsec_new'], t)).toBe(false);
  });
});

describe('delivery', () => {
  it('retries a receiver that is down and delivers exactly once to an idempotent receiver; never re-sends after a 2xx', async () => {
    const processed = new Set<string>();
    const r = await receiver((hit, n) => {
      if (n <= 2) return { status: 503 };
      processed.add(String(hit.headers['service-event-id']));
      return { status: 200 };
    });
    try {
      const created = await rule([{ type: 'webhook', url: r.url }]);
      const secret = created.channel_status[0].signing_secret!;
      const e = engine();
      const ev = event();
      expect(await e.ingest([ev])).toBe(1);
      expect(await e.ingest([ev])).toBe(0); // the same event again: nothing new
      expect((await e.runDue()).retrying).toBe(1);
      expect((await e.runDue()).attempted).toBe(0); // not due yet
      clock.advance(30_000);
      expect((await e.runDue()).retrying).toBe(1);
      clock.advance(120_000);
      expect((await e.runDue()).delivered).toBe(1);
      clock.advance(3_600_000);
      expect((await e.runDue()).attempted).toBe(0);
      expect(r.hits).toHaveLength(3);
      expect(processed.size).toBe(1);
      // the same delivery id and event id on every attempt; each attempt signed with the channel secret
      expect(new Set(r.hits.map((h) => h.headers['service-delivery-id'])).size).toBe(1);
      for (const h of r.hits)
        expect(
          verifySignature(
            h.headers['service-signature'] as string,
            h.body,
            [secret],
            Math.floor(clock().getTime() / 1000) - 3600,
          ),
        ).toBe(true);
      expect(JSON.parse(r.hits[0].body)).toMatchObject({
        type: 'event.outage_began',
        rule: { name: 'Miami-Dade' },
        data: { id: eventId, fips: '12086' },
      });
      const log = await svc.deliveries(account, created.id, undefined);
      expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3 });
      expect(
        log[0].attempt_log.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code]),
      ).toEqual([
        ['http_error', 503],
        ['http_error', 503],
        ['delivered', 200],
      ]);
      expect(log[0].attempt_log.every((a: { latency_ms: number }) => a.latency_ms >= 0)).toBe(true);
      // the log of finished deliveries is kept 30 days
      expect(await e.prune()).toBe(0);
      clock.advance(31 * 86_400_000);
      expect(await e.prune()).toBe(1);
      expect(await svc.deliveries(account, created.id, undefined)).toEqual([]);
    } finally {
      await r.close();
    }
  });

  it('times out a slow receiver and retries', async () => {
    const r = await receiver((_, n) => ({ status: 200, delayMs: n === 1 ? 1_500 : 0 }));
    try {
      await rule([{ type: 'webhook', url: r.url }]);
      const e = engine({ timeoutMs: 300 });
      await e.ingest([event()]);
      expect(await e.runDue()).toMatchObject({ attempted: 1, retrying: 1 });
      clock.advance(30_000);
      expect(await e.runDue()).toMatchObject({ attempted: 1, delivered: 1 });
      const [attempt] = await sql.query<{ outcome: string; error: string }>(
        "SELECT outcome, error FROM delivery_attempts WHERE outcome = 'timeout'",
      );
      expect(attempt.error).toMatch(/no answer within 300 ms/);
    } finally {
      await r.close();
    }
  });

  it('loses nothing on a restart mid-delivery and sends again only what was not acknowledged', async () => {
    const r = await receiver();
    try {
      await rule([{ type: 'webhook', url: r.url }]);
      const a = engine();
      await a.ingest([event(), event()]);
      // engine A leases one delivery and "crashes" before sending it
      await sql.query(
        `UPDATE deliveries SET lease_until = $1 WHERE id = (SELECT id FROM deliveries WHERE status = 'pending' ORDER BY id LIMIT 1)`,
        [new Date(clock().getTime() + 60_000)],
      );
      const b = engine();
      expect((await b.runDue()).delivered).toBe(1); // the other one
      clock.advance(61_000); // the lease of the crashed worker runs out
      expect((await b.runDue()).delivered).toBe(1);
      const c = engine();
      clock.advance(3_600_000);
      expect((await c.runDue()).attempted).toBe(0);
      expect(r.hits.length).toBe(2);
    } finally {
      await r.close();
    }
  });

  it('refuses private addresses after DNS resolution, on redirects, and at save time', async () => {
    const r = await receiver((_, n) =>
      n === 1 ? { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } } : { status: 200 },
    );
    try {
      // a public-looking name whose DNS answer is private
      const resolver = ((host: string, _opts: unknown, cb: (e: Error | null, a: dns.LookupAddress[]) => void) =>
        cb(null, [
          { address: host === 'evil.example.com' ? '10.0.0.7' : '127.0.0.1', family: 4 },
        ])) as unknown as typeof dns.lookup;
      const e = engine({ resolver });
      await rule([
        { type: 'webhook', url: `http://evil.example.com:${r.port}/hook` },
        { type: 'webhook', url: r.url },
      ]);
      await e.ingest([event()]);
      await e.runDue();
      const outcomes = await sql.query<{ outcome: string; error: string }>(
        'SELECT outcome, error FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id ORDER BY a.id DESC LIMIT 2',
      );
      expect(outcomes.map((o) => o.outcome)).toEqual(['blocked', 'blocked']);
      expect(outcomes.map((o) => o.error).join(' ')).toMatch(/10\.0\.0\.7 is a private/);
      expect(outcomes.map((o) => o.error).join(' ')).toMatch(/169\.254\.169\.254 is a private, link-local/);
      expect(r.hits.length).toBe(1); // only the redirecting hop was reached; the metadata address never was
      // at save time, without the loopback allowance (production): private IPs, loopback names, plain http
      const strict = new AccountService({
        sql,
        mailer: smtpMailer(smtp.url, 'x@outage.test'),
        baseUrl: 'https://outage.test',
        clock,
        safety: { allowLoopback: false },
      });
      for (const url of [
        'https://192.168.1.10/x',
        'https://[::1]/x',
        'https://[::ffff:10.0.0.1]/x',
        'https://127.0.0.1/x',
        'http://hooks.example.com/x',
        'https://metadata.google.internal/x',
      ]) {
        await expect(
          strict.createRule(account, {
            name: 'x',
            scope: { kind: 'county', fips: '12086' },
            channels: [{ type: 'webhook', url }],
          }),
          url,
        ).rejects.toMatchObject({ body: { code: 'unsafe_url' } });
      }
    } finally {
      await r.close();
    }
  });

  it('speaks Slack, Discord and Teams incoming-webhook formats, and sends email over SMTP', async () => {
    const r = await receiver();
    try {
      await rule([
        { type: 'slack', url: `${r.url}/slack` },
        { type: 'discord', url: `${r.url}/discord` },
        { type: 'teams', url: `${r.url}/teams` },
        { type: 'email', to: 'Owner@example.org' }, // the account's own address: active at once
      ]);
      const e = engine();
      await e.ingest([event({ kind: 'etr_changed', etr: '2026-09-01T18:00:00Z' })]);
      expect((await e.runDue()).delivered).toBe(4);
      const bodies = r.hits.map((h) => JSON.parse(h.body));
      expect(bodies.find((b) => b.blocks)).toMatchObject({
        text: expect.stringContaining('Miami-Dade'),
        blocks: [{ type: 'section' }],
      });
      expect(bodies.find((b) => b.embeds)).toMatchObject({
        content: expect.any(String),
        embeds: [{ url: 'https://outage.test/api/v1/live/counties/12086' }],
      });
      expect(bodies.find((b) => b['@type'] === 'MessageCard')).toMatchObject({
        summary: expect.any(String),
        potentialAction: [{ '@type': 'OpenUri' }],
      });
      expect(r.hits.every((h) => !h.headers['service-signature'])).toBe(true);
      const mail = smtp.mails.find((m) => m.to.toLowerCase() === 'owner@example.org' && /Miami-Dade/.test(m.subject))!;
      expect(mail.subject).toMatch(/Miami-Dade/);
      expect(mail.text).toMatch(/Estimated restoration: 2026-09-01T18:00:00Z/);
    } finally {
      await r.close();
    }
  });

  it("delivers an incident watch's events signed, at most the cap a cycle, with the feed's text escaped", async () => {
    const r = await receiver();
    try {
      const watch = { scope: { kind: 'utility_incidents', source: 'lgeku' }, min_customers: 100 };
      const created = await rule([{ type: 'webhook', url: r.url }], watch);
      await rule([{ type: 'slack', url: `${r.url}/slack` }], { ...watch, name: 'chat' });
      const secret = created.channel_status[0].signing_secret!;
      const storm = Array.from({ length: INCIDENT_DELIVERIES_PER_CYCLE + 50 }, (_, i) =>
        event({
          ...{ scope: 'incident', source_id: 'lgeku', utility: 'LG&E and KU', incident_id: `<!channel> ${i}` },
          ...{ customers_out: 150 + i, pct_out: null, cause: '<@U123> *tree* <https://evil.example|click>' },
          title: `LG&E and KU outage <!channel> ${i} (Jefferson, KY)`,
        }),
      );
      const e = engine({ targetPerMinute: 1_000 });
      // the account's two targets share the cap (100 of the storm's 150 events × 2 targets); the county event matches neither
      expect(await e.ingest([...storm, event()])).toBe(INCIDENT_DELIVERIES_PER_CYCLE);
      expect((await svc.notices(account)).find((n) => (n as { kind?: string }).kind === 'incident_cap')).toMatchObject({
        message: expect.stringContaining(
          `${2 * storm.length - INCIDENT_DELIVERIES_PER_CYCLE} incident event deliveries`,
        ),
      });
      expect((await e.runDue()).delivered).toBe(INCIDENT_DELIVERIES_PER_CYCLE); // the county event is no watch's
      const hooks = r.hits.filter((h) => h.path === '/hook');
      const t = Math.floor(clock().getTime() / 1000);
      for (const h of hooks)
        expect(verifySignature(h.headers['service-signature'] as string, h.body, [secret], t)).toBe(true);
      expect(JSON.parse(hooks[0].body)).toMatchObject({ type: 'event.outage_began', data: { scope: 'incident' } });
      const chat = r.hits.filter((h) => h.path === '/hook/slack').map((h) => h.body);
      expect(chat.length).toBeGreaterThan(0);
      for (const b of chat) expect(b).not.toMatch(/<!channel>|<@U123>|<https:\/\/evil/);
    } finally {
      await r.close();
    }
  });

  it('disables a channel after sustained failure, holds its deliveries and notifies the account', async () => {
    let mended = false;
    const r = await receiver(() => ({ status: mended ? 200 : 500 }));
    try {
      const created = await rule([{ type: 'webhook', url: r.url }]);
      const e = engine({ retrySchedule: [3600] });
      for (let i = 0; i < 30; i++) {
        await e.ingest([event()]); // the storm goes on: a new event every hour
        await e.runDue();
        clock.advance(3_600_000);
      }
      const [ch] = await sql.query<{ status: string; disabled_reason: string }>(
        'SELECT status, disabled_reason FROM channels',
      );
      expect(ch.status).toBe('disabled');
      expect(Number(/(\d+) failed attempts in a row/.exec(ch.disabled_reason)![1])).toBeGreaterThanOrEqual(15);
      const held = await sql.query<{ status: string }>("SELECT status FROM deliveries WHERE status = 'held'");
      expect(held.length).toBeGreaterThan(0);
      const before = r.hits.length;
      clock.advance(3_600_000);
      await e.runDue();
      expect(r.hits.length).toBe(before);
      expect((await svc.notices(account))[0]).toMatchObject({ kind: 'channel_disabled' });
      expect(smtp.mails.some((m) => m.to === 'owner@example.org' && /disabled/.test(m.subject))).toBe(true);
      // the receiver mended, re-enabling resumes the held deliveries (its target's breaker forgets its failures)
      mended = true;
      await svc.enableChannel(account, created.id, created.channel_status[0].id);
      await e.ingest([event()]);
      let delivered = 0;
      for (let minute = 0; minute < 3; minute++) {
        delivered += (await e.runDue()).delivered; // 30 a minute to one target
        clock.advance(60_000);
      }
      expect(delivered).toBe(held.length + 1);
    } finally {
      await r.close();
    }
  });
});

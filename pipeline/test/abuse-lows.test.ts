// Issue 37 part 5, the account lows: a second secret rotation inside the grace keeps the original secret valid for its
// own grace (checked on the requests a receiver gets); Teams text shows an apostrophe, not `&#39;`; the IPv4-translated
// form `[::ffff:0:127.0.0.1]` (and the rest of the reserved ::/8) is refused when a webhook URL is saved. Real HTTP on
// loopback; the account database as in accounts.test.ts (PGlite, or PostgreSQL under scripts/test-postgres.sh).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageBody } from '../src/accounts/channels.ts';
import { DeliveryEngine } from '../src/accounts/deliver.ts';
import type { Account } from '../src/accounts/account-types.ts';
import { smtpMailer } from '../src/accounts/mailer.ts';
import { AccountService } from '../src/accounts/service.ts';
import { verifySignature } from '../src/accounts/signing.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { manualClock } from '../src/clock.ts';
import type { PublicEvent } from '../src/contract/events.ts';
import { receiver, smtpSink, testDb, type Hit, countyEvent } from './accounts-support.ts';
import { closeAll } from './clean-machine.ts';

const T0 = new Date('2026-09-01T08:00:00Z');
const HOUR = 3_600_000;
const clock = manualClock(T0);
let sql: Sql;
let drop: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
let account: Account;
const service = (allowLoopback: boolean) =>
  new AccountService({
    sql,
    mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
    baseUrl: 'https://outage.test',
    clock,
    safety: { allowLoopback },
  });

beforeAll(async () => {
  ({ sql, drop } = await testDb());
  smtp = await smtpSink();
  await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
    'acct_lows',
    'owner@example.org',
    T0,
  ]);
  account = {
    id: 'acct_lows',
    email: 'owner@example.org',
    created_at: T0.toISOString(),
    verified_at: T0.toISOString(),
  };
});
afterAll(() =>
  closeAll(
    () => smtp?.close(),
    () => drop?.(),
  ),
);

let eventId = 0;
function event(over: Partial<PublicEvent> = {}): PublicEvent {
  eventId += 1;
  return countyEvent(eventId, clock().toISOString(), over);
}

describe('a second secret rotation inside the grace (issue 37: it dropped the original secret early)', () => {
  it('keeps every rotated-out secret valid until its own grace ends, at most four at once', async () => {
    const svc = service(true);
    const r = await receiver();
    const engine = new DeliveryEngine({
      sql,
      mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
      baseUrl: 'https://outage.test',
      clock,
      safety: { allowLoopback: true },
      jitter: 0,
      retrySchedule: [30],
      timeoutMs: 2_000,
    });
    try {
      const rule = await svc.createRule(account, {
        name: 'Miami-Dade',
        scope: { kind: 'county', fips: '12086' },
        channels: [{ type: 'webhook', url: r.url }],
      });
      const channel = rule.channel_status[0] as { id: string; signing_secret: string };
      const rotate = () => svc.rotateSecret(account, rule.id, channel.id, { grace_hours: 24 });
      const original = channel.signing_secret;
      const first = (await rotate()).secret; // at T0: the original until T0 + 24 h
      clock.set(new Date(T0.getTime() + HOUR));
      const second = (await rotate()).secret; // at T0 + 1 h: `first` until T0 + 25 h, the original still until T0 + 24 h
      /** The secrets the next delivery's signature verifies with, at the clock's time. */
      const validAt = async (at: number) => {
        clock.set(new Date(at));
        await engine.ingest([event()]);
        await engine.runDue();
        const hit = r.hits.at(-1) as Hit;
        const header = hit.headers['service-signature'] as string;
        const ok = (s: string) => verifySignature(header, hit.body, [s], Math.floor(at / 1000));
        return { original: ok(original), first: ok(first), second: ok(second) };
      };
      expect(await validAt(T0.getTime() + 2 * HOUR)).toEqual({ original: true, first: true, second: true });
      expect(await validAt(T0.getTime() + 24 * HOUR + 60_000)).toEqual({ original: false, first: true, second: true });
      expect(await validAt(T0.getTime() + 25 * HOUR + 60_000)).toEqual({ original: false, first: false, second: true });
      // At most MAX_RETIRED_SECRETS (3) in their grace: a fourth rotation inside it is refused, naming when it may.
      clock.set(new Date(T0.getTime() + 26 * HOUR));
      for (let i = 0; i < 3; i++) await rotate();
      await expect(rotate()).rejects.toMatchObject({
        body: { status: 403, code: 'account_limit', message: expect.stringMatching(/at most 4 secrets/) },
      });
    } finally {
      await closeAll(
        () => engine.close(),
        () => r.close(),
        () => sql.query('DELETE FROM rules'),
      );
    }
  });
});

describe('Teams text (issue 37: an apostrophe showed as `&#39;`)', () => {
  it('keeps quotes as they are and escapes only what makes a tag or an entity', () => {
    const e = event({ title: "Outage began: Prince George's, MD — 5,000 customers out" });
    const card = JSON.parse(messageBody('teams', e, { id: 'r', name: 'The "night" & <b>day</b> shift' }, 'https://x'));
    const text = `${card.title}\n${card.summary}\n${card.text}`;
    expect(card.title).toContain("Prince George's, MD");
    expect(text).not.toMatch(/&#39;|&quot;/);
    expect(card.text).toContain('The "night" &amp; &lt;b&gt;day&lt;/b&gt; shift');
  });
});

describe('IPv6 forms carrying an IPv4 address (issue 37: `[::ffff:0:127.0.0.1]` was saved as a webhook URL)', () => {
  const FORMS = [
    'https://[::ffff:0:127.0.0.1]/x', // IPv4-translated, as written
    'https://[::ffff:0:7f00:1]/x', // the same, as the URL parser writes it
    'https://[0:0:0:0:ffff:0:a9fe:a9fe]/x', // translated metadata address
    'https://[::1:0:0:0]/x', // elsewhere in the reserved ::/8
  ];

  it('refuses every form when the URL is saved', async () => {
    const strict = service(false);
    for (const url of FORMS)
      await expect(
        strict.createRule(account, {
          name: 'x',
          scope: { kind: 'county', fips: '12086' },
          channels: [{ type: 'webhook', url }],
        }),
        url,
      ).rejects.toMatchObject({
        body: { code: 'unsafe_url', message: expect.stringMatching(/loopback|private|::\/8/) },
      });
  });
});

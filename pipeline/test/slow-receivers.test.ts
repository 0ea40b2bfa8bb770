// Slow receivers (issue 37 part 3): one account's never-answering webhook URLs beside a healthy neighbour's. The
// neighbour is served while the slow requests hang (at most TARGET_IN_FLIGHT in flight per target, ACCOUNT_IN_FLIGHT
// per account, accounts taking turns), and each slow target's circuit breaker opens after BREAKER_FAILURES failures
// in a row, keeps the backlog in the job table, tells the account, and sends the backlog when the pause ends. Real
// HTTP on loopback; the manual clock moves the pauses; the tests wait on conditions, never on durations.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryEngine } from '../src/accounts/deliver.ts';
import {
  ACCOUNT_IN_FLIGHT,
  BREAKER_FAILURES,
  BREAKER_MAX_PAUSE_S,
  BREAKER_PAUSE_S,
  MAX_ATTEMPTS,
  TARGET_IN_FLIGHT,
} from '../src/accounts/delivery-policy.ts';
import type { Account } from '../src/accounts/account-types.ts';
import { logMailer } from '../src/accounts/mailer.ts';
import { AccountService } from '../src/accounts/service.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { manualClock } from '../src/clock.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { countyEvent, receiver, testDb } from './accounts-support.ts';
import { until } from './scripted-feed.ts';

let sql: Sql;
let drop: () => Promise<void>;
const clock = manualClock(new Date('2026-09-01T08:00:00Z'));
const mailer = logMailer(() => {});
let svc: AccountService;
let eventId = 0;
const engines: DeliveryEngine[] = [];
const slowAccount = accountNamed('acct_slow');
const fineAccount = accountNamed('acct_fine');

function accountNamed(id: string): Account {
  const at = clock().toISOString();
  return { id, email: `${id}@example.org`, created_at: at, verified_at: at };
}

beforeAll(async () => {
  ({ sql, drop } = await testDb());
  svc = new AccountService({ sql, mailer, baseUrl: 'https://outage.test', clock, safety: { allowLoopback: true } });
  for (const a of [slowAccount, fineAccount])
    await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
      a.id,
      a.email,
      clock(),
    ]);
});
afterEach(async () => {
  while (engines.length) await engines.pop()!.close();
  await sql.query('DELETE FROM rules');
  await sql.query('DELETE FROM notices');
  await sql.query('DELETE FROM target_breakers');
});
afterAll(async () => {
  await drop?.();
});

function engine(timeoutMs: number): DeliveryEngine {
  const e = new DeliveryEngine({
    sql,
    mailer,
    baseUrl: 'https://outage.test',
    clock,
    safety: { allowLoopback: true },
    jitter: 0,
    retrySchedule: [30, 120, 600],
    timeoutMs,
  });
  engines.push(e);
  return e;
}

const rule = (a: Account, urls: string[], fips: string) =>
  svc.createRule(a, {
    name: `${a.id} ${fips}`,
    scope: { kind: 'county', fips },
    channels: urls.map((url) => ({ type: 'webhook', url })),
  });

const event = (fips: string) => {
  eventId += 1;
  return countyEvent(eventId, clock().toISOString(), { fips, outage_id: `county|${fips}|${eventId}` });
};

const OF_ACCOUNT = 'JOIN channels c ON c.id = d.channel_id JOIN rules r ON r.id = c.rule_id WHERE r.account_id = $1';

/** The account's deliveries by status. */
async function statuses(a: Account): Promise<Record<string, number>> {
  const rows = await sql.query<{ status: string; n: number }>(
    `SELECT d.status, count(*)::int AS n FROM deliveries d ${OF_ACCOUNT} GROUP BY d.status`,
    [a.id],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Attempts answered (or timed out) so far, of the account's deliveries. */
async function attempts(a: Account): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM delivery_attempts x JOIN deliveries d ON d.id = x.delivery_id ${OF_ACCOUNT}`,
    [a.id],
  );
  return row.n;
}

const notices = async (a: Account) => (await svc.notices(a)) as unknown as Array<{ kind: string; message: string }>;
const kinds = async (a: Account) => (await notices(a)).map((n) => n.kind);

describe('slow receivers', () => {
  it("serve a healthy neighbour while one account's 19 never-answering URLs hang, and pause each of them", async () => {
    const slow = await receiver(() => ({ status: 200, never: true }));
    const fine = await receiver();
    let run: Promise<unknown> = Promise.resolve();
    try {
      const urls = Array.from({ length: 19 }, (_, i) => `${slow.url}/${i + 1}`);
      const slowRules = [
        await rule(slowAccount, urls.slice(0, 10), '12086'),
        await rule(slowAccount, urls.slice(10), '12086'),
      ];
      await rule(fineAccount, [fine.url], '12011');
      const e = engine(10_000); // the production time-out: the neighbour must not wait for one
      // the slow account's backlog is older (6 events × 19 URLs): sent oldest first, 32 at a time, it held every sender
      await e.ingest(Array.from({ length: 6 }, () => event('12086')));
      clock.advance(1_000);
      await e.ingest([event('12011')]);
      run = e.runDue();
      await until(() => fine.hits.length === 1, 60_000);
      // the neighbour was served while every slow request still hung: none of their time-outs came first
      expect(await attempts(slowAccount)).toBe(0);
      expect(slow.hits.length).toBeLessThanOrEqual(ACCOUNT_IN_FLIGHT);
      const perTarget = new Map<string, number>();
      for (const h of slow.hits) perTarget.set(h.path, (perTarget.get(h.path) ?? 0) + 1);
      for (const n of perTarget.values()) expect(n).toBeLessThanOrEqual(TARGET_IN_FLIGHT);
      await until(() => fine.hits.length === 1 && slow.hits.length === ACCOUNT_IN_FLIGHT, 60_000);
      // the receivers go away: the hanging requests fail, then every connection is refused until each target pauses
      await slow.close();
      await run;
      expect(await statuses(fineAccount)).toEqual({ delivered: 1 });
      expect(await statuses(slowAccount)).toEqual({ pending: 6 * 19 }); // kept, none given up
      for (const r of slowRules)
        for (const c of (await svc.getRule(slowAccount, r.id)).channel_status)
          expect(c.paused_until).toBe(new Date(clock().getTime() + BREAKER_PAUSE_S * 1000).toISOString());
      const tried = await attempts(slowAccount);
      expect(tried).toBeGreaterThanOrEqual(19 * BREAKER_FAILURES);
      expect(tried).toBeLessThanOrEqual(19 * (BREAKER_FAILURES + TARGET_IN_FLIGHT - 1));
      const told = await notices(slowAccount); // a notice for each paused target, naming it
      expect(told.map((n) => n.kind)).toEqual(Array(19).fill('target_paused'));
      expect(new Set(told.map((n) => /^Deliveries to (\S+) are paused/.exec(n.message)?.[1]))).toEqual(new Set(urls));
      expect(await kinds(fineAccount)).toEqual([]);
    } finally {
      await slow.close();
      await run.catch(() => undefined);
      await fine.close();
    }
  });

  it('pause a target after 5 failures in a row, keep its backlog, tell its account, and send it when the pause ends', async () => {
    let answering = false;
    const slow = await receiver(() => (answering ? { status: 200 } : { status: 200, never: true }));
    try {
      const slowRule = await rule(slowAccount, [slow.url], '12086');
      // a short time-out, so the failures come quickly; it is never met (the receiver holds every request)
      const e = engine(300);
      await e.ingest(Array.from({ length: 8 }, () => event('12086')));
      expect((await e.runDue()).delivered).toBe(0);
      // opened at the count; what was in flight then is answered (and counted) but nothing more is sent
      expect(slow.hits.length).toBeGreaterThanOrEqual(BREAKER_FAILURES);
      expect(slow.hits.length).toBeLessThanOrEqual(BREAKER_FAILURES + TARGET_IN_FLIGHT - 1);
      const pausedAt = clock().getTime();
      const doc = await svc.getRule(slowAccount, slowRule.id);
      expect(doc.channel_status[0]).toMatchObject({
        status: 'active',
        paused_until: new Date(pausedAt + BREAKER_PAUSE_S * 1000).toISOString(),
        paused_reason: expect.stringMatching(
          /^[56] failed attempts in a row \(last: timeout: no answer within 300 ms\)$/,
        ),
      });
      // every field of the answer is in the OpenAPI document
      const described = (buildOpenApi(false) as unknown as OpenApiDoc).components.schemas.RuleDoc.properties.data
        .properties.channel_status.items.properties;
      expect(Object.keys(doc.channel_status[0]).filter((k) => !(k in described))).toEqual([]);
      expect(await statuses(slowAccount)).toEqual({ pending: 8 });
      expect(await kinds(slowAccount)).toEqual(['target_paused']);
      expect((await notices(slowAccount))[0].message).toContain(`Deliveries to ${slow.url} are paused until`);

      // the backlog is due when the pause ends (the failed ones' retries at +30 s too): the pause holds them
      const [due] = await sql.query<{ at: Date }>(
        "SELECT min(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'",
      );
      expect(new Date(due.at).getTime()).toBe(pausedAt + BREAKER_PAUSE_S * 1000);
      clock.advance(30_000);
      expect((await e.runDue()).attempted).toBe(0);
      // the pause ends: one delivery is tried; it times out, and the pause doubles
      clock.advance(30_000);
      const before = slow.hits.length;
      expect(await e.runDue()).toMatchObject({ attempted: 1, retrying: 1 });
      expect(slow.hits.length).toBe(before + 1);
      expect((await svc.getRule(slowAccount, slowRule.id)).channel_status[0].paused_until).toBe(
        new Date(clock().getTime() + 2 * BREAKER_PAUSE_S * 1000).toISOString(),
      );
      expect(await kinds(slowAccount)).toEqual(['target_paused']); // told once per run of pauses

      // the receiver mends: after the pause the trial succeeds, the breaker closes, and the backlog flows
      clock.advance(2 * BREAKER_PAUSE_S * 1000);
      answering = true;
      expect((await engine(10_000).runDue()).delivered).toBe(8);
      expect(await statuses(slowAccount)).toEqual({ delivered: 8 });
      const mended = (await svc.getRule(slowAccount, slowRule.id)).channel_status[0];
      expect(mended).toMatchObject({ paused_until: null, paused_reason: null });
      expect(await sql.query('SELECT * FROM target_breakers')).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('never give up a paused target’s backlog, however many of its trials fail, and send it all once it answers', async () => {
    let answering = false;
    const down = await receiver(() => ({ status: answering ? 200 : 503 }));
    try {
      await rule(slowAccount, [down.url], '12086');
      const e = engine(10_000);
      await e.ingest(Array.from({ length: 3 }, () => event('12086')));
      // a day and more of pauses: every trial fails, one delivery tried far past MAX_ATTEMPTS
      for (let trial = 0; trial < 2 * MAX_ATTEMPTS; trial++) {
        expect((await e.runDue()).failed).toBe(0);
        clock.advance(BREAKER_MAX_PAUSE_S * 1000);
      }
      const [most] = await sql.query<{ n: number }>('SELECT max(attempts)::int AS n FROM deliveries');
      expect(most.n).toBeGreaterThan(MAX_ATTEMPTS);
      expect(await statuses(slowAccount)).toEqual({ pending: 3 }); // kept, none given up
      answering = true;
      expect((await e.runDue()).delivered).toBe(3);
      expect(await statuses(slowAccount)).toEqual({ delivered: 3 });
    } finally {
      await down.close();
    }
  });

  it('count failures in a row only: a success between them keeps the target open', async () => {
    // answers: three 503s, a 200, three 503s, then 200s — never five failures in a row, even with two answers in
    // flight coming back the other way round
    const flaky = await receiver((_, n) => ({ status: n <= 3 || (n >= 5 && n <= 7) ? 503 : 200 }));
    try {
      await rule(slowAccount, [flaky.url], '12086');
      const e = engine(10_000);
      await e.ingest(Array.from({ length: 10 }, () => event('12086')));
      for (let round = 0; round < 10 && (await statuses(slowAccount)).delivered !== 10; round++) {
        await e.runDue();
        clock.advance(30_000);
      }
      expect(flaky.hits).toHaveLength(16);
      expect(await statuses(slowAccount)).toEqual({ delivered: 10 });
      expect(await kinds(slowAccount)).toEqual([]);
      expect(await sql.query('SELECT * FROM target_breakers')).toEqual([]);
    } finally {
      await flaky.close();
    }
  });
});

interface OpenApiDoc {
  components: {
    schemas: Record<
      string,
      { properties: { data: { properties: { channel_status: { items: { properties: Record<string, unknown> } } } } } }
    >;
  };
}

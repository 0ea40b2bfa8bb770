// Issue 24, the account rows: chat injection, the email relay, the rule × webhook amplifier, per-target delivery
// limits, sign-in lock-out by a stranger and the SSRF forms the URL parser produces. Real HTTP and SMTP on loopback;
// the account database as in accounts.test.ts (PGlite, or PostgreSQL under scripts/test-postgres.sh).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type dns from 'node:dns';
import { DeliveryEngine } from '../src/accounts/deliver.ts';
import { AccountService } from '../src/accounts/service.ts';
import type { Account } from '../src/accounts/account-types.ts';
import { smtpMailer } from '../src/accounts/mailer.ts';
import { MAX_RULES_PER_ACCOUNT, MAX_TARGETS_PER_ACCOUNT } from '../src/accounts/rule-channels.ts';
import { TARGET_PER_MINUTE } from '../src/accounts/target-limit.ts';
import { manualClock } from '../src/clock.ts';
import type { PublicEvent } from '../src/contract/events.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { createApp } from '../src/serve/app.ts';
import { receiver, smtpSink, testDb } from './accounts-support.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

let sql: Sql;
let drop: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
let outDir: string | undefined;
const clock = manualClock(new Date('2026-09-01T08:00:00Z'));
const safety = { allowLoopback: true };
let svc: AccountService;
let account: Account;
let eventId = 0;
const engines: DeliveryEngine[] = [];

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
  outDir = makeTempDir('abuse');
  svc = service(true);
  const now = clock();
  await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
    'acct_abuse',
    'owner@example.org',
    now,
  ]);
  account = {
    id: 'acct_abuse',
    email: 'owner@example.org',
    created_at: now.toISOString(),
    verified_at: now.toISOString(),
  };
});
afterEach(async () => {
  await sql.query('DELETE FROM rules');
  await sql.query('DELETE FROM target_windows');
  while (engines.length) await engines.pop()!.close();
});
afterAll(async () => {
  await closeAll(
    async () => {
      while (engines.length) await engines.pop()!.close();
    },
    () => smtp?.close(),
    () => drop?.(),
    () => removeTempDir(outDir),
  );
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
  return {
    id: eventId,
    at: clock().toISOString(),
    kind: 'outage_began',
    scope: 'county',
    fips: '12086',
    state: 'FL',
    states: ['FL'],
    utility: null,
    area: null,
    source_id: null,
    outage_id: `county|12086|${eventId}`,
    customers_out: 5_000,
    pct_out: 0.4,
    threshold: 500,
    previous_customers_out: null,
    etr: null,
    previous_etr: null,
    county_name: 'Miami-Dade',
    title: 'Outage began: Miami-Dade, FL — 5,000 customers out',
    link: '/api/v1/live/counties/12086',
    ...over,
  };
}

const rule = (channels: unknown[], over: Record<string, unknown> = {}) =>
  svc.createRule(account, { name: 'Miami-Dade', scope: { kind: 'county', fips: '12086' }, channels, ...over });

const HOSTILE_NAME =
  '<!channel> <!here> <@U024BE7LH> @everyone @here <https://evil.example|click here> [click](https://evil.example) <at>Boss</at> <img src=x onerror=alert(1)> **now**';

describe('chat injection (issue 24: an upstream name reached Slack as `<!channel> <https://evil.example|…>`)', () => {
  it('escapes upstream and rule text for Slack, Discord and Teams: no mentions, masked links or markup', async () => {
    const r = await receiver();
    try {
      await rule(
        [
          { type: 'slack', url: `${r.url}/slack` },
          { type: 'discord', url: `${r.url}/discord` },
          { type: 'teams', url: `${r.url}/teams` },
        ],
        { name: 'Rule <!channel> [here](https://evil.example)' },
      );
      const e = engine();
      await e.ingest([event({ title: `Outage began: ${HOSTILE_NAME}` })]);
      expect((await e.runDue()).delivered).toBe(3);
      const all = r.hits.map((h) => JSON.parse(h.body));
      const slack = all.find((b) => b.blocks)!;
      const discord = all.find((b) => b.embeds)!;
      const teams = all.find((b) => b['@type'] === 'MessageCard')!;
      const slackText = `${slack.text}\n${slack.blocks[0].text.text}`;
      // Slack reads `<…>` as a mention, a command or a link: none may come from upstream text
      expect(slackText).not.toMatch(/<!channel>|<!here>|<@U|<https:\/\/evil\.example\|/);
      expect(slackText.match(/</g)).toHaveLength(1); // only our own <url|Live status>
      expect(slackText).toContain('&lt;!channel&gt;');
      expect(slackText).not.toMatch(/(^|[^\u2060])@(everyone|here)\b/);
      // Discord: nothing parses as a mention, a masked link or markup, and no mention would ping anyway
      expect(discord.allowed_mentions).toEqual({ parse: [] });
      const discordText = `${discord.content}\n${discord.embeds[0].title}\n${discord.embeds[0].description}`;
      expect(discordText).not.toMatch(/(^|[^\\])\[click\]\(/);
      expect(discordText).not.toMatch(/(^|[^\\])<@U/);
      expect(discordText).not.toMatch(/(^|[^\\\u2060])@everyone/);
      expect(discordText).toContain('\\*\\*now\\*\\*');
      // Teams: no tags (an `<at>` mention, an `<img onerror>`), no markdown link
      const teamsText = `${teams.title}\n${teams.text}\n${teams.summary}`;
      expect(teamsText).not.toMatch(/<at>|<img|<!channel>/);
      expect(teamsText).not.toMatch(/(^|[^\\])\[click\]\(/);
      expect(teamsText).toContain('&lt;at&gt;Boss&lt;/at&gt;');
    } finally {
      await r.close();
    }
  });
});

const toStranger = () => smtp.mails.filter((m) => m.to.toLowerCase() === 'stranger@example.org');

describe('email to another address (issue 24: a rule name reading "Your account is suspended…" reached any address)', () => {
  it('is pending, delivers nothing until the address opens its confirmation link, then delivers', async () => {
    const phishing = 'Your account is suspended — verify at https://evil.example/login';
    const created = await rule([{ type: 'email', to: 'Stranger@example.org' }], { name: phishing });
    expect(created.channel_status[0].status).toBe('pending');
    const asked = toStranger();
    expect(asked).toHaveLength(1);
    expect(asked[0].text).not.toContain('evil.example');
    expect(asked[0].subject).toMatch(/Confirm/);
    // saving again within the hour sends no second message
    await svc.updateRule(account, created.id, { channels: [{ type: 'email', to: 'Stranger@example.org' }] });
    expect(toStranger()).toHaveLength(1);
    const e = engine();
    await e.ingest([event()]);
    await e.runDue();
    expect(toStranger()).toHaveLength(1); // before: the phishing mail
    // the address opens the link: through the function layer, no key
    const token = /token=([\w-]+)/.exec(asked[0].text)![1];
    const app = createApp({ outDir: outDir!, accounts: svc });
    const wrong = await app.request('/api/v1/email-channels/confirm?token=nope');
    expect([wrong.status, (await wrong.json()).data.error.code]).toEqual([400, 'invalid_code']);
    const opened = await app.request(`/api/v1/email-channels/confirm?token=${token}`);
    expect(opened.status).toBe(200);
    expect((await opened.json()).data).toMatchObject({ address: 'stranger@example.org', channels: 1 });
    expect((await svc.getRule(account, created.id)).channel_status[0].status).toBe('active');
    await e.ingest([event()]);
    await e.runDue();
    expect(toStranger()).toHaveLength(2);
  });
});

describe('accounts as an amplifier (issue 24: 500 rules × 10 webhooks, two events → 10,036 deliveries)', () => {
  it(`caps an account at ${MAX_RULES_PER_ACCOUNT} rules and ${MAX_TARGETS_PER_ACCOUNT} targets; two events reach each target once`, async () => {
    const targets = Array.from({ length: MAX_TARGETS_PER_ACCOUNT }, (_, i) => `https://hooks.example.com/t${i}`);
    const channels = (i: number) =>
      Array.from({ length: 10 }, (_, k) => ({ type: 'webhook', url: targets[(i + k) % targets.length] }));
    for (let i = 0; i < MAX_RULES_PER_ACCOUNT; i++) await rule(channels(i), { name: `r${i}` });
    await expect(rule(channels(0))).rejects.toMatchObject({ body: { status: 403, code: 'account_limit' } });
    const [first] = await svc.listRules(account);
    await expect(
      svc.updateRule(account, first.id, { channels: [{ type: 'webhook', url: targets[0] }] }),
    ).resolves.toBeDefined(); // replacing a rule's own channels: its old targets are not counted twice
    await expect(
      svc.updateRule(account, first.id, {
        channels: [
          { type: 'webhook', url: 'https://hooks.example.com/new' },
          { type: 'webhook', url: 'https://hooks.example.com/new2' },
        ],
      }),
    ).rejects.toMatchObject({ body: { status: 403, code: 'account_limit', param: 'channels' } });
    const created = await engine().ingest([event(), event()]);
    // before: 2 events × rules × channels; now each event reaches each of the account's targets once
    expect(created).toBe(2 * MAX_TARGETS_PER_ACCOUNT);
  });

  it(`sends at most ${TARGET_PER_MINUTE} deliveries a minute to one target and defers the rest, losing none`, async () => {
    const r = await receiver();
    try {
      await rule([{ type: 'webhook', url: r.url }]);
      const e = engine();
      const events = Array.from({ length: TARGET_PER_MINUTE + 15 }, () => event());
      await e.ingest(events);
      expect((await e.runDue()).delivered).toBe(TARGET_PER_MINUTE);
      expect(r.hits).toHaveLength(TARGET_PER_MINUTE);
      const waiting = await sql.query<{ n: number; attempts: number }>(
        "SELECT count(*)::INT AS n, max(attempts)::INT AS attempts FROM deliveries WHERE status = 'pending'",
      );
      expect(waiting[0]).toEqual({ n: 15, attempts: 0 }); // deferred, not failed
      clock.advance(60_000);
      expect((await e.runDue()).delivered).toBe(15);
      const ids = r.hits.map((h) => h.headers['service-event-id']);
      expect(new Set(ids)).toEqual(new Set(events.map((x) => `evt_${x.id}`)));
    } finally {
      await r.close();
    }
  });
});

describe('sign-in lock-out (issue 24: 49 wrong guesses, then the right code refused)', () => {
  it("counts wrong codes per requester: a stranger's guesses do not lock the owner out", async () => {
    const off = { perMinute: 0, burst: 1 }; // the per-client request buckets are another test's subject
    const rateLimits = { query: off, account: off, clientHeader: 'x-forwarded-for', trustedProxies: [] };
    const app = createApp({ outDir: outDir!, accounts: svc, rateLimits });
    const post = (path: string, body: unknown, ip: string) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify(body),
      });
    const email = 'locked@example.org';
    clock.advance(120_000);
    expect((await post('/api/v1/accounts', { email }, '198.51.100.7')).status).toBe(202);
    const code = /code is (\d{6})/.exec(smtp.mails.filter((m) => m.to === email).at(-1)!.text)![1];
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const stranger = [];
    for (let i = 0; i < 49; i++)
      stranger.push((await post('/api/v1/accounts/verify', { email, code: wrong(i) }, '203.0.113.66')).status);
    expect(stranger.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(stranger.at(-1)).toBe(429); // the stranger's hourly allowance of wrong codes is spent
    // the stranger cannot use the right code either: five wrong tries on this code from there
    expect((await post('/api/v1/accounts/verify', { email, code }, '203.0.113.66')).status).not.toBe(200);
    const owner = await post('/api/v1/accounts/verify', { email, code }, '198.51.100.7');
    expect(owner.status).toBe(200); // before: 400 invalid_code
  });
});

describe('SSRF forms the URL parser produces (issue 24)', () => {
  const FORMS = [
    'https://[64:ff9b::169.254.169.254]/x',
    'https://[64:ff9b::127.0.0.1]/x',
    'https://[64:ff9b:1::a9fe:a9fe]/x',
    'https://[::127.0.0.1]/x',
    'https://[::ffff:169.254.169.254]/x',
    'https://[2002:a9fe:a9fe::1]/x',
    'https://[2002::]/x',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x',
    'https://localhost./x',
    'https://metadata.google.internal./x',
    'https://127.0.0.1./x',
  ];

  it('refuses every form at save time', async () => {
    const strict = service(false);
    for (const url of FORMS)
      await expect(
        strict.createRule(account, {
          name: 'x',
          scope: { kind: 'county', fips: '12086' },
          channels: [{ type: 'webhook', url }],
        }),
        url,
      ).rejects.toMatchObject({ body: { code: 'unsafe_url' } });
  });

  it('refuses them at delivery time too: a saved target, and a name whose DNS answer is a NAT64 form', async () => {
    const r = await receiver();
    try {
      // DNS rebinding: the name passed at save time; at connect it resolves to the metadata service through NAT64
      const resolver = ((_host: string, _o: unknown, cb: (e: Error | null, a: dns.LookupAddress[]) => void) =>
        cb(null, [{ address: '64:ff9b::a9fe:a9fe', family: 6 }])) as unknown as typeof dns.lookup;
      const created = await service(false).createRule(account, {
        name: 'x',
        scope: { kind: 'county', fips: '12086' },
        channels: [{ type: 'webhook', url: 'https://rebind.example.com/hook' }],
      });
      // targets saved before the fix, straight into the table
      for (const url of FORMS)
        await sql.query(
          "INSERT INTO channels (id, rule_id, kind, target, secret) VALUES ($1, $2, 'webhook', $3, 's')",
          [`ch_${FORMS.indexOf(url)}`, created.id, url],
        );
      const e = engine({ resolver, safety: { allowLoopback: false } });
      await e.ingest([event()]);
      await e.runDue();
      const outcomes = await sql.query<{ outcome: string; error: string }>(
        'SELECT a.outcome, a.error FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id',
      );
      expect(outcomes).toHaveLength(FORMS.length + 1);
      expect(outcomes.every((o) => o.outcome === 'blocked')).toBe(true);
      expect(outcomes.map((o) => o.error).join('\n')).toMatch(
        /169\.254\.169\.254 is a private.*\(as 64:ff9b::a9fe:a9fe\)/,
      );
      expect(r.hits).toHaveLength(0);
    } finally {
      await r.close();
    }
  });
});

describe('the limits are documented', () => {
  it('in the README and in the operation that enforces them', async () => {
    const fs = await import('node:fs');
    const { FUNCTION_ENDPOINTS } = await import('../src/contract/catalogue.ts');
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(
      `at most **${MAX_RULES_PER_ACCOUNT} rules** and **${MAX_TARGETS_PER_ACCOUNT} distinct channel targets**`,
    );
    expect(readme).toContain(`At most **${TARGET_PER_MINUTE} deliveries a minute go to one target**`);
    expect(readme).toContain('`account_limit`');
    const create = FUNCTION_ENDPOINTS.find((f) => f.id === 'rules.create')!;
    expect(create.description).toContain(
      `at most ${MAX_RULES_PER_ACCOUNT} rules and ${MAX_TARGETS_PER_ACCOUNT} distinct`,
    );
  });
});

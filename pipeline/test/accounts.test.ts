// Accounts, keys and rules through the function layer (in-process Hono), with a real SMTP server on loopback.
// Runs on PGlite, and on a real PostgreSQL server when OUTAGE_TEST_PG_URL is set (`npm test` does, via
// scripts/test-postgres.sh).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/serve/app.ts';
import { AccountService } from '../src/accounts/service.ts';
import { smtpMailer } from '../src/accounts/mailer.ts';
import type { Sql } from '../src/accounts/sql.ts';
import { migrate } from '../src/accounts/sql.ts';
import { manualClock } from '../src/clock.ts';
import { smtpSink, testDb, PG_URL, type ReceivedMail } from './accounts-support.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { matchFunction } from '../src/contract/urls.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

// Contract: every answer of a function route matches the OpenAPI schema of its status (the error body otherwise).
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema({ $id: 'api', components: (buildOpenApi(false) as { components: unknown }).components });
let checkedResponses = 0;

let sql: Sql;
let drop: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof smtpSink>>;
const clock = manualClock(new Date('2026-09-01T08:00:00Z'));
let app: ReturnType<typeof createApp>;
let svc: AccountService;
let outDir: string | undefined;

beforeAll(async () => {
  ({ sql, drop } = await testDb());
  smtp = await smtpSink();
  svc = new AccountService({
    sql,
    mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
    baseUrl: 'https://outage.test',
    clock,
    safety: { allowLoopback: false },
  });
  outDir = makeTempDir('acct');
  app = createApp({ outDir, accounts: svc });
});
afterAll(async () => {
  await closeAll(
    () => smtp?.close(),
    () => drop?.(),
    () => removeTempDir(outDir),
  );
  expect(checkedResponses).toBeGreaterThan(40);
});

const call = async (method: string, url: string, body?: unknown, key?: string) => {
  const res = await app.request(url, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  const fn = matchFunction(new URL(url, 'http://x').pathname).find((f) => f.fn.method === method)?.fn;
  const schema = res.status === fn?.status ? fn.schema : res.status >= 400 ? 'ErrorBody' : null;
  if (schema) {
    const validate = ajv.getSchema(`api#/components/schemas/${schema}`)!;
    expect(validate(parsed), `${method} ${url} → ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(
      true,
    );
    checkedResponses += 1;
  }
  return { status: res.status, headers: res.headers, body: parsed };
};
const lastMail = (to: string): ReceivedMail => smtp.mails.filter((m) => m.to === to).at(-1)!;
const codeOf = (m: ReceivedMail) => /code is (\d{8})/.exec(m.text)![1];

async function signUp(email: string): Promise<string> {
  expect((await call('POST', '/api/v1/accounts', { email })).status).toBe(202);
  const v = await call('POST', '/api/v1/accounts/verify', { email, code: codeOf(lastMail(email)) });
  expect(v.status).toBe(200);
  return v.body.data.api_key.key;
}

describe(`accounts (${PG_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('migrations are versioned and apply once', async () => {
    expect(await migrate(sql)).toEqual([]);
    const rows = await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('while the account database opens (npm start serves first), account requests wait for it', async () => {
    let ready: (s: AccountService) => void = () => {};
    const opening = createApp({ outDir: outDir!, accounts: new Promise<AccountService>((r) => (ready = r)) });
    const pending = Promise.resolve(opening.request('/api/v1/account'));
    const early = await Promise.race([
      pending.then(() => 'answered'),
      new Promise((r) => setTimeout(r, 200, 'waiting')),
    ]);
    expect(early).toBe('waiting');
    ready(svc);
    expect((await pending).status).toBe(401); // the service answered: no key
  });

  it('signs up by email code: the code arrives over SMTP, the key is shown once and stored only as a hash', async () => {
    const res = await call('POST', '/api/v1/accounts', { email: 'Ana@Example.org' });
    expect(res.status).toBe(202);
    const mail = lastMail('ana@example.org');
    expect(mail.subject).toMatch(/code: \d{8}/);
    expect(mail.text).toMatch(/https:\/\/outage\.test\/api\/v1\/accounts\/verify\?token=/);
    const bad = await call('POST', '/api/v1/accounts/verify', {
      email: 'ana@example.org',
      code: '00000000' === codeOf(mail) ? '11111111' : '00000000',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error.code).toBe('invalid_code');
    const ok = await call('POST', '/api/v1/accounts/verify', { email: 'ana@example.org', code: codeOf(mail) });
    expect(ok.status).toBe(200);
    const key: string = ok.body.data.api_key.key;
    expect(key).toMatch(/^odk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{32}$/);
    const stored = await sql.query<{ hash: string }>('SELECT hash FROM api_keys');
    expect(JSON.stringify(stored)).not.toContain(key);
    // the code is single-use
    expect(
      (await call('POST', '/api/v1/accounts/verify', { email: 'ana@example.org', code: codeOf(mail) })).status,
    ).toBe(400);
    const me = await call('GET', '/api/v1/account', undefined, key);
    expect(me.body.data.account.email).toBe('ana@example.org');
    expect(me.body.data.keys[0].last_used_at).not.toBeNull();
  });

  it('verifies by the emailed link, rate-limits codes, locks after five wrong tries', async () => {
    await call('POST', '/api/v1/accounts', { email: 'bo@example.org' });
    expect((await call('POST', '/api/v1/accounts', { email: 'bo@example.org' })).status).toBe(429);
    const token = /token=([\w-]+)/.exec(lastMail('bo@example.org').text)![1];
    const linked = await call('GET', `/api/v1/accounts/verify?token=${token}`);
    expect(linked.status).toBe(200);
    expect(linked.body.data.account.verified_at).not.toBeNull();
    clock.advance(61_000);
    await call('POST', '/api/v1/accounts', { email: 'bo@example.org' });
    const code = codeOf(lastMail('bo@example.org'));
    const wrong = code === '12345678' ? '87654321' : '12345678';
    for (let i = 0; i < 5; i++)
      expect((await call('POST', '/api/v1/accounts/verify', { email: 'bo@example.org', code: wrong })).status).toBe(
        400,
      );
    // the sixth try at this code from here is not compared (in process: a shared address, counted per account)
    const sixth = await call('POST', '/api/v1/accounts/verify', { email: 'bo@example.org', code });
    expect([sixth.status, sixth.body.data.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('rejects missing, malformed, unknown and revoked keys with 401', async () => {
    const key = await signUp('cy@example.org');
    for (const k of [undefined, 'nope', `odk_AAAAAAAA_${'x'.repeat(32)}`]) {
      const r = await call('GET', '/api/v1/rules', undefined, k);
      expect(r.status).toBe(401);
      expect(r.body.data.error.code).toBe('unauthorized');
      expect(r.headers.get('www-authenticate')).toMatch(/Bearer/);
    }
    const second = await call('POST', '/api/v1/keys', { name: 'ci' }, key);
    expect(second.status).toBe(201);
    const list = await call('GET', '/api/v1/keys', undefined, key);
    expect(list.body.data.keys.map((k: { name: string }) => k.name).sort()).toEqual(['ci', 'first key']);
    expect((await call('DELETE', `/api/v1/keys/${second.body.data.id}`, undefined, key)).status).toBe(204);
    expect((await call('GET', '/api/v1/rules', undefined, second.body.data.key)).status).toBe(401);
    expect((await call('DELETE', '/api/v1/keys/key_nothere', undefined, key)).body.data.error.code).toBe('unknown_key');
  });

  it("creates, reads, changes and deletes rules; another account's rule is 404; bad input is a documented 4xx", async () => {
    const key = await signUp('di@example.org');
    const other = await signUp('ed@example.org');
    const rule = {
      name: 'Palm Beach',
      scope: { kind: 'county', fips: '12099' },
      kinds: ['outage_began', 'outage_restored'],
      min_customers: 500,
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'America/New_York' },
      watch: true,
      channels: [
        { type: 'webhook', url: 'https://hooks.example.com/outage' },
        { type: 'email', to: 'di@example.org' },
        { type: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
      ],
    };
    const created = await call('POST', '/api/v1/rules', rule, key);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.channel_status.find((c: { type: string }) => c.type === 'webhook').signing_secret).toMatch(
      /^whsec_/,
    );
    expect(created.body.data.watched_counties).toEqual(['12099']);
    expect(await svc.watchedCounties()).toEqual(new Set(['12099']));
    const got = await call('GET', `/api/v1/rules/${id}`, undefined, key);
    expect(got.body.data).toMatchObject({
      name: 'Palm Beach',
      min_customers: 500,
      scope: { kind: 'county', fips: '12099' },
    });
    expect(got.body.data.channel_status[0].signing_secret).toBeUndefined();
    expect((await call('GET', `/api/v1/rules/${id}`, undefined, other)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/rules/${id}`, undefined, other)).body.data.error.code).toBe('unknown_rule');
    const patched = await call('PATCH', `/api/v1/rules/${id}`, { min_customers: 1000, watch: false }, key);
    expect(patched.body.data).toMatchObject({ min_customers: 1000, watched_counties: [] });
    expect((await call('GET', '/api/v1/rules', undefined, key)).body.data.rules).toHaveLength(1);
    const cases: Array<[unknown, number, string, string?]> = [
      [{ ...rule, scope: { kind: 'county', fips: '1209' } }, 400, 'invalid_body', 'scope.fips'],
      [{ ...rule, scope: { kind: 'county', fips: '99999' } }, 400, 'invalid_scope'],
      [{ ...rule, kinds: ['outage_exploded'] }, 400, 'invalid_body', 'kinds.0'],
      [{ ...rule, channels: [] }, 400, 'invalid_body', 'channels'],
      [{ ...rule, surprise: 1 }, 400, 'invalid_body'],
      [
        { ...rule, channels: [{ type: 'webhook', url: 'http://hooks.example.com/x' }] },
        400,
        'unsafe_url',
        'channels.0.url',
      ],
      [{ ...rule, channels: [{ type: 'webhook', url: 'https://10.1.2.3/x' }] }, 400, 'unsafe_url'],
      [
        { ...rule, channels: [{ type: 'discord', url: 'https://169.254.169.254/latest/meta-data' }] },
        400,
        'unsafe_url',
      ],
      [{ ...rule, channels: [{ type: 'teams', url: 'https://localhost/x' }] }, 400, 'unsafe_url'],
      [{ ...rule, channels: [{ type: 'email', to: 'not-an-address' }] }, 400, 'invalid_body', 'channels.0.to'],
      [{ ...rule, scope: { kind: 'state', state: 'FL' } }, 403, 'forbidden_scope'],
      ['{"name": ', 400, 'invalid_body', 'body'],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await call('POST', '/api/v1/rules', body, key);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(r.body.data.error.code).toBe(code);
      if (param) expect(r.body.data.error.param).toBe(param);
    }
    expect((await call('POST', '/api/v1/accounts', { email: 'nope' })).body.data.error.code).toBe('invalid_email');
    expect((await call('POST', '/api/v1/rules', '[]', key)).body.data.error).toMatchObject({
      code: 'invalid_body',
      param: 'body',
    });
    const huge = await call('POST', '/api/v1/rules', { ...rule, name: 'x'.repeat(70_000) }, key);
    expect(huge.body.data.error).toMatchObject({
      code: 'invalid_body',
      message: expect.stringMatching(/larger than 64 KB/),
    });
    expect((await call('PATCH', `/api/v1/rules/${id}`, { min_pct: 120 }, key)).body.data.error).toMatchObject({
      code: 'invalid_body',
      param: 'min_pct',
    });
    expect((await call('GET', `/api/v1/rules/${id}/deliveries?limit=0`, undefined, key)).body.data.error).toMatchObject(
      { code: 'invalid_parameter', param: 'limit' },
    );
    expect(
      (await call('POST', `/api/v1/rules/${id}/channels/ch_nothere/rotate-secret`, {}, key)).body.data.error.code,
    ).toBe('unknown_channel');
    expect(
      (await call('POST', `/api/v1/rules/${id}/channels/ch_nothere/enable`, undefined, key)).body.data.error.code,
    ).toBe('unknown_channel');
    expect((await call('GET', '/api/v1/accounts/verify?token=forged')).body.data.error.code).toBe('invalid_code');
    expect((await call('DELETE', `/api/v1/rules/${id}`, undefined, key)).status).toBe(204);
    expect((await call('GET', `/api/v1/rules/${id}`, undefined, key)).status).toBe(404);
  });

  it('saves incident watches (a county or utility above a size, one incident); refuses what cannot match', async () => {
    const key = await signUp('iw@example.org');
    const base = {
      name: 'Incidents',
      min_customers: 500,
      channels: [{ type: 'webhook', url: 'https://hooks.example.com/i' }],
    };
    const scopes = [
      { kind: 'county_incidents', fips: '21111' },
      { kind: 'utility_incidents', source: 'lgeku' },
      { kind: 'incident', source: 'pge', id: '1234567' },
    ];
    for (const scope of scopes) {
      const r = await call('POST', '/api/v1/rules', { ...base, scope }, key);
      expect(r.status, JSON.stringify(scope)).toBe(201);
      expect(r.body.data.definition.scope).toEqual(scope);
      expect((await call('GET', `/api/v1/rules/${r.body.data.id}`, undefined, key)).body.data.scope).toEqual(scope);
    }
    const watched = await call('POST', '/api/v1/rules', { ...base, scope: scopes[0], watch: true }, key);
    expect(watched.body.data.watched_counties).toEqual(['21111']);
    const cases: Array<[unknown, number, string, string?]> = [
      [{ ...base, scope: { kind: 'county_incidents', fips: '99999' } }, 400, 'invalid_scope'],
      [{ ...base, scope: scopes[1], min_customers: 99 }, 400, 'invalid_scope'],
      [{ ...base, scope: { kind: 'utility_incidents' } }, 400, 'invalid_body', 'scope.source'],
      [{ ...base, scope: { kind: 'utility_incidents', source: 'LG&E <b>' } }, 400, 'invalid_body', 'scope.source'],
      [{ ...base, scope: { kind: 'incident', source: 'pge' } }, 400, 'invalid_body', 'scope.id'],
      [{ ...base, scope: scopes[0], min_pct: 1 }, 400, 'invalid_scope'],
      [{ ...base, scope: scopes[1], sync_interval_min: 60 }, 400, 'invalid_scope'],
      [{ ...base, scope: scopes[1], watch: true }, 403, 'forbidden_scope'],
      [{ ...base, scope: scopes[2], watch: true }, 403, 'forbidden_scope'],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await call('POST', '/api/v1/rules', body, key);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.data.error.code).toBe(code);
      if (param) expect(r.body.data.error.param).toBe(param);
    }
  });

  it(`watches at most 25 counties per account (403 forbidden_scope beyond)`, async () => {
    const key = await signUp('wa@example.org');
    const counties = [
      '12086',
      '12011',
      '12099',
      '12087',
      '12021',
      '12071',
      '12015',
      '12027',
      '12043',
      '12051',
      '12085',
      '12111',
      '12061',
      '12009',
      '12117',
      '12095',
      '12097',
      '12105',
      '12057',
      '12103',
      '12101',
      '12053',
      '12017',
      '12119',
      '12069',
      '12083',
    ];
    for (const fips of counties.slice(0, 25)) {
      expect(
        (
          await call(
            'POST',
            '/api/v1/rules',
            {
              name: fips,
              scope: { kind: 'county', fips },
              watch: true,
              channels: [{ type: 'email', to: 'wa@example.org' }],
            },
            key,
          )
        ).status,
      ).toBe(201);
    }
    const over = await call(
      'POST',
      '/api/v1/rules',
      {
        name: 'one more',
        scope: { kind: 'county', fips: counties[25] },
        watch: true,
        channels: [{ type: 'email', to: 'wa@example.org' }],
      },
      key,
    );
    expect(over.status).toBe(403);
    expect(over.body.data.error).toMatchObject({
      code: 'forbidden_scope',
      message: expect.stringMatching(/at most 25 counties/),
    });
    // a second rule on a county already watched costs nothing
    expect(
      (
        await call(
          'POST',
          '/api/v1/rules',
          {
            name: 'again',
            scope: { kind: 'county', fips: counties[0] },
            watch: true,
            channels: [{ type: 'email', to: 'wa@example.org' }],
          },
          key,
        )
      ).status,
    ).toBe(201);
  });

  it('rotates a webhook secret with a grace window, and POST /api/v1/alerts/subscribe stays 410', async () => {
    const key = await signUp('fa@example.org');
    const created = await call(
      'POST',
      '/api/v1/rules',
      {
        name: 'TX',
        scope: { kind: 'state', state: 'tx' },
        channels: [{ type: 'webhook', url: 'https://hooks.example.com/tx' }],
      },
      key,
    );
    const ch = created.body.data.channel_status[0];
    const rotated = await call(
      'POST',
      `/api/v1/rules/${created.body.data.id}/channels/${ch.id}/rotate-secret`,
      { grace_hours: 2 },
      key,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(ch.signing_secret);
    expect(Date.parse(rotated.body.data.previous_secret_expires_at) - clock().getTime()).toBe(2 * 3_600_000);
    const [row] = await sql.query<{ previous_secret: string }>('SELECT previous_secret FROM channels WHERE id = $1', [
      ch.id,
    ]);
    expect(row.previous_secret).toBe(ch.signing_secret);
    const gone = await call('POST', '/api/v1/alerts/subscribe', { email: 'x@y.z' });
    expect(gone.status).toBe(410);
    expect(gone.body.data.error.code).toBe('gone');
  });
});

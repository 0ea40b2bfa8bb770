// Rule matching for each scope, thresholds (and the end of an outage reaching whoever got its start), feed events,
// and quiet hours.
import { describe, expect, it } from 'vitest';
import { matches, releaseAt, ruleInput, type Rule } from './rules.ts';
import { eventDeliveries } from './fan-out.ts';
import { INCIDENT_DELIVERIES_PER_CYCLE } from './delivery-policy.ts';
import type { ChannelRow } from './account-types.ts';
import type { PublicEvent } from '../contract/events.ts';

const rule = (over: Partial<Rule>): Rule => ({
  id: 'r',
  account_id: 'a',
  name: 'n',
  scope_kind: 'county',
  scope_value: '12086',
  scope_state: null,
  kinds: [
    'outage_began',
    'outage_grew',
    'etr_changed',
    'outage_improving',
    'outage_restored',
    'major_event',
    'feed_stale',
    'feed_recovered',
  ],
  min_customers: 0,
  min_pct: null,
  quiet_start: null,
  quiet_end: null,
  quiet_tz: null,
  watched: [],
  ...over,
});
const ev = (over: Partial<PublicEvent>): PublicEvent => ({
  id: 1,
  at: '2026-09-01T08:00:00.000Z',
  kind: 'outage_began',
  scope: 'county',
  fips: '12086',
  state: 'FL',
  states: ['FL'],
  utility: null,
  area: null,
  source_id: null,
  outage_id: 'o',
  customers_out: 1000,
  pct_out: 0.5,
  threshold: 500,
  previous_customers_out: null,
  etr: null,
  previous_etr: null,
  county_name: null,
  title: 't',
  link: '/',
  ...over,
});

const county = ev({});
const municipality = ev({
  scope: 'municipality',
  area: 'Hialeah',
  utility: 'Florida Power & Light',
  customers_out: 300,
});
const utility = ev({ scope: 'utility', fips: null, utility: 'Florida Power & Light', customers_out: 90_000 });
const elsewhere = ev({ fips: '12011', state: 'FL' });
const otherState = ev({ fips: '48201', state: 'TX', states: ['TX'] });

describe('rule matching by scope', () => {
  it.each([
    ['county 12086', rule({}), [county, municipality], [utility, elsewhere, otherState]],
    [
      'state FL',
      rule({ scope_kind: 'state', scope_value: 'FL' }),
      [county, municipality, elsewhere, utility],
      [otherState, { ...utility, state: 'GA', states: ['GA'] as string[] }],
    ],
    [
      'state NC: a VA;NC utility event',
      rule({ scope_kind: 'state', scope_value: 'NC' }),
      [{ ...utility, state: 'VA', states: ['VA', 'NC'] as string[] }],
      [otherState, { ...utility, state: 'VA', states: ['VA'] as string[] }],
    ],
    [
      'utility FPL',
      rule({ scope_kind: 'utility', scope_value: 'Florida Power & Light' }),
      [municipality, utility],
      [county, elsewhere],
    ],
    [
      'municipality Hialeah in 12086',
      rule({ scope_kind: 'municipality', scope_value: 'hialeah', scope_state: '12086' }),
      [municipality],
      [county, utility, { ...municipality, fips: '12011' }],
    ],
  ] as const)('%s', (_, r, yes, no) => {
    for (const e of yes) expect(matches(r, e), JSON.stringify(e)).toBe(true);
    for (const e of no) expect(matches(r, e), JSON.stringify(e)).toBe(false);
  });

  it('incident watches receive only incident events: of a county, of a source, of one incident', () => {
    const inc = ev({
      scope: 'incident',
      fips: '06001',
      state: 'CA',
      utility: 'Pacific Gas & Electric',
      source_id: 'pge',
      incident_id: '42',
      customers_out: 300,
      pct_out: null,
    });
    const county = rule({ scope_kind: 'county_incidents', scope_value: '06001', min_customers: 100 });
    const source = rule({ scope_kind: 'utility_incidents', scope_value: 'pge', min_customers: 100 });
    const one = rule({ scope_kind: 'incident', scope_value: '42', scope_state: 'pge' });
    for (const r of [county, source, one]) expect(matches(r, inc), r.scope_kind).toBe(true);
    expect(matches(county, { ...inc, fips: '06013' })).toBe(false);
    expect(matches(source, { ...inc, source_id: 'sce' })).toBe(false);
    expect(matches(one, { ...inc, incident_id: '43' })).toBe(false);
    expect(matches(one, { ...inc, source_id: 'sce' })).toBe(false);
    expect(matches({ ...source, min_customers: 301 }, inc)).toBe(false);
    const ended = { ...inc, kind: 'outage_restored' as const, customers_out: 0, previous_customers_out: 300 };
    expect(matches({ ...source, min_customers: 300 }, ended)).toBe(true);
    // neither kind of rule reaches across: a county rule never gets incident events, a watch never county events
    expect(matches(rule({ scope_value: '06001' }), inc)).toBe(false);
    expect(matches(county, { ...inc, scope: 'county', customers_out: 5000 })).toBe(false);
  });

  it(`caps one account's incident deliveries a cycle at ${INCIDENT_DELIVERIES_PER_CYCLE}, whatever its rules and targets`, () => {
    const channel = (id: string, rule_id: string, target: string): ChannelRow => ({
      ...{ id, rule_id, kind: 'webhook', target, target_key: target, secret: 's', previous_secret: null },
      ...{ previous_secret_expires_at: null, status: 'active', consecutive_failures: 0 },
      ...{ disabled_at: null, disabled_reason: null },
    });
    const watch = (id: string, account_id: string) =>
      rule({ id, account_id, scope_kind: 'utility_incidents', scope_value: 'pge', min_customers: 100 });
    const rules = [
      { rule: watch('r1', 'a'), channels: [channel('c1', 'r1', 'https://a.example/1')] },
      { rule: watch('r2', 'a'), channels: [channel('c2', 'r2', 'https://a.example/2')] },
      { rule: watch('r3', 'b'), channels: [channel('c3', 'r3', 'https://b.example/1')] },
    ];
    const storm = Array.from({ length: 400 }, (_, i) =>
      ev({ id: i + 1, scope: 'incident', source_id: 'pge', incident_id: String(i), customers_out: 200 }),
    );
    const { rows, capped } = eventDeliveries(storm, rules, new Date('2026-09-01T08:00:00Z'), 'https://outage.test');
    const perAccount = (a: string) => rows.filter((r) => (a === 'a' ? r[1] !== 'c3' : r[1] === 'c3')).length;
    expect([perAccount('a'), perAccount('b')]).toEqual([INCIDENT_DELIVERIES_PER_CYCLE, INCIDENT_DELIVERIES_PER_CYCLE]);
    expect(capped).toEqual(
      new Map([
        ['a', 2 * 400 - INCIDENT_DELIVERIES_PER_CYCLE],
        ['b', 400 - INCIDENT_DELIVERIES_PER_CYCLE],
      ]),
    );
    // county events are not counted against the incident cap
    const counties = storm.map((e) => ({ ...e, scope: 'county' as const, fips: '12086' }));
    const countyRules = [{ rule: rule({ account_id: 'a' }), channels: [channel('c4', 'r', 'https://a.example/3')] }];
    expect(eventDeliveries(counties, countyRules, new Date(), 'https://outage.test').rows).toHaveLength(400);
  });

  it('applies kinds and thresholds; the end of an outage counts its size before', () => {
    expect(matches(rule({ kinds: ['outage_restored'] }), county)).toBe(false);
    expect(matches(rule({ min_customers: 1001 }), county)).toBe(false);
    expect(matches(rule({ min_customers: 1000 }), county)).toBe(true);
    expect(matches(rule({ min_pct: 1 }), county)).toBe(false);
    expect(matches(rule({ min_pct: 0.5 }), county)).toBe(true);
    expect(matches(rule({ min_pct: 0.1 }), ev({ pct_out: null }))).toBe(false);
    const restored = ev({ kind: 'outage_restored', customers_out: 20, previous_customers_out: 5_000 });
    expect(matches(rule({ min_customers: 1000 }), restored)).toBe(true);
    expect(
      matches(
        rule({ min_customers: 1000 }),
        ev({ kind: 'outage_grew', customers_out: 20, previous_customers_out: 5_000 }),
      ),
    ).toBe(false);
    expect(matches(rule({ min_customers: 10_000 }), ev({ kind: 'feed_stale', customers_out: null }))).toBe(true);
  });

  it("holds deliveries in quiet hours until the window ends, in the rule's time zone", () => {
    const r = rule({ quiet_start: '22:00', quiet_end: '07:00', quiet_tz: 'America/New_York' });
    // 03:00 UTC = 23:00 EDT: quiet until 07:00 EDT = 11:00 UTC
    expect(releaseAt(r, new Date('2026-09-01T03:00:00Z')).toISOString()).toBe('2026-09-01T11:00:00.000Z');
    // 15:00 UTC = 11:00 EDT: not quiet
    expect(releaseAt(r, new Date('2026-09-01T15:00:00Z')).toISOString()).toBe('2026-09-01T15:00:00.000Z');
    expect(
      releaseAt(
        rule({ quiet_start: '12:00', quiet_end: '13:00', quiet_tz: 'UTC' }),
        new Date('2026-09-01T12:30:00Z'),
      ).toISOString(),
    ).toBe('2026-09-01T13:00:00.000Z');
  });

  it('validates rule input with defaults', () => {
    const r = ruleInput.parse({
      name: 'x',
      scope: { kind: 'state', state: 'fl' },
      channels: [{ type: 'email', to: 'a@b.org' }],
    });
    expect(r).toMatchObject({
      scope: { state: 'FL' },
      min_customers: 0,
      min_pct: null,
      watch: false,
      sync_interval_min: null,
    });
    expect(r.kinds).not.toContain('feed_stale');
    expect(
      ruleInput.safeParse({
        name: 'x',
        scope: { kind: 'county', fips: '12086' },
        quiet_hours: { start: '25:00', end: '07:00', timezone: 'UTC' },
        channels: [{ type: 'email', to: 'a@b.org' }],
      }).success,
    ).toBe(false);
    expect(
      ruleInput.safeParse({
        name: 'x',
        scope: { kind: 'county', fips: '12086' },
        quiet_hours: { start: '22:00', end: '07:00', timezone: 'Mars/Olympus' },
        channels: [{ type: 'email', to: 'a@b.org' }],
      }).success,
    ).toBe(false);
    expect(
      ruleInput.safeParse({
        name: 'x',
        scope: { kind: 'county', fips: '12086' },
        sync_interval_min: 5,
        channels: [{ type: 'email', to: 'a@b.org' }],
      }).success,
    ).toBe(false);
  });
});

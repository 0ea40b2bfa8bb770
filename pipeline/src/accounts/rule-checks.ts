// What a rule is checked against before it is saved: a scope that exists (a county FIPS code, a state code), channel
// URLs that are safe to send to (safety.ts), `watch` only on a county's scope, within the account's cap of watched
// counties, and an incident watch's size (checkIncidentWatch).
import { loadAtlas } from '../geo/counties.ts';
import { findState } from '../geo/states.ts';
import { err } from './account-errors.ts';
import type { Account } from './account-types.ts';
import { INCIDENT_EVENT_MIN } from '../state/lifecycle.ts';
import { INCIDENT_SCOPES, MAX_WATCHED_PER_ACCOUNT, type ChannelInput, type RuleInput } from './rules.ts';
import { urlProblem, type SafetyOptions } from './safety.ts';
import type { Sql } from './sql.ts';

export function checkScope(scope: RuleInput['scope']): void {
  const atlas = loadAtlas();
  if ('fips' in scope && !atlas.byFips.has(scope.fips)) throw err.scope(`\`${scope.fips}\` is not a county FIPS code.`);
  if (scope.kind === 'state' && !findState(scope.state)) throw err.scope(`\`${scope.state}\` is not a state code.`);
}

/**
 * An incident watch of a county or a utility names a size of at least the incident threshold (below it no incident
 * events exist: a smaller figure would read as a promise); incident events carry no pct_out and no sync push.
 */
export function checkIncidentWatch(input: RuleInput): void {
  if (!INCIDENT_SCOPES.has(input.scope.kind)) return;
  if (input.scope.kind !== 'incident' && input.min_customers < INCIDENT_EVENT_MIN)
    throw err.scope(
      `An incident watch of a county or utility needs \`min_customers\` of at least ${INCIDENT_EVENT_MIN} (the incident threshold), got ${input.min_customers}.`,
    );
  if (input.min_pct !== null)
    throw err.scope('Incident events carry no `pct_out`: leave `min_pct` null on an incident watch.');
  if (input.sync_interval_min !== null)
    throw err.scope(
      'Sync pushes are of a county, state or utility scope: leave `sync_interval_min` null on an incident watch.',
    );
}

export function checkChannels(channels: ChannelInput[], safety: SafetyOptions): void {
  channels.forEach((c, i) => {
    if (c.type === 'email') return;
    const why = urlProblem(c.url, safety);
    if (why) throw err.unsafe(`channels.${i}.url`, why);
  });
}

/** The counties the rule watches (its county, with `watch`); `exceptRule`: the rule being replaced. */
export async function watchedFor(tx: Sql, a: Account, input: RuleInput, exceptRule?: string): Promise<string[]> {
  if (!input.watch) return [];
  if (!('fips' in input.scope))
    throw err.forbidden(
      "`watch` hardens the polling of a county's sources: use a county, municipality or county_incidents scope.",
    );
  const watched = [input.scope.fips];
  const [{ n }] = await tx.query<{ n: number }>(
    'SELECT count(DISTINCT w)::INT AS n FROM rules, unnest(watched) AS w WHERE account_id = $1 AND id <> $2 AND w <> $3',
    [a.id, exceptRule ?? '', input.scope.fips],
  );
  if (n + 1 > MAX_WATCHED_PER_ACCOUNT)
    throw err.forbidden(`An account can watch at most ${MAX_WATCHED_PER_ACCOUNT} counties.`);
  return watched;
}

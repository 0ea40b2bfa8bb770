// What a rule is checked against before it is saved: a scope that exists (a county FIPS code, a state code), channel
// URLs that are safe to send to (safety.ts), and `watch` only on a county or municipality, within the account's cap
// of watched counties.
import { loadAtlas } from '../geo/counties.ts';
import { findState } from '../geo/states.ts';
import { err } from './account-errors.ts';
import type { Account } from './account-types.ts';
import { MAX_WATCHED_PER_ACCOUNT, type ChannelInput, type RuleInput } from './rules.ts';
import { urlProblem, type SafetyOptions } from './safety.ts';
import type { Sql } from './sql.ts';

export function checkScope(scope: RuleInput['scope']): void {
  const atlas = loadAtlas();
  if ((scope.kind === 'county' || scope.kind === 'municipality') && !atlas.byFips.has(scope.fips))
    throw err.scope(`\`${scope.fips}\` is not a county FIPS code.`);
  if (scope.kind === 'state' && !findState(scope.state)) throw err.scope(`\`${scope.state}\` is not a state code.`);
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
  if (input.scope.kind === 'state' || input.scope.kind === 'utility')
    throw err.forbidden("`watch` hardens the polling of a county's sources: use a county or municipality scope.");
  const watched = [input.scope.fips];
  const [{ n }] = await tx.query<{ n: number }>(
    'SELECT count(DISTINCT w)::INT AS n FROM rules, unnest(watched) AS w WHERE account_id = $1 AND id <> $2 AND w <> $3',
    [a.id, exceptRule ?? '', input.scope.fips],
  );
  if (n + 1 > MAX_WATCHED_PER_ACCOUNT)
    throw err.forbidden(`An account can watch at most ${MAX_WATCHED_PER_ACCOUNT} counties.`);
  return watched;
}

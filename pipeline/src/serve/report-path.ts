// The report paths' parameter checks (year, state, county): part of routing, so they stay light (the report answers
// themselves are in reports-fn.ts, loaded on first use).
import { badFips, badYear, countyNotInState, unknownState, type ApiError } from '../contract/errors.ts';
import { findState } from '../geo/states.ts';
import { loadAtlas } from '../geo/counties.ts';

let reportStates: Set<string> | undefined;
/** The states (and territories) the report tables cover: those with counties in the atlas. */
const statesWithCounties = () => (reportStates ??= new Set(loadAtlas().counties.map((c) => c.state)));

/** Checks the report path parameters present: an error, 'redirect' (upper-case state), or null when fine. */
export function checkReportPath(params: Record<string, string>): ApiError | 'redirect' | null {
  if (params.year !== undefined && !/^\d{4}$/.test(params.year)) return badYear(params.year);
  if (params.state !== undefined) {
    const st = /^[A-Za-z]{2}$/.test(params.state) ? findState(params.state) : undefined;
    if (!st || !statesWithCounties().has(st.code)) return unknownState(params.state);
    if (params.state !== params.state.toLowerCase()) return 'redirect';
  }
  if (params.county !== undefined) {
    if (!/^\d{5}$/.test(params.county)) return badFips(params.county);
    if (loadAtlas().byFips.get(params.county)?.state.toLowerCase() !== params.state)
      return countyNotInState(params.county, params.state);
  }
  return null;
}

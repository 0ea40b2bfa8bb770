// Browser (and tests): search by place over the tables of /api/v1/places. No DOM here: the search page
// (search-page.js) draws what `search` returns. A query is a ZIP code ("33101", "33101-1234"), or a county or town name
// with an optional kind and state ("Harris County", "Harris, TX", "orlando fl", "St. Lucie County, Florida").

/** Share of the matches' population a county needs to be the answer outright (otherwise: a list to choose from). */
export const DOMINANT_SHARE = 0.9;
export const MAX_RESULTS = 12;
const MIN_PREFIX = 3;

const COUNTY_KIND = /\s+(county|parish|borough|census area|city and borough|municipality|municipio)$/;

/** Name → comparison key: case, accents, punctuation and spaces folded; St./Ste./Ft./Mt. spelled out. */
export function nameKey(s) {
  return String(s)
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\b(st|ste|ft|mt)\b\.?/g, (_, w) => ({ st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount' })[w])
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The query's parts: { zip } for a ZIP code; else { name, state (USPS code or null), county (a kind word was given) }.
 * `states`: [[code, name], …]. Null for an empty query.
 */
export function parseQuery(text, states) {
  let q = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!q) return null;
  const zip = /^(\d{5})(?:-?\d{4})?$/.exec(q);
  if (zip) return { zip: zip[1] };
  let state = null;
  for (const [code, name] of states) {
    const m = new RegExp(`(?:,\\s*|\\s+)(${code}|${name.replace(/ /g, '\\s+')})\\.?$`, 'i').exec(q);
    if (m && m.index > 0) {
      state = code;
      q = q.slice(0, m.index).trim();
      break;
    }
  }
  q = q.replace(/,$/, '').trim();
  const lower = q.toLowerCase();
  const kind = COUNTY_KIND.exec(lower);
  const county = Boolean(kind) && lower.length > kind[0].length;
  if (county) q = q.slice(0, q.length - kind[0].length);
  return { name: q, state, county };
}

/** Index of the tables, built once per set of tables: keys of county and place names. */
function prepared(tables) {
  if (tables._prepared) return tables._prepared;
  const counties = new Map();
  for (const [fips, name, state, population] of tables.counties ?? [])
    counties.set(fips, { fips, name, state, population, key: nameKey(name.toLowerCase().replace(COUNTY_KIND, '')) });
  const places = (tables.places ?? []).map(([name, state, population, shares]) => ({
    name,
    state,
    population,
    shares,
    key: nameKey(name),
  }));
  Object.defineProperty(tables, '_prepared', { value: { counties, places }, enumerable: false });
  return tables._prepared;
}

/**
 * Answers a query: { query, go, results, exact }. `results`: one row per county a match leads to, best first —
 * { fips, county, state, kind: 'zip'|'county'|'place', name, share (0–1 or null), weight }. `go`: the FIPS of the one
 * county the query means (a ZIP code in one county; a name whose matches put ≥ DOMINANT_SHARE of their population in one
 * county), else null: the caller lists `results` to choose from. `exact` is false when only name prefixes matched.
 */
export function search(tables, text, states) {
  const query = parseQuery(text, states);
  if (!query) return { query, go: null, results: [], exact: true };
  const { counties, places } = prepared(tables);
  const countyRow = (fips) => counties.get(fips);
  if (query.zip) {
    const shares = tables.zips?.[query.zip] ?? [];
    const results = shares
      .filter(([fips]) => countyRow(fips))
      .map(([fips, share]) => {
        const c = countyRow(fips);
        return { fips, county: c.name, state: c.state, kind: 'zip', name: query.zip, share, weight: share ?? 0 };
      });
    return { query, go: results.length === 1 ? results[0].fips : null, results, exact: true };
  }
  const key = nameKey(query.name);
  if (!key) return { query, go: null, results: [], exact: true };
  const inState = (state) => !query.state || state === query.state;
  const collect = (hit) => {
    const rows = [];
    for (const c of counties.values())
      if (inState(c.state) && hit(c.key))
        rows.push({
          fips: c.fips,
          county: c.name,
          state: c.state,
          kind: 'county',
          name: c.name,
          share: 1,
          weight: c.population,
        });
    if (query.county && rows.length) return rows; // "Harris County": the counties, not towns called Harris
    for (const p of places)
      if (inState(p.state) && hit(p.key))
        for (const [fips, share] of p.shares) {
          const c = countyRow(fips);
          if (c)
            rows.push({
              fips,
              county: c.name,
              state: c.state,
              kind: 'place',
              name: p.name,
              share,
              weight: p.population * (share ?? 0),
            });
        }
    return rows;
  };
  let exact = true;
  let rows = collect((k) => k === key);
  if (rows.length === 0 && key.length >= MIN_PREFIX) {
    exact = false;
    rows = collect((k) => k.startsWith(key));
  }
  rows.sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name) || a.fips.localeCompare(b.fips));
  const byCounty = new Map();
  for (const r of rows) byCounty.set(r.fips, (byCounty.get(r.fips) ?? 0) + r.weight);
  const total = [...byCounty.values()].reduce((s, w) => s + w, 0);
  const [topFips, topWeight] = [...byCounty].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
  const dominant = byCounty.size === 1 || (total > 0 && topWeight / total >= DOMINANT_SHARE);
  return { query, go: exact && dominant ? topFips : null, results: rows.slice(0, MAX_RESULTS), exact };
}

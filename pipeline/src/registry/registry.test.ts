import { describe, expect, it } from 'vitest';
import { parseRegistry, statusWithCredentials } from './registry.ts';

const HEADER = 'id,utility,state,connector,url,interval_min,tier,options';

describe('source registry', () => {
  it('parses good rows, with options JSON and several states', () => {
    const { sources, problems } = parseRegistry(
      `${HEADER}\nfpl,Florida Power & Light,FL,fpl,https://x.example/a.json,10,1,\n` +
        `dom,Dominion,VA;NC,kubra,https://kubra.io/x/currentState,5,1,"{""mask_floor"":5}"\n`,
    );
    expect(problems).toEqual([]);
    expect(sources.map((s) => [s.id, s.states, s.options])).toEqual([
      ['fpl', ['FL'], {}],
      ['dom', ['VA', 'NC'], { mask_floor: 5 }],
    ]);
  });

  it('reports a bad row with its line number and keeps the rest', () => {
    const text = [
      HEADER,
      'ok1,U,FL,fpl,https://x.example/a,10,1,',
      'bad-connector,U,FL,smoke-signal,https://x.example/a,10,1,',
      'bad-url,U,FL,fpl,not a url,10,1,',
      'bad-state,U,ZZ,fpl,https://x.example/a,10,1,',
      'bad-tier,U,FL,fpl,https://x.example/a,10,7,',
      'bad-options,U,FL,fpl,https://x.example/a,10,1,{nope',
      'ok1,U,FL,fpl,https://x.example/b,10,1,',
      'ok2,U,TX,nisc,https://x.example/c,15,3,',
    ].join('\n');
    const { sources, problems } = parseRegistry(text);
    expect(sources.map((s) => s.id)).toEqual(['ok1', 'ok2']);
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(problems[0].message).toMatch(/connector must be one of kubra, nisc, arcgis, odin, fpl/);
    expect(problems[5].message).toMatch(/appears twice/);
  });

  it('refuses a file without the required columns, naming them', () => {
    expect(() => parseRegistry('id,utility,url\na,b,https://x')).toThrow(
      /lacks required column\(s\) state, connector, interval_min, tier/,
    );
  });

  it('reads eia_id as a list of EIA-861 utility numbers, on active and inactive rows', () => {
    const r = parseRegistry(
      `${HEADER},eia_id,status,status_reason\n` +
        'duke-ish,D,NC;SC,kubra,https://kubra.io/x/currentState,5,1,,5416;3046,active,\n' +
        'none,N,FL,fpl,https://x.example/a.json,10,1,,,active,\n' +
        'gated,G,NC,duke,https://x.example/b,10,1,,3046,gated,needs keys\n',
    );
    expect(r.sources.map((s) => [s.id, s.eia_ids])).toEqual([
      ['duke-ish', ['5416', '3046']],
      ['none', []],
    ]);
    expect(r.inactive.map((s) => [s.id, s.eia_ids])).toEqual([['gated', ['3046']]]);
  });
});

describe('the shipped example registry', () => {
  it('parses without problems', async () => {
    const { loadRegistry } = await import('./registry.ts');
    const { sources, problems } = loadRegistry(new URL('../../../sources.example.csv', import.meta.url).pathname);
    expect(problems).toEqual([]);
    expect(new Set(sources.map((s) => s.connector))).toEqual(new Set(['kubra', 'nisc', 'arcgis', 'odin', 'fpl']));
  });
});

describe('row status', () => {
  const text = [
    'id,utility,state,connector,url,interval_min,tier,status,status_reason',
    'on,On,FL,fpl,https://a.test/x.json,10,2,active,',
    'keyed,Keyed,NC,duke,https://b.test/y,10,1,gated,its API keys live in the page JavaScript',
    'later,Later,TX,tep,https://c.test/z,15,3,disabled,not yet wired',
    'old,Old,FL,fpl,https://d.test/x.json,10,2,,',
    'odd,Odd,FL,fpl,https://e.test/x.json,10,2,paused,',
  ].join('\n');
  it('polls active rows (and rows without a status) only; gated and disabled rows are listed with their reason', () => {
    const r = parseRegistry(text);
    expect(r.sources.map((s) => s.id)).toEqual(['on', 'old']);
    expect(r.inactive).toEqual([
      { line: 3, id: 'keyed', status: 'gated', status_reason: 'its API keys live in the page JavaScript', eia_ids: [] },
      { line: 4, id: 'later', status: 'disabled', status_reason: 'not yet wired', eia_ids: [] },
    ]);
    expect(r.problems).toEqual([{ line: 6, message: 'status: `paused` is not one of active, disabled, gated' }]);
  });
});

describe('credentialed rows (issue 26 part 2)', () => {
  const HEAD = `${HEADER},status,status_reason`;
  const duke =
    'duke-florida,Duke Energy Florida,FL,duke,https://prod.apigee.duke-energy.app/outage-maps/v1/counties?jurisdiction=DEF,5,1,' +
    '"{""credential_env"":""OUTAGE_CREDENTIAL_DUKE""}",gated,needs a credential: set OUTAGE_CREDENTIAL_DUKE';
  const text = `${HEAD}\n${duke}\n`;

  it('a gated row whose credential_env is set is active; without it, it stays gated with its reason', () => {
    const without = parseRegistry(text, { env: {} });
    expect(without.sources).toEqual([]);
    expect(without.inactive).toEqual([
      {
        line: 2,
        id: 'duke-florida',
        status: 'gated',
        status_reason: 'needs a credential: set OUTAGE_CREDENTIAL_DUKE',
        eia_ids: [],
      },
    ]);
    const withIt = parseRegistry(text, { env: { OUTAGE_CREDENTIAL_DUKE: 'key:secret' } });
    expect(withIt.inactive).toEqual([]);
    expect(withIt.sources.map((s) => [s.id, s.connector, s.options])).toEqual([
      ['duke-florida', 'duke', { credential_env: 'OUTAGE_CREDENTIAL_DUKE' }],
    ]);
    expect(withIt.problems).toEqual([]);
  });

  it('only gated rows, only a set non-blank variable, only options that are a JSON object', () => {
    const env = { SET: 'x', BLANK: '  ' };
    const opts = (name: string) => JSON.stringify({ credential_env: name });
    expect(statusWithCredentials('gated', opts('SET'), env)).toBe('active');
    expect(statusWithCredentials('gated', opts('BLANK'), env)).toBe('gated');
    expect(statusWithCredentials('gated', opts('UNSET'), env)).toBe('gated');
    expect(statusWithCredentials('disabled', opts('SET'), env)).toBe('disabled');
    expect(statusWithCredentials('gated', '{"credential_env": 5}', env)).toBe('gated');
    expect(statusWithCredentials('gated', '{nope', env)).toBe('gated');
    expect(statusWithCredentials('gated', '["SET"]', env)).toBe('gated');
    expect(statusWithCredentials('gated', undefined, env)).toBe('gated');
  });

  it('lets a public row step aside for the credentialed row of the same utility while its variable is set', () => {
    const text = [
      'id,utility,state,connector,url,interval_min,tier,options,eia_id,status,status_reason',
      'duke-florida,Duke Energy Florida,FL,duke,https://prod.apigee.duke-energy.app/outage-maps/v1/counties?jurisdiction=DEF,5,1,"{""credential_env"":""OUTAGE_CREDENTIAL_DUKE""}",6455,gated,needs a credential',
      'duke-florida-arcgis,Duke Energy Florida,FL,arcgis,https://services3.arcgis.com/x/ArcGIS/rest/services/Duke/FeatureServer/0,5,1,"{""yields_to_credential"":""OUTAGE_CREDENTIAL_DUKE""}",6455,active,',
    ].join('\n');
    const ids = (env: Record<string, string>) => parseRegistry(text, { env }).sources.map((s) => s.id);
    expect(ids({})).toEqual(['duke-florida-arcgis']);
    expect(ids({ OUTAGE_CREDENTIAL_DUKE: 'key:secret' })).toEqual(['duke-florida']);
    expect(ids({ OUTAGE_CREDENTIAL_DUKE: '  ' })).toEqual(['duke-florida-arcgis']);
    const stepped = parseRegistry(text, { env: { OUTAGE_CREDENTIAL_DUKE: 'k' } }).inactive;
    expect(stepped).toEqual([
      expect.objectContaining({
        id: 'duke-florida-arcgis',
        status: 'disabled',
        status_reason: 'steps aside while OUTAGE_CREDENTIAL_DUKE is set: the credentialed row polls the same utility',
      }),
    ]);
  });
});

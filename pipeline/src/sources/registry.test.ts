import { describe, expect, it } from 'vitest';
import { parseRegistry } from './registry.ts';

const HEADER = 'id,utility,state,connector,url,interval_min,tier,options';

describe('source registry', () => {
  it('parses good rows, with options JSON and several states', () => {
    const { sources, problems } = parseRegistry(`${HEADER}\nfpl,Florida Power & Light,FL,fpl,https://x.example/a.json,10,1,\n` +
      `dom,Dominion,VA;NC,kubra,https://kubra.io/x/currentState,5,1,"{""mask_floor"":5}"\n`);
    expect(problems).toEqual([]);
    expect(sources.map((s) => [s.id, s.states, s.options])).toEqual([['fpl', ['FL'], {}], ['dom', ['VA', 'NC'], { mask_floor: 5 }]]);
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
    expect(() => parseRegistry('id,utility,url\na,b,https://x')).toThrow(/lacks required column\(s\) state, connector, interval_min, tier/);
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

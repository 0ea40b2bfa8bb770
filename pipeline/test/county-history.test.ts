// County profile and history endpoints over imported EAGLE-I history, through the function layer app.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { fixedClock } from '../src/clock.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { Db } from '../src/state/db.ts';
import { importEagleI, importMcc } from '../src/history/import.ts';
import { deriveEpisodes } from '../src/history/derive.ts';
import { countyModel, loadCountyModel } from '../src/geo/county-model.ts';
import { createApp } from '../src/serve/app.ts';
import { hasSharedData, sharedPath } from './shared-data.ts';
import { pngSize } from '../src/publish/charts.ts';
import { testTempDir } from './clean-machine.ts';

describe.skipIf(!hasSharedData)('county profile and history', () => {
  it('publishes imported history for the county and answers the others from the live document', async () => {
    const dir = testTempDir('history');
    const state = path.join(dir, 'state');
    const db = await Db.open(state);
    await importEagleI(db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
    await importMcc(db, sharedPath('reference/eaglei/MCC_texas_slice.csv'));
    await deriveEpisodes(db, await countyModel(db, loadCountyModel()));
    db.close();
    // One source that cannot be reached: the cycle still publishes (and records the failure).
    const { sources } = parseRegistry(
      'id,utility,state,connector,url,interval_min,tier\nx,Unreachable Power,TX,nisc,http://127.0.0.1:9/summary.json,15,3\n',
    );
    const p = await Pipeline.open({
      stateDir: state,
      outDir: path.join(dir, 'public'),
      sources,
      clock: fixedClock(new Date('2026-09-01T00:00:00Z')),
      simulated: false,
      http: { connectTimeoutMs: 500 },
    });
    try {
      expect((await p.cycle()).failed).toBe(1);
      const cycleManifest = JSON.parse(fs.readFileSync(path.join(dir, 'public', '.manifest.json'), 'utf8'));
      expect(cycleManifest.files['api/v1/counties/48201.chart.decade.png']).toBeUndefined(); // cycles do not render charts
      await p.build({ charts: true });
    } finally {
      await p.close();
    }
    const app = createApp({ outDir: path.join(dir, 'public') });
    const profile = (await (await app.request('/api/v1/counties/48201')).json()).data;
    expect(profile).toMatchObject({
      fips: '48201',
      name: 'Harris',
      state: 'TX',
      customers_source: 'eaglei_mcc',
      history_loaded: true,
    });
    expect(profile.years[0]).toMatchObject({ year: 2024 });
    // The loaded years (the Beryl slice is 2024 only): the decade chart marks the other years as not loaded.
    expect(profile.years_loaded).toEqual([2024]);
    expect(profile.neighbours).toContain('48157'); // Fort Bend
    const history = (await (await app.request('/api/v1/counties/48201/history')).json()).data;
    expect(history.worst_events[0].peak).toBe(1_660_703);
    expect(history.episode_rule.gap_minutes).toBe(60);
    const csv = parse(await (await app.request('/api/v1/counties/48201/history?format=csv')).text(), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(csv.reduce((s, r) => s + Number(r.episodes), 0)).toBe(profile.years[0].episodes);
    const quiet = await app.request('/api/v1/counties/01001');
    expect(quiet.status).toBe(200);
    expect((await quiet.json()).data).toMatchObject({ fips: '01001', history_loaded: false, years: [] });
    const quietCsv = await (await app.request('/api/v1/counties/01001/history?format=csv')).text();
    expect(quietCsv.trim()).toBe('fips,name,state,year,month,episodes,customer_hours,max_out,source');
    // Charts: prebuilt for the county with history, drawn by the function layer for the others; all 1200 × 630.
    for (const url of [
      '/api/v1/counties/48201/chart/decade',
      '/api/v1/counties/48201/chart/monthly',
      '/api/v1/counties/48201/chart/live',
      '/api/v1/counties/01001/chart/decade',
    ]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(pngSize(Buffer.from(await res.arrayBuffer())), url).toEqual({ width: 1200, height: 630 });
    }
    expect((await app.request('/api/v1/counties/99999/chart/live')).status).toBe(404);
    // A chart drawn on request has a strong ETag of its bytes: the same request with it is a 304 without a body.
    const drawn = await app.request('/api/v1/counties/48201/chart/live');
    const tag = drawn.headers.get('etag');
    expect(tag).toMatch(/^"[\w-]{27}"$/);
    const held = await app.request('/api/v1/counties/48201/chart/live', { headers: { 'If-None-Match': tag! } });
    expect(held.status).toBe(304);
    expect(held.headers.get('etag')).toBe(tag);
    expect((await held.arrayBuffer()).byteLength).toBe(0);
    expect(
      (await app.request('/api/v1/counties/48201/chart/live', { headers: { 'If-None-Match': '"x"' } })).status,
    ).toBe(200);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'public', '.manifest.json'), 'utf8'));
    const chart = manifest.files['api/v1/counties/48201.chart.decade.png'];
    expect(chart).toBeDefined();
    // A later cycle with the same history carries the chart over without rendering it again.
    const again = await Pipeline.open({
      stateDir: state,
      outDir: path.join(dir, 'public'),
      sources,
      clock: fixedClock(new Date('2026-09-01T01:00:00Z')),
      simulated: false,
      http: { connectTimeoutMs: 500 },
    });
    try {
      await again.cycle();
    } finally {
      await again.close();
    }
    const after = JSON.parse(fs.readFileSync(path.join(dir, 'public', '.manifest.json'), 'utf8'));
    expect(after.files['api/v1/counties/48201.chart.decade.png']).toEqual(chart);
    expect((await app.request('/api/v1/counties/99999')).status).toBe(404);
    expect((await app.request('/api/v1/counties/9999/history')).status).toBe(400);
  });
});

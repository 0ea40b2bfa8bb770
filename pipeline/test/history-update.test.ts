// `outage history update` over loopback HTTP serving real files from ../shared/data: first run imports and publishes;
// a second run finds everything unchanged; then a 404, a zip member whose layout changed and a changed EAGLE-I file —
// the failures are reported, the previous rows and published report files stay, the changed file is imported.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../src/cli/history-update.ts';
import { loadHistorySources, parseHistorySources } from '../src/history/update-config.ts';
import { derivePublish, readUpdateState, updateHistory, type FileOutcome } from '../src/history/update.ts';
import { Db } from '../src/state/db.ts';
import { hasSharedData, sharedPath } from './shared-data.ts';

const read = (rel: string) => fs.readFileSync(sharedPath(rel));
const zipOf = (name: string, body: Buffer): Buffer => {
  const cfb = XLSX.CFB.utils.cfb_new();
  XLSX.CFB.utils.cfb_add(cfb, name, body);
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer', fileType: 'zip' }));
};
/** Events in a DOE Annual_Summary: rows whose "Date Event Began" is a date (plain counting, not the importer). */
const annualEvents = (rel: string) => {
  const wb = XLSX.read(read(rel));
  const rows = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true });
  const h = rows.findIndex((r) => r.includes('Date Event Began'));
  const at = rows[h].indexOf('Date Event Began');
  return rows
    .slice(h + 1)
    .filter((r) => typeof r[at] === 'number' || /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(String(r[at] ?? ''))).length;
};
/** Every published file and its sha256. */
const tree = (dir: string, root = dir): Record<string, string> =>
  Object.assign(
    {},
    ...fs.readdirSync(dir, { withFileTypes: true }).map((d) => {
      const p = path.join(dir, d.name);
      return d.isDirectory()
        ? tree(p, root)
        : { [path.relative(root, p)]: createHash('sha256').update(fs.readFileSync(p)).digest('hex') };
    }),
  );

it('the shipped data/history-sources.json parses: every kind present, zips name their member', () => {
  const sources = loadHistorySources(new URL('../../data/history-sources.json', import.meta.url).pathname);
  expect(new Set(sources.map((s) => s.kind))).toEqual(new Set(['eaglei', 'mcc', 'coverage', 'oe417', 'eia861']));
  for (const s of sources.filter((x) => x.url.endsWith('.zip'))) expect(s.member, s.id).toMatch(/\.xlsx$/);
  for (const s of sources.filter((x) => x.kind === 'eaglei')) expect(s.fileName).toMatch(/^eaglei_outages_\d{4}\.csv$/);
  expect(() => parseHistorySources({ files: [{ id: 'x', kind: 'nope', url: 'https://a/b' }] }, 'f')).toThrow(
    /f: files\.0\.kind: kind must be one of/,
  );
});

describe.skipIf(!hasSharedData)('outage history update', () => {
  const routes = new Map<string, { status: number; body: Buffer }>();
  let server: http.Server;
  let tmp = '';
  let db: Db;
  let base = '';
  let eaglei: Buffer; // read in beforeAll: this body runs at collection, even when the suite is skipped
  const config = () =>
    parseHistorySources(
      {
        files: [
          { id: 'oe417-2020', kind: 'oe417', url: `${base}/doe/download?id=2020`, name: '2020_Annual_Summary.xls' },
          { id: 'eia861-2018-rel', kind: 'eia861', url: `${base}/eia/f8612018.zip`, member: 'Reliability_2018.xlsx' },
          { id: 'eaglei-2024', kind: 'eaglei', url: `${base}/files/53581661`, name: 'eaglei_outages_2024.csv' },
          { id: 'oe417-2021', kind: 'oe417', url: `${base}/doe/download?id=2021`, enabled: false },
        ],
      },
      'test config',
    );
  const counts = async () => ({
    oe417: (await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM oe417_events WHERE year = 2020'))[0].n,
    eia: (await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM eia861_reliability WHERE year = 2018'))[0].n,
    eaglei: (await db.all<{ n: number }>("SELECT count(*)::INT AS n FROM eaglei_outages WHERE fips = '48201'"))[0].n,
  });
  const run = (sources = config()) =>
    updateHistory(db, sources, { stateFile: path.join(tmp, 'state', 'history-update.json'), now: new Date() });
  const statuses = (o: FileOutcome[]) => Object.fromEntries(o.map((x) => [x.id, x.status]));

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-update-'));
    eaglei = read('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv');
    routes.set('/doe/download?id=2020', { status: 200, body: read('history/oe417/2020_Annual_Summary.xls') });
    routes.set('/eia/f8612018.zip', {
      status: 200,
      body: zipOf('Reliability_2018.xlsx', read('reference/eia861/Reliability_2018.xlsx')),
    });
    routes.set('/files/53581661', { status: 200, body: eaglei });
    server = http.createServer((req, res) => {
      const r = routes.get(req.url ?? '') ?? { status: 404, body: Buffer.from('not found') };
      res.writeHead(r.status, { 'content-length': r.body.length }).end(r.body);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    db = await Db.open(path.join(tmp, 'state'));
  });
  afterAll(async () => {
    db?.close();
    await new Promise((ok) => server?.close(ok));
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  let published: Record<string, string> = {};
  it('imports every enabled file, names downloads as the importers expect, then publishes the reports', async () => {
    const out = await run();
    expect(statuses(out)).toEqual({
      'oe417-2020': 'imported',
      'eia861-2018-rel': 'imported',
      'eaglei-2024': 'imported',
      'oe417-2021': 'disabled',
    });
    const lines = eaglei.toString('utf8').trim().split('\n').length - 1;
    expect(await counts()).toMatchObject({
      oe417: annualEvents('history/oe417/2020_Annual_Summary.xls'),
      eaglei: lines,
    });
    expect((await counts()).eia).toBeGreaterThan(1000);
    const state = readUpdateState(path.join(tmp, 'state', 'history-update.json'));
    expect(state.files['eaglei-2024'].sha256).toBe(createHash('sha256').update(eaglei).digest('hex'));
    const { published: stats } = await derivePublish(db, path.join(tmp, 'public'), new Date('2026-11-20T00:00:00Z'));
    expect(stats?.written).toBeGreaterThan(0);
    published = tree(path.join(tmp, 'public'));
    expect(Object.keys(published).length).toBeGreaterThan(0);
  });

  it('a second run finds every file unchanged and imports nothing', async () => {
    const before = await counts();
    const out = await run();
    expect(out.filter((o) => o.status === 'unchanged').map((o) => o.id)).toEqual([
      'oe417-2020',
      'eia861-2018-rel',
      'eaglei-2024',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('a 404 and a changed layout are reported, the old rows and reports stay; the changed file is imported', async () => {
    const before = await counts();
    routes.delete('/doe/download?id=2020');
    routes.set('/eia/f8612018.zip', {
      status: 200,
      body: zipOf('Reliability_2018.xlsx', read('history/oe417/2019_Annual_Summary.xls')),
    });
    const shorter = eaglei.toString('utf8').trim().split('\n').slice(0, -96).join('\n');
    routes.set('/files/53581661', { status: 200, body: Buffer.from(`${shorter}\n`) });
    const program = new Command().exitOverride();
    register(program);
    const argv = ['history', 'update', '--state', path.join(tmp, 'state'), '--out', path.join(tmp, 'public')];
    fs.writeFileSync(path.join(tmp, 'sources.json'), JSON.stringify({ files: config().map(toEntry) }));
    db.close(); // the CLI opens the state database itself
    await expect(
      program.parseAsync([...argv, '--sources-file', path.join(tmp, 'sources.json'), '--now', '2026-11-21T00:00:00Z'], {
        from: 'user',
      }),
    ).rejects.toThrow(/2 of 4 history files failed \(oe417-2020, eia861-2018-rel\)/);
    db = await Db.open(path.join(tmp, 'state'));
    expect(await counts()).toEqual({ ...before, eaglei: before.eaglei - 96 });
    const state = readUpdateState(path.join(tmp, 'state', 'history-update.json'));
    expect(state.files['oe417-2020'].last_error).toMatch(/HTTP 404/);
    expect(state.files['eia861-2018-rel'].last_error).toMatch(/not an EIA-861/);
    // The reports were published again (EAGLE-I changed); the OE-417 ones are byte-identical.
    const now = tree(path.join(tmp, 'public'));
    const oe417Files = Object.keys(published).filter((f) => /caus|disturb/.test(f));
    expect(oe417Files.length).toBeGreaterThan(0);
    for (const f of oe417Files) expect(now[f], f).toBe(published[f]);
  });

  it('when the publishers recover, files equal to the last good import are unchanged; recheck_days skips downloads', async () => {
    routes.set('/doe/download?id=2020', { status: 200, body: read('history/oe417/2020_Annual_Summary.xls') });
    routes.set('/eia/f8612018.zip', {
      status: 200,
      body: zipOf('Reliability_2018.xlsx', read('reference/eia861/Reliability_2018.xlsx')),
    });
    // EAGLE-I now rechecked only every 30 days: not downloaded at all (its URL would answer 404).
    routes.delete('/files/53581661');
    const out = await run(config().map((s) => (s.id === 'eaglei-2024' ? { ...s, recheckDays: 30 } : s)));
    expect(statuses(out)).toMatchObject({
      'oe417-2020': 'unchanged',
      'eia861-2018-rel': 'unchanged',
      'eaglei-2024': 'not_due',
    });
    expect(readUpdateState(path.join(tmp, 'state', 'history-update.json')).files['oe417-2020'].last_error).toBe(
      undefined,
    );
  });
});

/** A parsed entry back into the JSON shape of the sources file. */
function toEntry(s: ReturnType<typeof parseHistorySources>[number]) {
  return {
    id: s.id,
    kind: s.kind,
    url: s.url,
    enabled: s.enabled,
    ...(s.member ? { member: s.member } : { name: s.fileName }),
  };
}

// The Astro site builds and ships the exported tree as-is, labelled simulated when it is.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { putJson, putText } from '../src/publish/formats.ts';
import { testTempDir } from './clean-machine.ts';
import { DOCS, docsUrl } from '../../site/src/site/docs-list.ts';

const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));

describe('site', () => {
  it('builds the landing page, docs index and 404 page and ships /api/v1 files unchanged', async () => {
    const dir = testTempDir('site');
    const pub = path.join(dir, 'public');
    const out = path.join(dir, 'dist');
    const mem = new MemoryTreeWriter(new Date('2026-09-01T08:00:00Z'));
    putJson(mem, 'api/v1/live/summary.json', { simulated: true, national: { customers_out: 1234, counties_out: 5 } });
    putText(mem, 'llms.txt', '# test\n');
    await mem.commit({ simulated: true, notice: 'n' });
    for (const [rel, { body }] of mem.files) {
      fs.mkdirSync(path.dirname(path.join(pub, rel)), { recursive: true });
      fs.writeFileSync(path.join(pub, rel), body);
    }
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/astro/astro.js'), 'build', '--root', path.join(ROOT, 'site')],
      {
        cwd: ROOT,
        env: { ...process.env, OUTAGE_SITE_PUBLIC: pub, OUTAGE_SITE_OUT: out, ASTRO_TELEMETRY_DISABLED: '1' },
        stdio: 'pipe',
        timeout: 170_000, // the build is killed before the test's own timeout, so it never outlives the test
      },
    );
    const index = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(index).toContain('SIMULATED DATA');
    expect(index).toContain('1,234 customers out');
    // the page static hosts send for a path with no file, in the site's layout (issue 38 part 5)
    const missing = fs.readFileSync(path.join(out, '404.html'), 'utf8');
    expect(missing).toContain('<title>Page not found · US Power Outage Data</title>');
    expect(missing).toContain('<nav class="site-nav"');
    expect(missing).toContain('There is no page at this address.');
    const docs = fs.readFileSync(path.join(out, 'docs/index.html'), 'utf8');
    expect(docs).toContain('/api/v1/live/counties/{fips}');
    expect(docs).toContain('/api/v1/reports/{year}/{state}/{county}/data');
    expect(docs).toContain(
      '&lt;img src=&quot;https://YOUR-DEPLOYMENT/api/v1/reports/2024/tx/chart&quot; width=&quot;600&quot; height=&quot;315&quot;',
    );
    for (const d of DOCS) expect(docs, d.file).toContain(`href="${docsUrl(d.file)}"`); // the project's docs pages
    expect(fs.readFileSync(path.join(out, 'api/v1/live/summary.json'))).toEqual(
      mem.files.get('api/v1/live/summary.json')!.body,
    );
  });
});

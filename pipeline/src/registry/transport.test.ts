// Plain http in the registry (issue 26): an http:// feed needs options.plain_http saying why; the check says so.
import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { checkRegistry } from './check.ts';
import { REGISTRY_COLUMNS } from './findings.ts';
import { httpsForm, transportOf, transportProblem } from '../sources/transport.ts';

const WHY = 'the utility serves this viewer only over http, per Urban-Research-Group/outage-data-scraper';
const VIEWER = 'http://cvoutage.remc.com:8083/data/outages.json';

/** A shipped registry of one active Milsoft row, checked without the EIA reference or fixtures: its url findings. */
function urlFindings(url: string, options: Record<string, unknown>) {
  const row = {
    id: 'rutherford-emc',
    utility: 'Rutherford EMC',
    state: 'NC',
    connector: 'milsoft',
    url,
    interval_min: 15,
    tier: 3,
    options: Object.keys(options).length ? JSON.stringify(options) : '',
    status: 'active',
  };
  const text = stringify([row], { header: true, columns: [...REGISTRY_COLUMNS] });
  return checkRegistry(text, { eia: null, fixtureRoot: null })
    .problems.filter((p) => p.column === 'url')
    .map((p) => [p.severity, p.message]);
}

describe('plain http in the registry', () => {
  it('is an error without options.plain_http, saying how to fix it', () => {
    expect(urlFindings(VIEWER, { referer: 'http://cvoutage.remc.com:8083/' })).toEqual([
      ['error', expect.stringMatching(/^`http:\/\/cvoutage\.remc\.com:8083` is plain http.*"plain_http": /)],
    ]);
  });

  it('passes with options.plain_http saying why, the url matched in its https form', () => {
    expect(urlFindings(VIEWER, { plain_http: WHY })).toEqual([]);
    // the shape is still checked: a plain-http url that is not a Milsoft data file is an error
    expect(urlFindings('http://cvoutage.remc.com:8083/', { plain_http: WHY })).toEqual([
      ['error', expect.stringMatching(/does not look like a milsoft feed URL/)],
    ]);
  });

  it('wants a reason, not a flag, and no stale option on an https row', () => {
    for (const bad of [true, 'yes', ''])
      expect(urlFindings(VIEWER, { plain_http: bad })).toEqual([
        ['error', expect.stringMatching(/^options\.plain_http must say why/)],
      ]);
    expect(urlFindings('https://outage.sremc.com/data/outages.json', { plain_http: WHY })).toEqual([
      ['error', expect.stringMatching(/^options\.plain_http is set but the url is https/)],
    ]);
    expect(urlFindings('https://outage.sremc.com/data/outages.json', {})).toEqual([]);
  });

  it('leaves a test server on this machine alone (a shipped registry rejects loopback anyway)', () => {
    expect(transportProblem(new URL('http://127.0.0.1:8080/data/outages.json'), {}, true)).toBeNull();
  });

  it('names the transport the sources list publishes', () => {
    expect(transportOf(VIEWER)).toBe('plain_http');
    expect(transportOf('HTTP://host/x')).toBe('plain_http');
    expect(transportOf('https://outage.sremc.com/data/outages.json')).toBe('https');
    expect(httpsForm(VIEWER)).toBe('https://cvoutage.remc.com:8083/data/outages.json');
  });
});

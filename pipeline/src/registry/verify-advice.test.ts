// verify-advice.ts: each failure a verify run meets is classified into its kind, with the advice for that kind filled.
import { describe, expect, it } from 'vitest';
import { SourceError } from '../errors.ts';
import { ADVICE, adviceFor, explainFailure, FAILURE_KINDS, type Decisive } from './verify-advice.ts';
import { sourceDef } from '../../test/shared-data.ts';

const KUBRA = 'https://kubra.io/stormcenter/api/v1/stormcenters/3c3f0b8e/views/a1b2c3d4/currentState?preview=false';
const kubra = sourceDef({
  id: 'dte',
  connector: 'kubra',
  url: KUBRA,
  options: { referer: 'https://outage.dteenergy.com/' },
});
const wec = sourceDef({
  id: 'we',
  connector: 'wec',
  url: 'https://www.we-energies.com/outagesummary/view/OutageEventJSON',
});
const at = (url: string, status: number | null, more: Partial<Decisive> = {}): Decisive => ({ url, status, ...more });

describe('explainFailure', () => {
  it.each([
    [
      'a Kubra view answering 404',
      kubra,
      new SourceError('http_status', `${KUBRA} answered HTTP 404`, 404),
      at(KUBRA, 404),
      'kubra_view_not_found',
      /view id may have changed.*\(https:\/\/outage\.dteenergy\.com\/\).*`kubra\.io`.*`currentState`.*`stormcenters\/\{instance\}\/views\/\{view\}`.*`outage sources probe dte`/,
    ],
    [
      'a 404 elsewhere',
      wec,
      new SourceError('http_status', `${wec.url} answered HTTP 404`, 404),
      at(wec.url, 404),
      'not_found',
      /not at the row's url any more/,
    ],
    [
      'a 429 with Retry-After',
      wec,
      new SourceError('http_status', `${wec.url} answered HTTP 429 (Retry-After 120 s)`, 429, 120),
      at(wec.url, 429),
      'rate_limited',
      /slow down \(HTTP 429, Retry-After 120 s\)/,
    ],
    [
      'an HTML page with status 200',
      wec,
      new SourceError('bad_body', `${wec.url} did not return JSON (starts with "<!doctype html>")`),
      at(wec.url, 200, { contentType: 'text/html', body: '<!doctype html><title>Error</title>' }),
      'html_page',
      /an HTML page with status 200 instead of data/,
    ],
    [
      'a captcha page',
      wec,
      new SourceError('bad_body', `${wec.url} did not return JSON (starts with "<html>")`),
      at(wec.url, 200, { body: '<html><title>Just a moment...</title><div id="cf-chl-widget">' }),
      'captcha',
      /bot challenge \(captcha\)/,
    ],
    [
      'a TLS certificate error',
      wec,
      new SourceError('network', `${wec.url}: request CERT_HAS_EXPIRED certificate has expired`),
      at(wec.url, null),
      'tls_certificate',
      /openssl s_client -connect www\.we-energies\.com:443 -servername www\.we-energies\.com/,
    ],
    [
      'a name that does not resolve',
      wec,
      new SourceError('network', `${wec.url}: request ENOTFOUND getaddrinfo ENOTFOUND www.we-energies.com`),
      at(wec.url, null),
      'dns',
      /www\.we-energies\.com does not resolve/,
    ],
    [
      'a timeout',
      wec,
      new SourceError('timeout', `${wec.url}: no complete answer within the 30000 ms request deadline (body)`),
      at(wec.url, 200),
      'timeout',
      /--timeout more seconds/,
    ],
    [
      'a changed schema',
      wec,
      new SourceError(
        'schema',
        'WEC OutageEventJSON answer has an unexpected shape: events.0.Slices: Invalid input: expected array',
      ),
      at(wec.url, 200),
      'schema_changed',
      /shape changed at `events\.0\.Slices`.*the wec connector's schema\.ts/,
    ],
  ])('%s', (_label, source, error, decisive, kind, advice) => {
    const f = explainFailure(source, error, decisive);
    expect(f.kind).toBe(kind);
    expect(f.reason).toBe(error.reason);
    expect(f.message).toBe(error.message);
    expect(f.advice).toMatch(advice);
  });

  it("a timeout at the total deadline is the verification's, and says to give --deadline more", () => {
    const f = explainFailure(wec, new SourceError('timeout', 'x'), at(wec.url, null), true);
    expect(f).toMatchObject({ kind: 'deadline', reason: 'deadline' });
    expect(f.advice).toMatch(/--deadline more seconds/);
  });

  it('has advice for every kind, each placeholder filled (the Kubra ids are literal)', () => {
    expect(Object.keys(ADVICE).sort()).toEqual([...FAILURE_KINDS].sort());
    for (const kind of FAILURE_KINDS) {
      const filled = adviceFor(kind, kubra, { message: 'm', status: 500, retryAfter: 60 }, at(KUBRA, 500));
      const advice = filled.replace('{instance}', '').replace('{view}', '');
      expect(ADVICE[kind].length, kind).toBeGreaterThan(20);
      expect(advice, kind).not.toMatch(/\{\w+\}/);
    }
  });
});

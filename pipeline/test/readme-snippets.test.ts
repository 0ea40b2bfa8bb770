// The docs' code a reader copies, run as written (issue 37: the webhook signature check threw on a forged
// `v1=zz` instead of answering false). The snippet is taken from docs/alert-rules-and-webhooks.md (the README's
// section until issue 40), saved as a module and imported. The README's API calls name endpoints of the catalogue
// with parameters they take.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../src/accounts/signing.ts';
import { fromRoot } from '../src/package-root.ts';
import { testTempDir } from './clean-machine.ts';
import { CATALOGUE } from '../src/contract/catalogue.ts';
import { queryNames, unknownNames } from '../src/contract/query-params.ts';

type Verify = (header: unknown, rawBody: string, secret: string, nowS?: number) => boolean;

/** The first ```js block after the line of docs/alert-rules-and-webhooks.md containing `marker`. */
function snippetAfter(marker: string): string {
  const readme = fs.readFileSync(fromRoot('docs/alert-rules-and-webhooks.md'), 'utf8');
  const from = readme.indexOf(marker);
  expect(from, marker).toBeGreaterThan(-1);
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(from));
  expect(m, `a js block after ${marker}`).not.toBeNull();
  return m![1];
}

async function loadVerify(): Promise<Verify> {
  const file = path.join(testTempDir('readme-snippet'), 'verify.mjs');
  fs.writeFileSync(file, `${snippetAfter('- **Signing**')}\nexport { verifyServiceSignature };\n`);
  return (await import(pathToFileURL(file).href)).verifyServiceSignature as Verify;
}

describe("the docs' webhook signature check", () => {
  const secret = 'whsec_test';
  const body = '{"id":"dlv_1","type":"outage_began"}';
  const t = 1_790_000_000;

  it('accepts a real signature, from any of the secrets of a rotation', async () => {
    const verify = await loadVerify();
    expect(verify(signatureHeader([secret], t, body), body, secret, t)).toBe(true);
    expect(verify(signatureHeader(['whsec_new', secret], t, body), body, secret, t + 299)).toBe(true);
  });

  it('answers false, never throws, for forged, malformed, stale or missing headers', async () => {
    const verify = await loadVerify();
    const real = signatureHeader([secret], t, body);
    for (const header of [
      `t=${t},v1=zz`,
      `t=${t},v1=`,
      `t=${t},v1`,
      `t=${t},v1=${'0'.repeat(64)}`,
      `t=${t},v1=${'g'.repeat(64)}`,
      `t=abc,${real.split(',')[1]}`,
      't=,v1=',
      '',
      'garbage',
      undefined,
      null,
    ])
      expect(verify(header, body, secret, t), String(header)).toBe(false);
    expect(verify(real, `${body} `, secret, t)).toBe(false); // another body
    expect(verify(real, body, secret, t + 301)).toBe(false); // a replay past the tolerance
  });
});

describe("the README's API calls", () => {
  it('are five calls of catalogue endpoints, each with query parameters that endpoint takes', () => {
    const readme = fs.readFileSync(fromRoot('README.md'), 'utf8');
    const calls = [...readme.matchAll(/^curl -s "\$BASE([^"]+)"$/gm)].map((m) => new URL(m[1], 'http://x'));
    expect(calls).toHaveLength(5);
    for (const url of calls) {
      const e = CATALOGUE.find((x) => new RegExp(`^${x.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(url.pathname));
      expect(e, url.pathname).toBeDefined();
      expect(unknownNames(url.searchParams, queryNames(e!)), url.href).toEqual([]);
    }
  });
});

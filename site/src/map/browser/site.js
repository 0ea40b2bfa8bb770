// Browser: what every site page's module shares — its config, reading the API, building DOM, formatting numbers
// and times (the rule is times.js's), the tables (tables.js) and the chart embed snippet. Small on purpose: the pages
// need no framework.
import { localTimeText, timeText } from './times.js';

export { renderTable } from './tables.js';

export const config = () => JSON.parse(document.getElementById('page-config')?.textContent ?? '{}');
export const $ = (id) => document.getElementById(id);

/** A path template filled in: fill('/counties/{fips}', { fips: '12086' }). */
export const fill = (template, params) => template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));

/** One API document: { data, meta } on 200, null on 404 (not published: a quiet county, a year not loaded). */
export async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return res.json();
}

/** h('a', { href }, 'text', child…): attributes as given, `dataset`-style keys with data- prefix; null children skipped. */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

const NUMBER = new Intl.NumberFormat('en-US');
export const count = (n) => (n === null || n === undefined ? '—' : NUMBER.format(n));
export const pct = (p) => (p === null || p === undefined ? '—' : `${p} %`);
/** A time in words with its zone (times.js), or a dash for none. */
export const when = (iso) => (iso ? timeText(iso) : '—');
/** "1 event", "2 events": a count with its noun, plural when it is not one. */
export const plural = (n, noun, nouns = `${noun}s`) => `${count(n)} ${n === 1 ? noun : nouns}`;

/** States whose county codes from 510 up are independent cities (Census): Maryland, Missouri, Nevada, Virginia. */
const CITY_STATES = new Set(['24', '29', '32', '51']);
/** Where the Census name has no "County": Alaska's boroughs and census areas, DC, and the Pacific territories. */
const NO_SUFFIX = new Set(['02', '11', '60', '66', '69', '78']);

/** A county as people write it, from its bare us-atlas name: "DeSoto County, FL", "Orleans Parish, LA". */
export function countyLabel(name, fips, state) {
  if (!name) return `County ${fips}${state ? ` (${state})` : ''}`;
  const st = fips.slice(0, 2);
  let suffix = ' County';
  if (st === '22') suffix = ' Parish';
  else if (st === '72') suffix = ' Municipio';
  else if (NO_SUFFIX.has(st)) suffix = '';
  else if (CITY_STATES.has(st) && Number(fips.slice(2)) >= 510) suffix = /city$/i.test(name) ? '' : ' city';
  return `${name}${suffix}${state ? `, ${state}` : ''}`;
}

/** The software behind a feed in words (the page's `connectors`), its connector's name as the tooltip. */
export const feedSoftware = (connector, labels) =>
  h('span', { title: `connector: ${connector}` }, labels?.[connector] ?? connector);

/** A name of the API's or the registry's in running text: `interval_min`, `Sales_Ult_Cust`, `kubra_view_not_found`. */
const FIELD_NAME = /\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b/;

/**
 * Text written in the API's Markdown (its messages and methods mark names as `code` spans) as DOM: each code span,
 * and each bare field name, a <code>; the rest text nodes. Nothing is parsed as HTML, so upstream words (a failure's
 * message, an error page's title) show exactly as written.
 */
export function prose(text) {
  const out = document.createDocumentFragment();
  for (const part of String(text ?? '').split(/(`[^`]+`)/)) {
    if (/^`[^`]+`$/.test(part)) out.append(h('code', {}, part.slice(1, -1)));
    else out.append(...part.split(FIELD_NAME).map((bit, i) => (i % 2 ? h('code', {}, bit) : bit)));
  }
  return out;
}

/** A <time> element: machine-readable datetime, the time in UTC, the reader's own clock as its tooltip. */
export const time = (iso) =>
  iso ? h('time', { datetime: iso, title: `${localTimeText(iso)} (your clock)` }, when(iso)) : '—';

/** Shows the SIMULATED banner of the layout when the data says so. */
export function markSimulated(simulated) {
  const b = $('simulated-banner');
  if (b) b.hidden = !simulated;
}

/**
 * Every page with the layout's banner: whether the deployment is simulated, from the live summary its `data-summary`
 * names (site/src/site/layout.ts), so no page shows simulated figures without the banner. A page that reads the same
 * from its own data marks it too; both say the same deployment's answer.
 */
function markDeployment() {
  const source = $('simulated-banner')?.dataset.summary;
  if (!source) return;
  getJson(source)
    .then((doc) => {
      if (doc?.data?.simulated) markSimulated(true);
    })
    .catch(() => {}); // no summary: the page's own data still marks it
}
markDeployment();

export function setStatus(id, text, isError = false) {
  const e = $(id);
  if (!e) return;
  e.textContent = text;
  e.classList.toggle('error', isError);
}

/** The copy-paste snippet that embeds a chart PNG on another site, with the citation as its alt text's tail. */
export function embedSnippet(path, alt) {
  const url = new URL(path, location.origin).href;
  return `<a href="${location.href}"><img src="${url}" width="600" height="315" alt="${alt} (US Power Outage Data)"></a>`;
}

/** A copy button for a textarea, with a status word for screen readers. */
export function copyButton(target, label = 'Copy') {
  const b = h('button', { type: 'button' }, label);
  b.addEventListener('click', async () => {
    target.select();
    try {
      await navigator.clipboard.writeText(target.value);
      b.textContent = 'Copied';
    } catch {
      b.textContent = 'Selected: press Ctrl+C';
    }
  });
  return b;
}

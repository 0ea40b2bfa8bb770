// Browser: what every site page's module shares — its config, reading the API, building DOM, formatting numbers
// and times, sortable tables and the chart embed snippet. Small on purpose: the pages need no framework.

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
const TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const when = (iso) => (iso ? TIME.format(new Date(iso)) : '—');
/** A <time> element: machine-readable datetime, human text. */
export const time = (iso) => (iso ? h('time', { datetime: iso }, when(iso)) : '—');

/** Shows the SIMULATED banner of the layout when the data says so. */
export function markSimulated(simulated) {
  const b = $('simulated-banner');
  if (b) b.hidden = !simulated;
}

export function setStatus(id, text, isError = false) {
  const e = $(id);
  if (!e) return;
  e.textContent = text;
  e.classList.toggle('error', isError);
}

/**
 * Fills a table body. columns: [{ label, value(row) → text|Node, sort?(row) → number|string, num? }]. Headers become
 * buttons that sort (keyboard-operable, aria-sort announced). Returns the table.
 */
export function renderTable(table, columns, rows, empty = 'None.') {
  const head = h('tr', {}, ...columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)));
  const body = h('tbody');
  const draw = (list) =>
    body.replaceChildren(
      ...(list.length
        ? list.map((r) =>
            h(
              'tr',
              { 'data-key': r.key ?? null },
              ...columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.value(r))),
            ),
          )
        : [h('tr', {}, h('td', { colspan: columns.length }, empty))]),
    );
  columns.forEach((c, i) => {
    if (!c.sort) return;
    const th = head.children[i];
    const button = h('button', { type: 'button' }, c.label);
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const desc = th.getAttribute('aria-sort') !== 'descending';
      for (const other of head.children) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
      const sorted = [...rows].sort((a, b) => {
        const [x, y] = [c.sort(a), c.sort(b)];
        return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
      });
      draw(sorted);
    });
  });
  table.replaceChildren(h('thead', {}, head), body);
  draw(rows);
  return table;
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

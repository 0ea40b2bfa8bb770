// Browser: the site's data tables — sortable headers, long tables collapsed to their top rows behind "Show all N", and
// tables too wide for their column (a phone) made compact or stacked one labelled line per cell, so no page scrolls
// sideways.

/** A table longer than COLLAPSE_AT rows shows its top TOP_ROWS first. */
export const TOP_ROWS = 10;
export const COLLAPSE_AT = 15;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

/**
 * Fits `table` to its container: as it is; else `compact` (smaller type, narrower padding); else `stack` (each row a
 * block, each cell "label value"). Not where the container scrolls sideways on purpose (overflow-x auto or scroll).
 */
export function fitTable(table) {
  const box = table.parentElement;
  if (!box || !table.isConnected || /auto|scroll/.test(getComputedStyle(box).overflowX)) return;
  const fits = () => table.getBoundingClientRect().width <= box.clientWidth + 0.5;
  table.classList.remove('stack', 'compact');
  if (fits()) return;
  table.classList.add('compact');
  if (!fits()) table.classList.replace('compact', 'stack');
}

let refitting = false;
/** Every fitted table again after the window changes width (once per frame). */
function refitAll() {
  if (refitting) return;
  refitting = true;
  requestAnimationFrame(() => {
    refitting = false;
    for (const t of document.querySelectorAll('table[data-fit]')) fitTable(t);
  });
}
addEventListener('resize', refitAll);

/**
 * Shows the top rows of a table body and a "Show all N" button after the table (one per table, reused on redraw).
 * The other rows stay in the DOM, hidden, so sorting and counting see them all.
 */
export function collapseRows(table, total, top = TOP_ROWS) {
  let button = table.nextElementSibling?.matches?.('button.show-all') ? table.nextElementSibling : null;
  if (total <= COLLAPSE_AT) {
    button?.remove();
    for (const tr of table.tBodies[0]?.rows ?? []) tr.hidden = false;
    fitTable(table);
    return;
  }
  if (!button) {
    button = el('button', { type: 'button', class: 'show-all', 'aria-expanded': 'false' });
    if (table.id) button.setAttribute('aria-controls', table.id);
    button.addEventListener('click', () => {
      button.setAttribute('aria-expanded', String(button.getAttribute('aria-expanded') !== 'true'));
      showRows(table, button, top);
    });
    table.after(button);
  }
  button.dataset.total = String(total);
  showRows(table, button, top);
}

function showRows(table, button, top) {
  const all = button.getAttribute('aria-expanded') === 'true';
  [...(table.tBodies[0]?.rows ?? [])].forEach((tr, i) => {
    tr.hidden = !all && i >= top;
  });
  const total = Number(button.dataset.total);
  button.textContent = all ? `Show the top ${top} only` : `Show all ${total.toLocaleString('en-US')}`;
  fitTable(table);
}

/**
 * Fills a table. columns: [{ label, value(row) → text|Node, sort?(row) → number|string, num? }]. Headers with `sort`
 * become buttons (keyboard-operable, aria-sort announced); each cell carries its column's label for the stacked view.
 * opts.top: rows shown before "Show all" (default TOP_ROWS). Returns the table.
 */
export function renderTable(table, columns, rows, empty = 'None.', opts = {}) {
  const head = el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)));
  const body = el('tbody', {});
  const cell = (c, r) => el('td', { class: c.num ? 'num' : null, 'data-label': c.label }, c.value(r));
  const draw = (list) => {
    body.replaceChildren(
      ...(list.length
        ? list.map((r) => el('tr', { 'data-key': r.key ?? null }, ...columns.map((c) => cell(c, r))))
        : [el('tr', {}, el('td', { colspan: columns.length, class: 'empty' }, empty))]),
    );
    collapseRows(table, list.length, opts.top);
  };
  columns.forEach((c, i) => {
    if (!c.sort) return;
    const th = head.children[i];
    const button = el('button', { type: 'button' }, c.label);
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
  table.replaceChildren(el('thead', {}, head), body);
  table.dataset.fit = '';
  draw(rows);
  return table;
}

// Browser: the county page's "Past week" chart (issue 25 part 4): the county's customers out at every archived quarter
// hour of the last 7 days, from /api/v1/archive/counties/{fips}. An inline SVG drawn to its box's own width, so its
// labels stay legible on a phone. A quarter the poller did not reach is absent from the series: a gap, never a zero.
import { shortTimeText } from './times.js';

const SVG = 'http://www.w3.org/2000/svg';
export const QUARTER_MS = 900_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const NUMBER = new Intl.NumberFormat('en-US');
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const utcTime = shortTimeText;

/** The week asked for: 7 days to the end of the quarter containing now (a quarter is named by its start). */
export function weekRange(now) {
  const to = Math.floor(now / QUARTER_MS) * QUARTER_MS + QUARTER_MS;
  return { from: to - WEEK_MS, to };
}

/** Runs of consecutive quarters: a quarter missing from the series ends one. */
export function runs(series) {
  const out = [];
  let prev = Number.NaN;
  for (const p of series) {
    const t = Date.parse(p.at);
    if (t - prev !== QUARTER_MS) out.push([]);
    out.at(-1).push({ t, v: p.customers_out });
    prev = t;
  }
  return out;
}

/** A round top for the y axis and its step: 1, 2 or 5 × 10^k, about four steps. */
export function yTicks(max) {
  if (max <= 0) return { top: 4, step: 1 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  return { top: Math.ceil(max / step) * step, step };
}

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Draws the week into `box` (a block element), `width` pixels wide; every label is text, never markup. */
export function drawWeek(box, series, range, width) {
  const W = Math.max(280, Math.round(width));
  const H = W < 560 ? 210 : 250;
  const { top, step } = yTicks(Math.max(0, ...series.map((p) => p.customers_out)));
  const labels = [];
  for (let v = 0; v <= top; v += step) labels.push(v);
  const m = { l: 14 + 7.2 * Math.max(...labels.map((v) => NUMBER.format(v).length)), r: 14, t: 24, b: 44 };
  const [pw, ph] = [W - m.l - m.r, H - m.t - m.b];
  const x = (t) => m.l + ((t - range.from) / (range.to - range.from)) * pw;
  const y = (v) => m.t + (1 - v / top) * ph;
  const f = (n) => n.toFixed(1);
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    role: 'img',
    'aria-labelledby': 'past-week-title',
    'aria-describedby': 'past-week-summary',
  });
  svg.append(el('text', { x: 2, y: 14, class: 'pw-label' }, 'Customers out'));
  for (const v of labels) {
    svg.append(el('line', { x1: m.l, x2: W - m.r, y1: f(y(v)), y2: f(y(v)), class: v ? 'pw-grid' : 'pw-axis' }));
    svg.append(el('text', { x: m.l - 6, y: f(y(v) + 4), 'text-anchor': 'end', class: 'pw-label' }, NUMBER.format(v)));
  }
  // Day ticks at each 00:00 UTC; a label every other day when they would crowd.
  const first = Math.ceil(range.from / DAY_MS) * DAY_MS;
  const every = (DAY_MS / (range.to - range.from)) * pw < 52 ? 2 : 1;
  for (let t = first, i = 0; t <= range.to; t += DAY_MS, i++) {
    svg.append(el('line', { x1: f(x(t)), x2: f(x(t)), y1: m.t, y2: m.t + ph + 5, class: 'pw-day' }));
    if (i % every !== 0) continue;
    // A label whose middle would put it past the right edge ends at its tick instead.
    const anchor = x(t) > W - 24 ? 'end' : 'middle';
    svg.append(el('text', { x: f(x(t)), y: m.t + ph + 18, 'text-anchor': anchor, class: 'pw-label' }, DAY.format(t)));
  }
  svg.append(el('text', { x: W - m.r, y: H - 4, 'text-anchor': 'end', class: 'pw-label' }, 'Day ticks at 00:00 UTC'));
  for (const run of runs(series)) {
    if (run.length === 1) {
      svg.append(el('circle', { cx: f(x(run[0].t)), cy: f(y(run[0].v)), r: 2.5, class: 'pw-dot' }));
      continue;
    }
    const line = run.map((p, i) => `${i ? 'L' : 'M'}${f(x(p.t))},${f(y(p.v))}`).join('');
    const base = f(y(0));
    svg.append(el('path', { d: `${line}L${f(x(run.at(-1).t))},${base}L${f(x(run[0].t))},${base}Z`, class: 'pw-area' }));
    svg.append(el('path', { d: line, class: 'pw-line' }));
  }
  box.replaceChildren(svg);
}

/** One sentence a person (or a screen reader) reads instead of the chart. */
export function describeWeek(series) {
  const slots = WEEK_MS / QUARTER_MS;
  const peak = series.reduce((a, p) => (p.customers_out > a.customers_out ? p : a), series[0]);
  const last = series.at(-1);
  const stale = series.filter((p) => p.stale).length;
  return [
    `Most out at once: ${NUMBER.format(peak.customers_out)} customers (${utcTime(Date.parse(peak.at))}).`,
    `Latest archived: ${NUMBER.format(last.customers_out)} (${utcTime(Date.parse(last.at))}).`,
    `${NUMBER.format(series.length)} of ${NUMBER.format(slots)} quarter hours archived; a break in the line is a quarter the poller did not reach.`,
    stale ? `${NUMBER.format(stale)} carry a stale feed's last value.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Fills the chart box and its caption from one series answer; redraws to the box's width when it changes. */
export function showWeek(box, caption, doc, range) {
  const series = doc?.data?.series ?? [];
  if (!series.length) {
    box.replaceChildren();
    caption.textContent =
      'Nothing is archived for this county in the past week yet. The archive keeps every quarter hour from the time this deployment started polling; the chart fills in as it runs.';
    return;
  }
  caption.textContent = describeWeek(series);
  let drawn = 0;
  const draw = () => {
    const w = box.clientWidth;
    if (!w || Math.abs(w - drawn) < 2) return;
    drawn = w;
    drawWeek(box, series, range, w);
  };
  draw();
  new ResizeObserver(draw).observe(box);
}

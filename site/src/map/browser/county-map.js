// Browser: the SVG county map. Every county is a path; counties with customers out become links to their county
// page, ordered by customers out so keyboard focus visits the worst first. Hover or focus shows the tooltip.

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export class CountyMap {
  /**
   * @param {SVGSVGElement} svg
   * @param {HTMLElement} tip the tooltip element (absolutely positioned inside the map's box)
   * @param {(fips: string) => string} href the county page of a FIPS code
   */
  constructor(svg, tip, shapes, href) {
    this.svg = svg;
    this.tip = tip;
    this.states = shapes.states ?? [];
    this.href = href;
    this.describe = () => ({ title: '', rows: [] });
    svg.setAttribute('viewBox', `0 0 ${shapes.width} ${shapes.height}`);
    this.quiet = el('g', { class: 'quiet' });
    this.out = el('g', { class: 'out' });
    this.counties = new Map();
    for (const shape of shapes.counties) {
      const path = el('path', { d: shape.d, class: 'county fill-none', 'data-fips': shape.fips });
      this.quiet.append(path);
      this.counties.set(shape.fips, { shape, path, link: null, fill: 'fill-none' });
    }
    svg.append(this.quiet, el('path', { class: 'borders', d: shapes.borders, 'aria-hidden': 'true' }), this.out);
    this.listen();
  }

  /** Fills every county and rebuilds the focus order. describe(shape) → { status, text: { title, rows } }. */
  update(describe) {
    this.describe = describe;
    const focused = document.activeElement?.closest?.('a[data-fips]')?.getAttribute('data-fips');
    const out = [];
    for (const c of this.counties.values()) {
      const { status, text } = describe(c.shape);
      if (c.fill !== status.fill) c.path.setAttribute('class', `county ${status.fill}`); // most counties keep theirs
      c.fill = status.fill;
      if (status.kind === 'out' || status.kind === 'untrusted') {
        c.link ??= el('a', { href: this.href(c.shape.fips), 'data-fips': c.shape.fips });
        c.link.setAttribute('aria-label', `${text.title}: ${text.rows.map(([k, v]) => `${k} ${v}`).join('; ')}`);
        out.push([status.customersOut, c]);
      } else if (c.link) {
        this.quiet.append(c.path);
        c.link.remove();
        c.link = null;
      }
    }
    out.sort((a, b) => b[0] - a[0]);
    // One tab stop for the whole map (the worst county); the arrow keys move between counties (roving tabindex).
    out.forEach(([, c], i) => {
      c.link.append(c.path);
      c.link.setAttribute('tabindex', i === 0 ? '0' : '-1');
      this.out.append(c.link);
    });
    if (focused) this.counties.get(focused)?.link?.focus({ preventScroll: true });
    if (this.shown) this.show(this.shown, null);
  }

  listen() {
    const fipsOf = (e) => e.target.closest?.('[data-fips]')?.getAttribute('data-fips');
    this.svg.addEventListener('pointerdown', (e) => {
      this.touch = e.pointerType === 'touch';
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (e.pointerType === 'touch') return; // a finger drags (scrolls); a tap is handled on click
      const fips = fipsOf(e);
      if (fips) this.show(fips, e);
      else this.hide();
    });
    this.svg.addEventListener('pointerleave', (e) => {
      if (e.pointerType !== 'touch') this.hide();
    });
    document.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'touch' && !this.svg.contains(e.target)) this.hide();
    });
    this.svg.addEventListener('focusin', (e) => {
      const fips = fipsOf(e);
      if (fips) this.show(fips, null);
    });
    this.svg.addEventListener('focusout', () => this.hide());
    this.svg.addEventListener('keydown', (e) => {
      const links = [...this.out.children];
      const at = links.indexOf(e.target.closest?.('a[data-fips]'));
      const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, Home: -Infinity, End: Infinity }[e.key];
      if (at < 0 || step === undefined) return;
      e.preventDefault();
      const next = links[Math.max(0, Math.min(links.length - 1, at + step))];
      for (const a of links) a.setAttribute('tabindex', a === next ? '0' : '-1');
      next.focus();
    });
    // Counties without an outage are plain paths, not links: a click still opens the county page. On a touch
    // screen a county is small under a finger: the first tap names it (the tooltip), a second tap on it opens it.
    this.svg.addEventListener('click', (e) => {
      const fips = fipsOf(e);
      if (this.touch && fips !== this.tapped) {
        e.preventDefault();
        this.tapped = fips ?? null;
        if (fips) this.show(fips, e, 'Tap again to open the county page.');
        else this.hide();
        return;
      }
      if (fips && !e.target.closest('a')) location.assign(this.href(fips));
    });
  }

  /** Shows the tooltip of a county beside the pointer, or beside the county when focused from the keyboard. */
  show(fips, pointer, hint = null) {
    const c = this.counties.get(fips);
    if (!c) return;
    this.shown = fips;
    const { text } = this.describe(c.shape);
    this.tip.replaceChildren();
    const title = document.createElement('strong');
    title.textContent = text.title;
    const dl = document.createElement('dl');
    for (const [k, v] of text.rows) {
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v;
      dl.append(dt, dd);
    }
    this.tip.append(title, dl);
    if (hint) {
      const p = document.createElement('p');
      p.className = 'tip-hint';
      p.textContent = hint;
      this.tip.append(p);
    }
    this.tip.dataset.fips = fips;
    this.tip.hidden = false;
    const box = this.tip.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0, width: innerWidth };
    const at = pointer ? { x: pointer.clientX, y: pointer.clientY } : centre(c.path.getBoundingClientRect());
    const left = Math.min(at.x - box.left + 14, box.width - this.tip.offsetWidth - 4);
    this.tip.style.left = `${Math.max(4, left)}px`;
    this.tip.style.top = `${at.y - box.top + 14}px`;
  }

  hide() {
    this.shown = null;
    this.tapped = null;
    this.tip.hidden = true;
  }
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

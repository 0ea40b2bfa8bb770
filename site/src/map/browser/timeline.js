// Browser: the 24-hour animation on the national map from /api/v1/live/timeline (spec: "state-level severity frames
// back the 24-hour map animation"). A frame fills each state's shape by its band at that time, over the hidden county
// layer. Play, pause, scrub with the range input (arrow keys, Home, End), the frame's time shown beside it; "Live"
// shows the live county fills again.
import { shortTimeText } from './times.js';

/** Frames of data shown per second while playing: 96 quarter-hours pass in 12 s. */
const FRAMES_PER_S = 8;

/** The fill class of a state entry [customers_out, pct_out, band], as the live map would fill a county. */
export function frameFill(entry) {
  if (!entry) return 'fill-nofeed';
  const [out, pctOut, band] = entry;
  if (out === 0) return 'fill-none';
  if (band < 0 || pctOut === null) return 'fill-untrusted';
  return `fill-b${Math.min(5, band)}`;
}

/** What the frames span, or why Play and the slider are disabled (the controls' aria-describedby). */
export function framesNote(frames) {
  if (frames.length >= 2)
    return `${frames.length} quarter hours, ${shortTimeText(frames[0].at)} to ${shortTimeText(frames.at(-1).at)}.`;
  const have = frames.length ? 'one quarter hour is published so far' : 'no quarter hour is published yet';
  return `Play is off until the animation has two quarter hours or more: ${have}; frames are added as the server polls.`;
}

export class Timeline {
  /** @param map a CountyMap; ui: { play, range, time, live, why } elements (why: the controls' description) */
  constructor(map, ui) {
    this.map = map;
    this.ui = ui;
    this.frames = [];
    this.index = -1; // -1: live
    this.painted = new Map(); // state → fill class on screen
    this.byState = new Map(); // state → its shape in the animation layer
    this.layer = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    this.layer.setAttribute('class', 'frame-states');
    this.layer.setAttribute('aria-hidden', 'true');
    this.layer.style.display = 'none';
    for (const st of map.states ?? []) {
      const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
      p.setAttribute('d', st.d);
      p.setAttribute('data-state', st.code);
      this.layer.append(p);
      this.byState.set(st.code, p);
    }
    map.svg.insertBefore(this.layer, map.svg.querySelector('.borders'));
    this.stats = { frames: 0, paintMs: 0 };
    ui.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    ui.range.addEventListener('input', () => {
      this.pause();
      this.show(Number(ui.range.value));
    });
    ui.live.addEventListener('click', () => this.backToLive());
  }

  load(timeline) {
    this.frames = timeline?.frames ?? [];
    const { range, play } = this.ui;
    range.max = String(Math.max(0, this.frames.length - 1));
    range.disabled = play.disabled = this.frames.length < 2;
    this.ui.why.textContent = framesNote(this.frames);
    if (this.index >= this.frames.length) this.index = this.frames.length - 1;
    if (this.index >= 0) this.show(this.index, true);
    else {
      range.value = range.max; // live is the newest frame's end
      this.label();
    }
  }

  /** Paints frame i: only states whose fill changed are touched, so a frame costs little more than its changes. */
  show(i, force = false) {
    const f = this.frames[i];
    if (!f) return;
    const t0 = performance.now();
    if (this.index < 0 || force) this.painted.clear();
    this.index = i;
    this.animating(true);
    for (const [state, path] of this.byState) {
      const cls = frameFill(f.states[state]);
      if (this.painted.get(state) === cls) continue;
      this.painted.set(state, cls);
      path.setAttribute('class', `frame-state ${cls}`);
    }
    this.stats.frames += 1;
    this.stats.paintMs += performance.now() - t0;
    this.ui.range.value = String(i);
    this.label();
  }

  label() {
    const f = this.frames[this.index];
    const text = f ? `${shortTimeText(f.at)} (state-level)` : 'Live';
    this.ui.time.textContent = text;
    this.ui.range.setAttribute('aria-valuetext', text);
    this.ui.live.disabled = !f;
    document.getElementById('map-figure')?.setAttribute('data-frame', f ? f.at : 'live');
  }

  play() {
    if (this.frames.length < 2) return;
    this.playing = true;
    this.ui.play.textContent = 'Pause';
    this.ui.play.setAttribute('aria-pressed', 'true');
    const start = this.index < 0 || this.index >= this.frames.length - 1 ? 0 : this.index;
    const t0 = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      const i = (start + Math.floor(((now - t0) / 1000) * FRAMES_PER_S)) % this.frames.length;
      if (i !== this.index) this.show(i);
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    cancelAnimationFrame(this.raf);
    this.ui.play.textContent = 'Play';
    this.ui.play.setAttribute('aria-pressed', 'false');
  }

  /** Shows the state layer over the county layer (hidden, so the browser paints 51 shapes), or the counties. */
  animating(on) {
    this.layer.style.display = on ? '' : 'none';
    this.map.quiet.style.display = this.map.out.style.display = on ? 'none' : '';
  }

  /** Live fills again: the county layer, as the last refresh left it. */
  backToLive() {
    this.pause();
    this.index = -1;
    this.painted.clear();
    this.animating(false);
    this.ui.range.value = this.ui.range.max; // live is the newest frame's end
    this.label();
  }

  /** After a live refresh redrew the fills: put the frame on show back. */
  reapply() {
    if (this.index >= 0) this.show(this.index, true);
  }
}

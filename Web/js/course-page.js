// One kept course (#course/NAME): GET /api/courses/{name} — the course on the map (course-map.js),
// its gates, and the leaderboard, fastest first (`oarlog attempts --course NAME --json`): rank,
// time, split, boat and date, the date opening the session. Tap a row for its legs (from, to,
// time, split, rate); tick two rows to compare them (GET /api/courses/{name}/compare: the time at
// each gate, the gap — who is ahead there and by how much — and who gained in each leg, both
// tracks on the map in two colours). The boat filter reloads the leaderboard with `?boat=`.
import { control, ensurePaired } from './api.js';
import { clock, split, metres, NO_DATA } from './metrics.js';
import { el, legendStep } from './dom.js';
import { CourseMap } from './course-map.js';
import { COLOURS, gapText, gainedText } from './compare-page.js';

const $ = id => document.getElementById(id);
const rate = v => v == null || !isFinite(v) ? NO_DATA : Number(v).toFixed(1);
const when = date => date ? date.replace('T', ' ').slice(0, 16) : NO_DATA;

// GET PATH as JSON; a refusal throws the server's message in words, with its status.
async function read(path) {
  const r = await fetch(path, { cache: 'no-store' });
  if (r.ok) return r.json();
  let message = String(r.status);
  try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
  const error = new Error(message);
  error.status = r.status;
  throw error;
}

export class CoursePage {
  constructor() {
    this.map = new CourseMap($('course-map'));
    $('course-boat').onchange = () => this.load(this.name, $('course-boat').value);
    $('course-delete').onclick = () => this.remove();
    $('course-compare-clear').onclick = () => { this.picked = []; this.render(); this.compare(); };
  }

  async load(name, boat = '') {
    delete document.body.dataset.courseLoaded;
    if (name !== this.name) this.boats = null;
    this.name = name;
    this.boat = boat;
    this.picked = [];
    this.open = new Set();
    $('course-error').hidden = true;
    const query = boat ? '?boat=' + encodeURIComponent(boat) : '';
    try {
      this.course = await read('/api/courses/' + encodeURIComponent(name) + query);
    } catch (e) {
      $('course-title').textContent = name;
      $('course-error').textContent = e.status === 404 ? `No course named “${name}” is kept.` : 'The course could not be read: ' + e.message;
      $('course-error').hidden = false;
      $('course-content').hidden = true;
      document.body.dataset.courseLoaded = 'error';
      return;
    }
    $('course-content').hidden = false;
    const c = this.course;
    $('course-title').textContent = c.name;
    $('course-facts').textContent = `${metres(c.length_m)} · ${c.gates.length} gates · ${c.attempts} attempt${c.attempts === 1 ? '' : 's'}`
      + (c.best_time_s == null ? '' : ` · best ${clock(c.best_time_s)}`);
    if (!this.boats) this.boats = [...new Set(c.leaderboard.map(a => a.boat).filter(b => b))].sort();
    const select = $('course-boat');
    select.replaceChildren(new Option('Every boat', ''), ...this.boats.map(b => new Option(b, b)));
    select.value = boat;
    select.hidden = this.boats.length < 2 && !boat;
    this.map.show(c);
    this.render();
    await this.compare();
    document.body.dataset.courseLoaded = c.name;
  }

  resized() {
    this.map.resized();
  }

  // `SESSION:K`: the attempt's passage of the course within its session, in the order rowed.
  reference(attempt) {
    const mine = this.course.leaderboard.filter(a => a.session === attempt.session).sort((x, y) => x.start_s - y.start_s);
    return `${attempt.session}:${mine.indexOf(attempt) + 1}`;
  }

  // The leaderboard: a row per attempt (and its legs under it when opened).
  render() {
    const body = $('course-board').querySelector('tbody');
    body.replaceChildren();
    $('course-none').hidden = this.course.leaderboard.length > 0;
    $('course-board').hidden = this.course.leaderboard.length === 0;
    for (const a of this.course.leaderboard) {
      const ref = this.reference(a);
      const tr = document.createElement('tr');
      tr.className = 'attempt';
      tr.dataset.ref = ref;
      const order = this.picked.indexOf(ref);
      tr.classList.toggle('picked', order >= 0);
      const pick = el('td', 'pick');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = order >= 0;
      box.setAttribute('aria-label', `compare attempt ${a.rank}`);
      box.onchange = () => this.pick(ref, box.checked);
      pick.append(box, el('span', 'pick-side', order < 0 ? '' : 'AB'[order]));
      const date = el('td', 'date');
      const link = el('a');
      link.append(el('span', 'day', a.date ? a.date.slice(0, 10) : NO_DATA), ' ', el('span', 'hour', a.date ? a.date.slice(11, 16) : ''));
      link.href = '#session/' + encodeURIComponent(a.session);
      date.append(link);
      tr.append(pick, el('td', 'rank', a.rank), el('td', 'time', clock(a.time_s)), el('td', 'split', split(a.split_s_per_500m)),
        el('td', 'boat', a.boat || NO_DATA), date);
      tr.onclick = e => {
        if (e.target.closest('a, input')) return;
        if (this.open.has(ref)) this.open.delete(ref); else this.open.add(ref);
        this.render();
      };
      body.appendChild(tr);
      if (this.open.has(ref)) body.appendChild(this.legsRow(a));
    }
  }

  // An attempt's legs: from, to, time, split, rate.
  legsRow(a) {
    const tr = el('tr', 'legs');
    const td = el('td');
    td.colSpan = 6;
    const table = el('table', 'legs-table');
    table.innerHTML = '<thead><tr><th>Leg</th><th>Time</th><th>Split</th><th>Rate</th></tr></thead>';
    const body = document.createElement('tbody');
    for (const leg of a.legs) {
      const row = document.createElement('tr');
      row.append(el('td', 'leg', `${leg.from} → ${leg.to}`), el('td', null, clock(leg.time_s)), el('td', null, split(leg.split_s_per_500m)),
        el('td', null, rate(leg.stroke_rate_spm)));
      body.appendChild(row);
    }
    table.appendChild(body);
    td.appendChild(table);
    tr.appendChild(td);
    return tr;
  }

  pick(ref, on) {
    this.picked = on ? [...this.picked.filter(r => r !== ref), ref].slice(-2) : this.picked.filter(r => r !== ref);
    this.render();
    this.compare();
  }

  // The two ticked attempts compared, or the hint to tick two.
  async compare() {
    const [a, b] = this.picked;
    $('course-compare-hint').textContent = ['Tick two attempts to compare them (the first is A).', 'Tick one more (B).', 'A and B, gate by gate:'][this.picked.length];
    $('course-compare-clear').hidden = this.picked.length === 0;
    $('course-compare-result').hidden = true;
    this.compared = null;
    this.map.showTracks(null);
    if (this.picked.length < 2) return;
    delete document.body.dataset.courseCompared;
    const url = `/api/courses/${encodeURIComponent(this.name)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}&points=2000`;
    let answer;
    try {
      answer = await read(url);
    } catch (e) {
      $('course-compare-hint').textContent = 'These cannot be compared: ' + e.message;
      document.body.dataset.courseCompared = 'error';
      return;
    }
    if (this.picked[0] !== a || this.picked[1] !== b) return;  // changed meanwhile
    this.compared = answer;
    this.map.showTracks(answer.trails, COLOURS);
    const legend = $('course-compare-legend');
    legend.replaceChildren();
    ['a', 'b'].forEach((key, i) => {
      const s = answer[key];
      const step = legendStep(COLOURS[key], `${key.toUpperCase()}: #${s.rank} ${clock(s.time_s)} ${s.boat || ''} ${when(s.date)}`);
      step.dataset.side = key;
      legend.append(i ? ' ' : '', step);
    });
    this.fillGaps(answer);
    $('course-compare-result').hidden = false;
    document.body.dataset.courseCompared = `${a}/${b}`;
  }

  // One row per gate: each attempt's time there, the gap, and who gained in the leg to it.
  fillGaps(answer) {
    const table = $('course-compare-table');
    table.innerHTML = '<thead><tr><th>Gate</th><th class="side-a">A</th><th class="side-b">B</th><th>Gap</th><th class="gained">In leg</th></tr></thead>';
    const body = document.createElement('tbody');
    for (const g of answer.gates) {
      const tr = document.createElement('tr');
      tr.dataset.gate = g.gate;
      const gap = el('td', 'gap', gapText(g.gap_s));
      gap.dataset.value = g.gap_s == null ? '' : g.gap_s;
      gap.dataset.ahead = g.gap_s == null || Math.round(Math.abs(g.gap_s) * 10) === 0 ? '' : g.gap_s > 0 ? 'a' : 'b';
      const gained = el('td', 'gained', g.leg_gap_s == null ? '' : gainedText(g.leg_gap_s));
      gained.dataset.ahead = g.leg_gap_s == null || Math.round(Math.abs(g.leg_gap_s) * 10) === 0 ? '' : g.leg_gap_s > 0 ? 'a' : 'b';
      tr.append(el('td', 'gate', g.gate), el('td', 'time', clock(g.a_s)), el('td', 'time', clock(g.b_s)), gap, gained);
      body.appendChild(tr);
    }
    table.appendChild(body);
  }

  // Forget this course (its attempts are forgotten too; the sessions stay), asked first.
  async remove() {
    if (!confirm(`Delete the course “${this.name}”? Its attempts are forgotten; the sessions stay.`)) return;
    if (!(await ensurePaired())) return;
    try {
      await control('DELETE', '/api/courses/' + encodeURIComponent(this.name));
      location.hash = '#courses';
    } catch (e) {
      $('course-error').textContent = 'Not deleted: ' + e.message;
      $('course-error').hidden = false;
    }
  }
}

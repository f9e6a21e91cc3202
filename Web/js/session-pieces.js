// A stored session's pieces (GET /api/sessions/{id}/pieces): the intervals of the plan it rowed
// (pieces and rests, in the order rowed, each with its target and how much of it was rowed in the
// band), else the course's legs as `oarlog course` timed them, or the runs of rowing between
// rests; one row each with time, distance, split, rate and strokes ("—" where a sensor gave no
// data). Tapping a row picks the piece whose stroke curve is shown.
import { NO_DATA, clock, split, metres } from './metrics.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);
const rate = v => v == null || !isFinite(v) ? NO_DATA : Number(v).toFixed(1);

export class SessionPieces {
  constructor(onPick) {
    this.onPick = onPick;
  }

  async load(id) {
    this.pieces = [];
    let answer = { kind: 'rests', pieces: [] };
    try {
      const r = await fetch(`/api/sessions/${encodeURIComponent(id)}/pieces`, { cache: 'no-store' });
      if (r.ok) answer = await r.json();
    } catch (e) { /* shown as no pieces */ }
    this.kind = answer.kind;
    this.plan = answer.plan || null;
    this.pieces = answer.pieces || [];
    $('pieces-none').hidden = this.pieces.length > 0;
    const table = $('pieces-table');
    table.hidden = this.pieces.length === 0;
    table.classList.toggle('workout', this.kind === 'workout');
    $('pieces-kind').classList.toggle('plan-name', this.kind === 'workout');
    const body = document.createElement('tbody');
    if (this.kind === 'workout') {
      this.fillWorkout(table, body);
    } else {
      $('pieces-kind').textContent = this.kind === 'course' ? 'the course’s legs' : 'between rests';
      table.innerHTML = '<thead><tr><th>' + (this.kind === 'course' ? 'Leg' : 'Piece')
        + '</th><th class="start">Start</th><th>Time</th><th>Dist</th><th>Split</th><th>Rate</th><th>Strokes</th></tr></thead>';
      this.pieces.forEach((p, k) => {
        // The label is the course's gate names (from the fences file): text, as every cell.
        body.appendChild(this.row(k, [el('td', null, p.label), el('td', 'start', clock(p.start_s)), el('td', null, clock(p.time_s)),
          el('td', null, metres(p.distance_m)), el('td', null, split(p.split_s_per_500m)), el('td', null, rate(p.rate_spm)),
          el('td', null, p.strokes)]));
      });
    }
    table.appendChild(body);
    // A plan's first piece (not its warm-up or a rest) is picked first.
    const first = Math.max(0, this.pieces.findIndex(p => this.kind !== 'workout' || p.step === 'work'));
    if (this.pieces.length) this.pick(first); else this.onPick(null);
  }

  row(k, cells) {
    const tr = document.createElement('tr');
    tr.dataset.piece = k;
    tr.append(...cells);
    tr.onclick = () => this.pick(k);
    return tr;
  }

  // The plan's intervals: #, piece or rest, time, distance, split, rate, strokes, metres per
  // stroke and the target with the share rowed in its band; rests quieter than pieces. On a
  // phone the target is a line of its own under its interval's figures (app.css), not a column.
  fillWorkout(table, body) {
    const planned = this.plan ? this.plan.steps.length : this.pieces.length;
    const rowed = this.pieces.length < planned ? ` · ${this.pieces.length} of ${planned} intervals rowed` : '';
    $('pieces-kind').textContent = `plan ${this.plan ? this.plan.name : ''}${rowed}`;  // the plan's name as text
    table.innerHTML = '<thead><tr><th class="index">#</th><th class="label">Interval</th><th>Time</th><th>Dist</th><th>Split</th>'
      + '<th>Rate</th><th>Str</th><th class="per-stroke">m/str</th><th class="target">Target · in band</th></tr></thead>';
    this.pieces.forEach((p, k) => {
      const label = el('td', 'label', p.label);
      if (p.step_label) label.append(el('span', 'step-label', p.step_label));
      if (!p.completed) label.append(el('span', 'step-label', 'stopped'));
      const tr = this.row(k, [el('td', 'index', p.index), label, el('td', null, clock(p.time_s)), el('td', null, metres(p.distance_m)),
        el('td', null, split(p.split_s_per_500m)), el('td', null, rate(p.rate_spm)), el('td', null, p.strokes),
        el('td', 'per-stroke', p.distance_per_stroke_m == null ? NO_DATA : Number(p.distance_per_stroke_m).toFixed(1)), targetCell(p)]);
      tr.dataset.kind = p.kind;
      tr.classList.toggle('rest', p.kind === 'rest');
      body.appendChild(tr);
      if (!hasTarget(p)) return;
      const line = document.createElement('tr');
      line.className = 'target-line';
      line.dataset.targetOf = k;
      const cell = targetCell(p);
      cell.colSpan = 8;
      cell.prepend(el('span', 'target-title', 'Target'));
      line.appendChild(cell);
      line.onclick = () => this.pick(k);
      body.appendChild(line);
    });
  }

  pick(k) {
    this.selected = k;
    for (const tr of $('pieces-table').querySelectorAll('tbody tr')) {
      tr.classList.toggle('selected', Number(tr.dataset.piece ?? tr.dataset.targetOf) === k);
    }
    this.onPick(this.pieces[k]);
  }
}

// "18–20" (or "20" when both ends are one figure).
function band(range, format) {
  const [lo, hi] = range.map(format);
  return lo === hi ? lo : `${lo}–${hi}`;
}

const MARKER = { in: 'in', under: '▼ under', over: '▲ over' };
const MARKER_TITLE = {
  rate: { in: 'average rate in the band', under: 'average rate under the band', over: 'average rate over the band' },
  split: { in: 'average split in the band', under: 'average split faster than the band', over: 'average split slower than the band' },
};

const hasTarget = p => !!(p.target && (p.target.stroke_rate_spm || p.target.split_s_per_500m));

// An interval's target: each band (rate, split) with the share of the interval rowed in it and
// where its average stands (in, under or over); "—" for an interval without a target.
function targetCell(p) {
  const td = el('td', 'target');
  const t = p.target;
  if (!hasTarget(p)) {
    td.textContent = NO_DATA;
    return td;
  }
  const parts = [];
  if (t.stroke_rate_spm) parts.push(['rate', band(t.stroke_rate_spm, v => Number(v).toFixed(0)) + ' spm', p.stroke_rate_in_band, p.stroke_rate_band]);
  if (t.split_s_per_500m) parts.push(['split', band(t.split_s_per_500m, v => split(v).replace(/\.0$/, '')), p.split_in_band, p.split_band]);
  for (const [what, text, share, where] of parts) {
    const part = el('span', 'target-part');
    part.dataset.target = what;
    part.append(el('span', 'band', text));
    const inBand = el('span', 'share', share == null ? NO_DATA : `${Math.round(share * 100)}%`);
    inBand.dataset.value = share == null ? '' : share;
    part.append(' ', inBand);
    if (where) {
      const marker = el('span', 'marker', MARKER[where] || where);
      marker.dataset.band = where;
      marker.title = MARKER_TITLE[what][where] || '';
      part.append(' ', marker);
    }
    td.append(part);
  }
  return td;
}

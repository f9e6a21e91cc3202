// A stored session's pieces (GET /api/sessions/{id}/pieces): the course's legs as `oarlog
// course` timed them, or the runs of rowing between rests; one row each with time, distance,
// split, rate and strokes ("—" where a sensor gave no data). Tapping a row picks the piece whose
// stroke curve is shown.
import { NO_DATA, clock, split, metres } from './metrics.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);

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
    this.pieces = answer.pieces || [];
    $('pieces-kind').textContent = this.kind === 'course' ? 'the course’s legs' : 'between rests';
    $('pieces-none').hidden = this.pieces.length > 0;
    const table = $('pieces-table');
    table.hidden = this.pieces.length === 0;
    table.innerHTML = '<thead><tr><th>' + (this.kind === 'course' ? 'Leg' : 'Piece')
      + '</th><th class="start">Start</th><th>Time</th><th>Dist</th><th>Split</th><th>Rate</th><th>Strokes</th></tr></thead>';
    const body = document.createElement('tbody');
    this.pieces.forEach((p, k) => {
      const tr = document.createElement('tr');
      tr.dataset.piece = k;
      // The label is the course's gate names (from the fences file): text, as every cell.
      tr.append(el('td', null, p.label), el('td', 'start', clock(p.start_s)), el('td', null, clock(p.time_s)),
        el('td', null, metres(p.distance_m)), el('td', null, split(p.split_s_per_500m)),
        el('td', null, p.rate_spm == null ? NO_DATA : Number(p.rate_spm).toFixed(1)), el('td', null, p.strokes));
      tr.onclick = () => this.pick(k);
      body.appendChild(tr);
    });
    table.appendChild(body);
    if (this.pieces.length) this.pick(0); else this.onPick(null);
  }

  pick(k) {
    this.selected = k;
    for (const tr of $('pieces-table').querySelectorAll('tbody tr')) tr.classList.toggle('selected', Number(tr.dataset.piece) === k);
    this.onPick(this.pieces[k]);
  }
}

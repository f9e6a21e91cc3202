// Two outings, or two pieces, on the same water side by side (#compare/A/B, each side ID or
// ID:K for its K-th piece): GET /api/compare (`oarlog compare A B --json` with each side's trail)
// drawn as both trails on one map in two colours with their start and finish pins, the split and
// the rate of every 500 m overlaid against distance, and the segments' table with the gap — who
// is ahead at each mark and by how much — and who gained in each segment. Each side's piece can
// be changed here; for two sessions that rowed a plan the pieces are its intervals, and choosing
// interval k on one side sets the other, if on its whole session, to its interval k too. The
// race list picks the two sessions (`picker`), as does "Compare with…" on a session's page.
import { NO_DATA, clock, split, metres } from './metrics.js';
import { plainMap } from './boat-map.js';
import { el, legendStep } from './dom.js';

const $ = id => document.getElementById(id);

export const COLOURS = { a: '#00c8ff', b: '#ff9500' };
const SIDES = ['a', 'b'];

// Who is ahead at a mark (gap: B's time there minus A's) — as `oarlog compare` prints it.
export function gapText(gap) {
  if (gap == null || !isFinite(gap)) return NO_DATA;
  const tenths = Math.round(Math.abs(gap) * 10) / 10;
  return tenths === 0 ? 'level' : `${gap > 0 ? 'A' : 'B'} by ${tenths.toFixed(1)} s`;
}

// Who gained in a segment (B's segment time minus A's).
export function gainedText(gained) {
  if (gained == null || !isFinite(gained)) return NO_DATA;
  const tenths = Math.round(Math.abs(gained) * 10) / 10;
  return tenths === 0 ? 'even' : `${gained > 0 ? 'A' : 'B'} +${tenths.toFixed(1)} s`;
}

const rate = v => v == null || !isFinite(v) ? NO_DATA : Number(v).toFixed(1);

// `ID` or `ID:K` in a URL's hash, and back.
function ref(id, piece) { return piece ? `${id}:${piece}` : id; }
function parseRef(text) {
  const m = /^(.*):([1-9][0-9]*)$/.exec(text);
  return m ? { id: m[1], piece: Number(m[2]) } : { id: text, piece: null };
}
export function compareHash(a, b) { return `#compare/${encodeURIComponent(a)}/${encodeURIComponent(b)}`; }

// Choosing two sessions in the race list: a "Compare" toggle, a tick on each row, then "Compare ▸".
export const picker = {
  active: false,
  picked: [],
  render: null,

  attach(render) {
    this.render = render;
    $('race-compare').onclick = () => (this.active ? this.stop() : this.start());
    $('compare-cancel').onclick = () => this.stop();
  },

  // Choosing on; `first` (a session's page's "Compare with…") already ticked.
  start(first) {
    this.active = true;
    this.picked = first ? [first] : [];
    this.update();
  },

  stop() {
    this.active = false;
    this.picked = [];
    this.update();
  },

  update() {
    $('compare-bar').hidden = !this.active;
    $('race-compare').classList.toggle('active', this.active);
    const [a, b] = this.picked;
    $('compare-bar-text').textContent = ['Tick two sessions (the first is A).', 'Tick one more (B).', 'A and B ticked:'][this.picked.length];
    $('compare-go').hidden = this.picked.length !== 2;
    if (this.picked.length === 2) $('compare-go').href = compareHash(a, b);
    if (this.render) this.render();
  },

  // A row of the race list: a tick box while choosing.
  decorate(li, session) {
    if (!this.active || session.error) return;
    const label = document.createElement('label');
    label.className = 'race-pick';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = this.picked.includes(session.id);
    // A session without GPS has no distance to compare (the list's start place is null).
    if (session.start_lat_deg == null && !box.checked) {
      box.disabled = true;
      label.title = 'No GPS: nothing to compare';
    }
    const order = this.picked.indexOf(session.id);
    label.append(box, document.createTextNode(order < 0 ? '' : ' ' + 'AB'[order]));
    box.onchange = () => {
      if (box.checked) {
        this.picked = [...this.picked.filter(id => id !== session.id), session.id].slice(-2);
      } else {
        this.picked = this.picked.filter(id => id !== session.id);
      }
      this.update();
    };
    li.classList.toggle('picked', order >= 0);
    li.querySelector('.race-head').prepend(label);
  },
};

export class ComparePage {
  constructor() {
    // "Compare with…" on a session's page: the race list, choosing, this session ticked.
    $('session-compare').onclick = e => {
      e.preventDefault();
      const id = decodeURIComponent(location.hash.slice('#session/'.length));
      picker.start(id);
      location.hash = '#races';
    };
    this.pieces = {};
  }

  // a, b: `ID` or `ID:K`.
  async load(a, b) {
    delete document.body.dataset.compareLoaded;
    this.refs = { a: parseRef(a), b: parseRef(b) };
    $('compare-error').hidden = true;
    $('compare-content').hidden = false;
    let r;
    try {
      r = await fetch(`/api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}&points=2000`, { cache: 'no-store' });
    } catch (e) { r = null; }
    if (!r || !r.ok) {
      let message = r ? String(r.status) : 'no answer from the boat';
      try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      $('compare-error').textContent = 'These cannot be compared: ' + message;
      $('compare-error').hidden = false;
      $('compare-content').hidden = true;
      $('compare-by').textContent = '';
      if (this.map) { this.map.remove(); this.map = null; }
      document.body.dataset.compareLoaded = 'error';
      return;
    }
    this.data = await r.json();
    $('compare-by').textContent = this.data.course
      ? `Course ${this.data.course}: each side from its start-line crossing`
      : `Every ${metres(this.data.segment_m)} of each side’s own GPS distance`;
    this.showSides();
    this.drawMap();
    this.drawPlots();
    this.fillTable();
    await this.pieceChoices();
    document.body.dataset.compareLoaded = `${a}/${b}`;
  }

  resized() {
    if (this.map && !$('compare').hidden) this.map.invalidateSize();
  }

  showSides() {
    for (const key of SIDES) {
      const s = this.data[key];
      const box = $('compare-side-' + key);
      box.querySelector('.swatch').style.background = COLOURS[key];
      const title = box.querySelector('.compare-title');
      title.textContent = s.title || 'untitled';
      title.href = '#session/' + encodeURIComponent(s.id);
      box.querySelector('.race-date').textContent = s.start_utc ? s.start_utc.replace('T', ' ').slice(0, 16) + ' UTC' : NO_DATA;
      box.querySelector('.race-figures').replaceChildren(...[clock(s.time_s), metres(s.distance_m), split(s.split_s_per_500m) + ' /500m',
        rate(s.rate_spm) + ' spm'].map(t => el('span', null, t)));
    }
  }

  // Each side's pieces as a choice: the whole session, or one piece (GET /api/sessions/{id}/pieces;
  // a plan's intervals numbered as on the session page).
  async pieceChoices() {
    await Promise.all(SIDES.map(async key => {
      const id = this.data[key].id;
      if (!this.pieces[id]) {
        try {
          const r = await fetch(`/api/sessions/${encodeURIComponent(id)}/pieces`, { cache: 'no-store' });
          const answer = r.ok ? await r.json() : {};
          this.pieces[id] = { kind: answer.kind, list: answer.pieces || [] };
        } catch (e) { this.pieces[id] = { kind: null, list: [] }; }
      }
      const select = $('compare-piece-' + key);
      const { kind, list } = this.pieces[id];
      select.replaceChildren(new Option('Whole session', ''));
      list.forEach((p, k) => select.add(new Option((kind === 'workout' ? `${p.index}. ` : '')
        + `${p.label} · ${clock(p.time_s)} · ${metres(p.distance_m)}`, String(k + 1))));
      select.value = this.refs[key].piece ? String(this.refs[key].piece) : '';
      select.onchange = () => {
        const chosen = this.choose(key, Number(select.value) || null);
        location.hash = compareHash(ref(chosen.a.id, chosen.a.piece), ref(chosen.b.id, chosen.b.piece));
      };
    }));
  }

  // Both sides after side `key` is set to piece `k` (null: the whole session). Two sessions that
  // rowed a plan put interval k beside interval k: the other side, when still on its whole
  // session, takes its interval k too (once both are set, each is changed on its own).
  choose(key, k) {
    const other = key === 'a' ? 'b' : 'a';
    const mine = this.refs[key], theirs = this.refs[other];
    const chosen = { [key]: { id: mine.id, piece: k }, [other]: theirs };
    const plans = [mine.id, theirs.id].map(id => this.pieces[id] || { kind: null, list: [] });
    if (k && theirs.piece == null && mine.id !== theirs.id && plans.every(p => p.kind === 'workout') && k <= plans[1].list.length) {
      chosen[other] = { id: theirs.id, piece: k };
    }
    return chosen;
  }

  // Both trails on one map (made while the page is on screen), a pin at each one's start and finish.
  drawMap() {
    if (this.map) this.map.remove();
    this.map = plainMap($('compare-map'), { zoomSnap: 0.25 });
    this.trails = {};
    const all = [];
    for (const key of SIDES) {
      const t = this.data[key].trail;
      const points = t.lat_deg.map((lat, i) => [lat, t.lon_deg[i]]);
      all.push(...points);
      // A wider under B: on the same water the two lie on each other, and both still show.
      this.trails[key] = L.polyline(points, { color: COLOURS[key], weight: key === 'a' ? 9 : 4, opacity: 0.95 }).addTo(this.map);
    }
    for (const key of SIDES) {
      const points = this.trails[key].getLatLngs();
      if (!points.length) continue;
      const pin = (p, fill, what) => L.circleMarker(p, { radius: 8, color: COLOURS[key], weight: 3, fillColor: fill, fillOpacity: 1 })
        .bindTooltip(`${key.toUpperCase()} ${what}`).addTo(this.map);  // fixed words: no data in them
      pin(points[0], '#2ecc40', 'start');
      pin(points[points.length - 1], '#ff3b30', 'finish');
    }
    if (all.length) this.map.fitBounds(L.latLngBounds(all), { padding: [18, 18] });
    // Each side's title and piece label as text.
    const legend = $('compare-legend');
    legend.replaceChildren();
    SIDES.forEach((key, i) => {
      const s = this.data[key];
      const piece = s.piece ? ` · ${s.interval ? `${s.interval}. ` : ''}${s.piece_label || 'piece ' + s.piece}` : '';
      const step = legendStep(COLOURS[key], `${key.toUpperCase()}: ${s.title || 'untitled'}${piece}`);
      step.dataset.side = key;
      legend.append(i ? ' ' : '', step);
    });
    for (const [colour, what] of [['#2ecc40', 'start'], ['#ff3b30', 'finish']]) {
      const step = legendStep(colour, what);
      step.firstChild.className = 'pin';
      legend.append(' ', step);
    }
  }

  // Split and rate of each segment against distance (km), a flat step over each segment.
  drawPlots() {
    const segs = this.data.segments;
    const steps = (key, field) => {
      if (!segs.length) return [];
      const values = segs.map(s => s[key][field]);
      const data = segs.map((s, i) => ({ x: s.from_m / 1000, y: values[i] }));
      data.push({ x: segs[segs.length - 1].to_m / 1000, y: values[values.length - 1] });
      return data;
    };
    // pad: the least room above and below the data (a few tenths apart are not drawn as a cliff).
    const draw = (chart, canvas, field, format, reverse, pad) => {
      if (chart) chart.destroy();
      // Chart.js's `stepped: true` ('before') holds each point's value until the next point.
      const datasets = SIDES.map(key => ({
        label: key.toUpperCase(), data: steps(key, field), borderColor: COLOURS[key], backgroundColor: COLOURS[key],
        borderWidth: 2, pointRadius: 0, stepped: true, spanGaps: false,
      }));
      const values = segs.flatMap(s => SIDES.map(k => s[k][field])).filter(v => v != null && isFinite(v));
      const low = values.length ? Math.floor(Math.min(...values) - pad) : undefined;
      const high = values.length ? Math.ceil(Math.max(...values) + pad) : undefined;
      return new Chart(canvas, {
        type: 'line',
        data: { datasets },
        options: {
          animation: false, maintainAspectRatio: false, parsing: false,
          plugins: { legend: { display: true, labels: { color: '#ddd', boxWidth: 14, boxHeight: 3 } }, tooltip: { enabled: false } },
          scales: {
            x: { type: 'linear', min: 0, title: { display: true, text: 'km', color: '#999' }, ticks: { color: '#bbb' }, grid: { color: '#333' } },
            y: { reverse, suggestedMin: low, suggestedMax: high, ticks: { color: '#bbb', maxTicksLimit: 5, callback: format }, grid: { color: '#333' } },
          },
        },
      });
    };
    this.splitChart = draw(this.splitChart, $('compare-split-chart'), 'split_s_per_500m', v => v > 0 ? clock(v).replace(/\.0$/, '') : '', true, 4);
    this.rateChart = draw(this.rateChart, $('compare-rate-chart'), 'rate_spm', v => String(Math.round(v * 10) / 10), false, 2);
    const noRate = SIDES.filter(key => segs.every(s => s[key].rate_spm == null)).map(k => k.toUpperCase());
    $('compare-rate-note').textContent = noRate.length ? `no stroke data for ${noRate.join(' and ')}` : '';
  }

  // One row per segment: each side's time at its end, split and rate; the gap and who gained.
  // A course's gate names go in as text.
  fillTable() {
    const course = !!this.data.course;
    const table = $('compare-table');
    table.innerHTML = `<thead><tr><th>${course ? 'Gate' : 'At'}</th>`
      + SIDES.map(k => `<th class="time side-${k}">${k.toUpperCase()} time</th><th class="side-${k}">${k.toUpperCase()} split</th>`
        + `<th class="side-${k}">${k.toUpperCase()} rate</th><th class="strokes side-${k}">${k.toUpperCase()} str</th>`).join('')
      + '<th>Gap</th><th class="gained">In leg</th></tr></thead>';
    const body = document.createElement('tbody');
    for (const s of this.data.segments) {
      const tr = document.createElement('tr');
      tr.dataset.segment = s.number;
      tr.append(el('td', null, course ? s.label.split(' → ').pop() : metres(s.to_m) + (s.partial ? '*' : '')));
      for (const k of SIDES) {
        const leg = s[k];
        tr.append(el('td', 'time', clock(leg.elapsed_s)), el('td', null, split(leg.split_s_per_500m)), el('td', null, rate(leg.rate_spm)),
          el('td', 'strokes', leg.strokes == null ? NO_DATA : leg.strokes));
      }
      const ahead = s.gap_s == null || Math.round(Math.abs(s.gap_s) * 10) === 0 ? '' : s.gap_s > 0 ? 'a' : 'b';
      const gainer = s.a_gained_s == null || Math.round(Math.abs(s.a_gained_s) * 10) === 0 ? '' : s.a_gained_s > 0 ? 'a' : 'b';
      const gap = el('td', 'gap', gapText(s.gap_s));
      gap.dataset.value = s.gap_s == null ? '' : s.gap_s;
      gap.dataset.ahead = ahead;
      const gained = el('td', 'gained', gainedText(s.a_gained_s));
      gained.dataset.value = s.a_gained_s == null ? '' : s.a_gained_s;
      gained.dataset.ahead = gainer;
      tr.append(gap, gained);
      body.appendChild(tr);
    }
    table.appendChild(body);
    const partial = this.data.segments.find(s => s.partial);
    $('compare-partial').textContent = partial ? `* to the end of the shorter side (${metres(partial.to_m)})` : '';
  }
}

// The fleet (#fleet), on a coach's launch (`oarlog serve --coach`): every boat the broker brings,
// polled from GET /api/fleet once a second while the page is on screen — the map (fleet-map.js),
// a table of boats (state, rate, split, distance, strokes, when last heard; greyed and flagged
// when silent for over 30 s), in race mode the results as a regatta shows them and the gaps at
// each gate, and where boats crossed paths (tap one: the map goes there). "—" where there is no
// data. The raw value of each figure is in its cell's data-value (for tests and tools).
// The plan box sends a workout to every boat or to one (POST /api/fleet/workout, the token
// needed); each boat's row shows where its crew is in its plan (piece n of m, what is left) and
// its cox's answer: ✓ accepted, ✗ declined, … waiting.
import { getJSON, token, ensurePaired } from './api.js';
import { NO_DATA, clock, split, metres, METRICS } from './metrics.js';
import { FleetMap, BOAT_COLOURS } from './fleet-map.js';

const $ = id => document.getElementById(id);

export const POLL_MS = 1000;
// A boat not heard for longer than this is greyed and flagged.
export const STALE_S = 30;

const rate = METRICS.find(m => m.key === 'stroke_rate_spm').format;
const count = v => v == null ? NO_DATA : String(v);
// "12 s ago", "4 min ago".
export function heardText(s) {
  if (s == null || !isFinite(s)) return NO_DATA;
  return s < 120 ? `${Math.floor(s)} s ago` : `${Math.floor(s / 60)} min ago`;
}
// A gap behind the leader: "+2.3 s", "+11.4 m".
const plus = (v, unit) => v == null || !isFinite(v) ? NO_DATA : `+${v.toFixed(1)} ${unit}`;
// The time of day of an ISO 8601 UTC time: "07:01:23".
const timeOfDay = utc => utc ? utc.slice(11, 19) : NO_DATA;

// Where a boat's crew is in its plan: "Piece 2 of 3 · 1:12 left", "Rest · 0:45 · then piece 3",
// "Plan waiting for the first catch", "Plan done"; '' without a plan.
export function workoutText(w) {
  if (!w) return '';
  if (w.phase === 'waiting') return `Plan of ${w.pieces} piece${w.pieces === 1 ? '' : 's'} · waiting for the first catch`;
  if (w.phase === 'finished') return 'Plan done';
  const left = w.remaining_s != null ? `${clock(w.remaining_s)} left` : w.remaining_m != null ? `${metres(w.remaining_m)} left` : '';
  if (w.kind === 'rest') return `Rest · ${w.remaining_s != null ? clock(w.remaining_s) : NO_DATA} left`;
  const what = w.piece != null ? `Piece ${w.piece} of ${w.pieces}` : (w.step_kind === 'warmup' ? 'Warm-up' : w.step_kind === 'cooldown' ? 'Cool-down' : 'Step');
  return left ? `${what} · ${left}` : what;
}

// The cox's answer to the coach's plan.
export const ANSWER_MARKS = { accepted: '✓ accepted', declined: '✗ declined', waiting: '… waiting' };

export class FleetPage {
  constructor() {
    this.map = new FleetMap($('fleet-map'));
    this.colours = new Map();
    this.data = null;     // the /api/fleet answer shown
    this.renders = 0;
    this.active = false;
    this.loop = 0;        // the polling loop running (a new one on each load)
    $('fleet-fit').onclick = () => this.map.fit();
    $('fleet-plan').onsubmit = e => { e.preventDefault(); this.sendPlan(); };
    $('fleet-plan-boat').onchange = () => this.labelSend();
  }

  // The plan in the box to the boat chosen (or to all). A bad spec shows its message with a
  // caret under the column.
  async sendPlan() {
    const spec = $('fleet-plan-spec').value.trim();
    const boat = $('fleet-plan-boat').value || null;
    const error = $('fleet-plan-error');
    const show = text => { error.textContent = text; error.hidden = false; };
    error.hidden = true;
    if (!spec) return show('Write a plan, e.g. 3x4:00/2:00r');
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (!token() && !(await ensurePaired())) return show('Not sent: this phone is not paired');
        const r = await fetch('/api/fleet/workout', {
          method: 'POST', headers: { 'Authorization': 'Bearer ' + token(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ spec, boat }),
        });
        if (r.status === 401) { localStorage.removeItem('oarlog.token'); continue; }
        const answer = await r.json();
        if (!r.ok) {
          const e = answer.error || {};
          return show((e.pointer ? e.pointer + '\n' : '') + (e.message || r.status));
        }
        return this.sent(boat);
      }
      show('Not sent: the token was refused');
    } catch (e) {
      show('Not sent: ' + e.message);
    }
  }

  sent(boat) {
    const name = boat == null ? 'every boat' : ($('fleet-plan-boat').selectedOptions[0]?.textContent || boat);
    $('fleet-plan-sent').textContent = `Sent to ${name} at ${new Date().toTimeString().slice(0, 8)}`;
  }

  labelSend() {
    const select = $('fleet-plan-boat');
    $('fleet-plan-send').textContent = select.value ? `Send to ${select.selectedOptions[0].textContent}` : 'Send to all';
  }

  // The boats to send to: all, or each boat heard (the choice kept while the list changes).
  renderPlanBox(boats) {
    const select = $('fleet-plan-boat');
    const chosen = select.value;
    const wanted = ['', ...boats.map(b => b.id)];
    const have = [...select.options].map(o => o.value);
    if (wanted.join('\n') !== have.join('\n')) {
      select.replaceChildren();
      for (const b of [{ id: '', name: 'All boats' }, ...boats]) {
        const o = document.createElement('option');
        o.value = b.id;
        o.textContent = b.name;
        select.appendChild(o);
      }
      select.value = wanted.includes(chosen) ? chosen : '';
    }
    this.labelSend();
  }

  colourOf(id) {
    if (!this.colours.has(id)) this.colours.set(id, BOAT_COLOURS[this.colours.size % BOAT_COLOURS.length]);
    return this.colours.get(id);
  }

  // The page is shown: poll until it is left (stop()).
  load() {
    this.active = true;
    this.poll(++this.loop);
  }

  stop() {
    this.active = false;
    this.loop++;
    clearTimeout(this.timer);
  }

  async poll(loop) {
    try {
      const data = await getJSON('/api/fleet');
      if (loop !== this.loop) return;
      this.error(null);
      this.render(data);
    } catch (e) {
      if (loop !== this.loop) return;
      this.error('The fleet could not be read: ' + e.message);
    }
    if (loop === this.loop && this.active) this.timer = setTimeout(() => this.poll(loop), POLL_MS);
  }

  error(text) {
    $('fleet-error').hidden = text == null;
    $('fleet-error').textContent = text || '';
  }

  render(data) {
    for (const b of data.boats) b.stale = b.heard_s_ago != null && b.heard_s_ago > STALE_S;
    this.data = data;
    this.renderBroker(data.broker);
    $('fleet-empty').hidden = data.boats.length > 0;
    this.map.update(data, id => this.colourOf(id));
    this.renderBoats(data.boats);
    this.renderPlanBox(data.boats);
    this.renderRace(data.race);
    this.renderMeetings(data.meetings);
    this.renders++;
  }

  renderBroker(broker) {
    const line = $('fleet-broker');
    line.dataset.connected = String(broker.connected);
    line.textContent = broker.connected
      ? `${broker.address} · connected · ${broker.messages} messages` + (broker.unreadable ? ` · ${broker.unreadable} unreadable` : '')
      : `${broker.address} · not connected` + (broker.problem ? `: ${broker.problem}` : '');
  }

  // A cell with its text and the raw value.
  static cell(tr, name, text, raw) {
    const td = document.createElement('td');
    td.className = name;
    td.textContent = text;
    td.dataset.value = raw == null ? '' : String(raw);
    tr.appendChild(td);
    return td;
  }

  swatch(id) {
    const s = document.createElement('span');
    s.className = 'swatch';
    s.style.background = this.colourOf(id);
    return s;
  }

  // One row per boat: the name (its colour as on the map) with its state and when it was last
  // heard under it (room for big figures at phone width), the figures. A tap centres the map on the boat.
  renderBoats(boats) {
    const body = $('fleet-boats').tBodies[0];
    body.replaceChildren();
    for (const b of boats) {
      const tr = document.createElement('tr');
      tr.dataset.id = b.id;
      tr.classList.toggle('stale', b.stale);
      const name = document.createElement('th');
      name.className = 'boat';
      name.innerHTML = '<span class="boat-name"></span><span class="boat-line"><span class="boat-state"></span> · <span class="heard"></span></span>';
      name.prepend(this.swatch(b.id));
      name.querySelector('.boat-name').textContent = b.name;
      FleetPage.renderWorkout(name, b);
      const state = name.querySelector('.boat-state');
      state.textContent = b.state;
      state.dataset.state = b.state;
      tr.appendChild(name);
      FleetPage.cell(tr, 'rate', rate(b.rate_spm), b.rate_spm);
      FleetPage.cell(tr, 'split', split(b.split_s_per_500m), b.split_s_per_500m);
      FleetPage.cell(tr, 'distance', metres(b.distance_m), b.distance_m);
      // The boat's own count: each stroke from its catch message, before it is concluded.
      const strokes = Math.max(b.strokes, b.strokes_caught || 0);
      FleetPage.cell(tr, 'strokes', count(strokes), strokes);
      const heard = name.querySelector('.heard');
      heard.textContent = heardText(b.heard_s_ago);
      heard.dataset.value = b.heard_s_ago == null ? '' : String(b.heard_s_ago);
      if (b.stale) heard.title = `not heard for over ${STALE_S} s`;
      if (b.lat != null && b.lon != null) {
        tr.classList.add('located');
        tr.onclick = () => this.showOnMap(b.lat, b.lon);
      }
      body.appendChild(tr);
    }
  }

  // Under the boat's name: its piece and what is left, and its answer to the plan ("✓ accepted 3x4:00/2:00r").
  static renderWorkout(cell, b) {
    const text = workoutText(b.workout);
    if (!text && !b.plan) return;
    const line = document.createElement('span');
    line.className = 'boat-workout';
    const piece = document.createElement('span');
    piece.className = 'piece';
    piece.textContent = text;
    piece.dataset.piece = b.workout?.piece ?? '';
    piece.dataset.remaining = b.workout?.remaining_s ?? b.workout?.remaining_m ?? '';
    line.appendChild(piece);
    if (b.plan) {
      const answer = document.createElement('span');
      answer.className = 'plan-answer';
      answer.dataset.answer = b.plan.answer;
      answer.textContent = (text ? ' · ' : '') + `${ANSWER_MARKS[b.plan.answer] || b.plan.answer} ${b.plan.name}`;
      line.appendChild(answer);
    }
    cell.appendChild(line);
  }

  // Race mode: the results (finished boats by time, then the others by how far along) and the
  // gaps at each gate; hidden without a course.
  renderRace(race) {
    $('fleet-race').hidden = race == null;
    $('fleet-gaps-panel').hidden = race == null;
    if (!race) return;
    $('fleet-race-name').textContent = `${race.course} · ${metres(race.length_m)}`;
    const body = $('fleet-results').tBodies[0];
    body.replaceChildren();
    for (const r of race.results) {
      const tr = document.createElement('tr');
      tr.dataset.id = r.id;
      const finished = r.time_s != null;
      tr.classList.toggle('finished', finished);
      FleetPage.cell(tr, 'place', r.place == null ? NO_DATA : String(r.place), r.place);
      const boat = FleetPage.cell(tr, 'boat', r.boat, r.id);
      boat.prepend(this.swatch(r.id));
      if (finished) {
        FleetPage.cell(tr, 'time', clock(r.time_s), r.time_s);
        FleetPage.cell(tr, 'margin', plus(r.margin_s, 's'), r.margin_s);
        FleetPage.cell(tr, 'split', split(r.split_s_per_500m), r.split_s_per_500m);
      } else {
        // Still racing (or not started): how far along the course, and the last gate passed.
        const along = FleetPage.cell(tr, 'along', FleetPage.alongText(r), r.along_m);
        along.colSpan = 3;
      }
      body.appendChild(tr);
    }
    const gaps = $('fleet-gaps');
    gaps.replaceChildren();
    for (const g of race.gates) {
      const section = document.createElement('tbody');
      section.dataset.gate = g.name;
      const head = document.createElement('tr');
      head.className = 'gate';
      head.innerHTML = '<th colspan="4"><span class="gate-name"></span> <span class="unit gate-distance"></span></th>';
      head.querySelector('.gate-name').textContent = g.name;
      // "Start · 0 m"; a gate named by its distance ("500 m") once.
      head.querySelector('.gate-distance').textContent = g.name === metres(g.distance_m) ? '' : metres(g.distance_m);
      section.appendChild(head);
      if (!g.times.length) {
        const none = document.createElement('tr');
        none.className = 'none';
        none.innerHTML = '<td colspan="4">no boat yet</td>';
        section.appendChild(none);
      }
      for (const t of g.times) {
        const tr = document.createElement('tr');
        tr.dataset.id = t.id;
        const boat = FleetPage.cell(tr, 'boat', t.boat, t.id);
        boat.prepend(this.swatch(t.id));
        FleetPage.cell(tr, 'time', clock(t.time_s), t.time_s);
        FleetPage.cell(tr, 'behind-s', plus(t.behind_s, 's'), t.behind_s);
        FleetPage.cell(tr, 'behind-m', plus(t.behind_m, 'm'), t.behind_m);
        section.appendChild(tr);
      }
      gaps.appendChild(section);
    }
  }

  // An unfinished boat's place on the course: "612 m · past 500 m", or "not started".
  static alongText(r) {
    if (r.along_m == null && r.last_gate == null) return 'not started';
    return `${metres(r.along_m)} · past ${r.last_gate == null ? NO_DATA : r.last_gate}`;
  }

  // Where boats crossed paths, newest first as the API lists them: the two boats, the time of
  // the closest approach, how close, how long they were within the meeting distance.
  renderMeetings(meetings) {
    const list = $('fleet-meetings');
    list.replaceChildren();
    $('fleet-no-meetings').hidden = meetings.length > 0;
    for (const m of meetings) {
      const li = document.createElement('li');
      li.className = 'meeting' + (m.ongoing ? ' ongoing' : '');
      li.innerHTML = '<span class="meeting-boats"></span><span class="meeting-figures"><span class="meeting-time"></span>'
        + '<span class="meeting-closest"></span><span class="meeting-duration"></span></span>';
      li.querySelector('.meeting-boats').textContent = m.boats.join(' & ') + (m.ongoing ? ' (now)' : '');
      li.querySelector('.meeting-time').textContent = timeOfDay(m.closest_utc);
      li.querySelector('.meeting-closest').textContent = m.closest_m == null ? NO_DATA : `${m.closest_m.toFixed(1)} m apart`;
      li.querySelector('.meeting-duration').textContent = `for ${clock(m.duration_s)}`;
      if (m.lat != null && m.lon != null) {
        li.tabIndex = 0;
        li.onclick = () => this.showOnMap(m.lat, m.lon);
      }
      list.appendChild(li);
    }
  }

  showOnMap(lat, lon) {
    this.map.centre(lat, lon);
    $('fleet-map').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  resized() {
    if (!$('fleet-page').hidden) this.map.resized();
  }
}

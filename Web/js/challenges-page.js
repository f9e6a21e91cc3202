// Challenges (#challenges): every challenge on the club's courses with its state — open, an
// attempt waiting for the challenger, accepted, rejected (open for another attempt), expired —
// (GET /api/challenges, `oarlog challenges --json`); a form to set one (POST /api/challenges:
// the course chosen from GET /api/courses when the server has it, else typed); the attempt
// waiting accepted or rejected with a note (POST /api/challenges/{id}/accept|reject); and the
// map of the linked attempt: its session's track from the start crossing to the finish
// (GET /api/sessions/{id}/trail). docs/CHALLENGES.md.
import { getJSON, control } from './api.js';
import { clock, NO_DATA } from './metrics.js';
import { plainMap } from './boat-map.js';

const $ = id => document.getElementById(id);
const STATE_TEXT = { open: 'Open', waiting: 'Waiting for an answer', accepted: '✓ Accepted', rejected: '✗ Rejected · open', expired: 'Expired' };
const day = iso => iso ? iso.slice(0, 10) : NO_DATA;

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = text;
  return e;
}

export class ChallengesPage {
  constructor() {
    this.challenges = [];
    this.loaded = false;
    this.map = null;
    this.shown = null;  // the challenge whose attempt is on the map
    $('ch-form').addEventListener('submit', e => { e.preventDefault(); this.set(); });
  }

  async load() {
    this.loaded = false;
    $('ch-error').hidden = true;
    await this.loadCourses();
    try {
      this.challenges = await getJSON('/api/challenges');
    } catch (e) {
      $('ch-error').textContent = 'The challenges could not be read: ' + e.message;
      $('ch-error').hidden = false;
      this.challenges = [];
    }
    this.render();
    const first = this.challenges.find(c => c.attempt);
    if (first) await this.showAttempt(this.shown && this.challenges.find(c => c.id === this.shown && c.attempt) || first);
    else $('ch-map-panel').hidden = true;
    this.loaded = true;
  }

  // The course picker: the kept courses from /api/courses, or a text field when there is none.
  async loadCourses() {
    let names = null;
    try { names = (await getJSON('/api/courses')).map(c => c.name); } catch (e) { /* no /api/courses on this server */ }
    const select = $('ch-course-pick'), text = $('ch-course');
    const pick = names && names.length > 0;
    select.hidden = !pick;
    text.hidden = pick;
    if (pick) select.replaceChildren(...names.map(n => { const o = el('option', null, n); o.value = n; return o; }));
  }

  render() {
    const list = $('ch-list');
    list.replaceChildren();
    $('ch-empty').hidden = this.challenges.length > 0;
    for (const c of this.challenges) list.appendChild(this.card(c));
  }

  card(c) {
    const card = el('div', 'panel ch-card');
    card.dataset.id = c.id;
    card.dataset.state = c.state;
    const head = el('div', 'ch-head');
    head.append(el('b', 'ch-course', c.course), el('span', 'ch-target', ' under ' + clock(c.target_s).replace(/\.0$/, '') + (c.handicap ? ' (handicapped)' : '')),
      el('span', 'ch-state ch-' + c.state, STATE_TEXT[c.state] || c.state));
    card.appendChild(head);
    const who = [c.boat ? 'for ' + c.boat : 'any boat', 'set by ' + c.set_by, c.deadline ? 'before ' + day(c.deadline) : null].filter(Boolean);
    card.appendChild(el('div', 'ch-who', who.join(' · ')));
    if (c.note) card.appendChild(el('div', 'ch-note', '“' + c.note + '”'));
    if (c.attempt) {
      const a = c.attempt;
      const line = el('div', 'ch-attempt');
      line.append(el('span', 'ch-time', clock(a.time_s)),
        el('span', null, (a.handicapped_s != null && c.handicap ? ' (' + clock(a.handicapped_s) + ' handicapped)' : '') + ' · ' + a.boat + ' · ' + day(a.date) + ' '));
      const open = el('a', 'ch-session', 'session');
      open.href = '#session/' + encodeURIComponent(a.session);
      const map = el('button', 'ch-show', 'Map');
      map.type = 'button';
      map.onclick = () => this.showAttempt(c);
      line.append(open, map);
      card.appendChild(line);
    }
    // The other attempts in the challenge's time (the last three), ✓ for one that met it too.
    if (c.tried.length) card.appendChild(el('div', 'ch-tried', (c.attempt ? 'Also rowed: ' : 'Tried: ')
      + c.tried.slice(-3).map(a => clock(a.time_s) + (a.met ? ' ✓' : '')).join(', ') + (c.tried.length > 3 ? ` (${c.tried.length} in all)` : '')));
    if (c.answer) card.appendChild(el('div', 'ch-answer', (c.answer.accepted ? 'Accepted' : 'Rejected') + ' by ' + c.answer.by + (c.answer.note ? ': ' + c.answer.note : '')));
    if (c.state === 'waiting') card.appendChild(this.answerForm(c));
    return card;
  }

  answerForm(c) {
    const form = el('div', 'ch-answer-form');
    const note = el('input', 'ch-answer-note');
    note.placeholder = 'A note for the crew';
    note.maxLength = 2000;
    const accept = el('button', 'ch-accept', 'Accept'), reject = el('button', 'ch-reject', 'Reject');
    const error = el('div', 'error');
    const answer = async verdict => {
      try {
        await control('POST', `/api/challenges/${encodeURIComponent(c.id)}/${verdict}`, { note: note.value });
        await this.load();
      } catch (e) { error.textContent = e.message; }
    };
    accept.onclick = () => answer('accept');
    reject.onclick = () => answer('reject');
    form.append(note, accept, reject, error);
    return form;
  }

  async set() {
    const pick = $('ch-course-pick');
    const body = {
      course: pick.hidden ? $('ch-course').value : pick.value, under: $('ch-under').value, before: $('ch-before').value || null,
      boat: $('ch-boat').value || null, handicap: $('ch-handicap').checked, by: $('ch-by').value || null, note: $('ch-note').value || null,
    };
    $('ch-form-error').textContent = '';
    try {
      await control('POST', '/api/challenges', body);
      $('ch-under').value = '';
      $('ch-note').value = '';
      await this.load();
    } catch (e) { $('ch-form-error').textContent = e.message; }
  }

  // The linked attempt on the map: the session's trail from the start crossing to the finish.
  async showAttempt(c) {
    const a = c.attempt;
    this.shown = c.id;
    $('ch-map-panel').hidden = false;
    $('ch-map-title').textContent = `${c.course}: ${a.boat}, ${clock(a.time_s)}`;
    let trail;
    try { trail = await getJSON(`/api/sessions/${encodeURIComponent(a.session)}/trail?points=5000`); } catch (e) {
      $('ch-map-title').textContent += ' (the session is not on this server)';
      if (this.line) this.line.remove();
      return;
    }
    const points = [];
    for (let i = 0; i < trail.t_s.length; i++) {
      if (trail.t_s[i] >= a.start_s - 1 && trail.t_s[i] <= a.start_s + a.time_s + 1) points.push([trail.lat_deg[i], trail.lon_deg[i]]);
    }
    if (!this.map) this.map = plainMap($('ch-map'), { scrollWheelZoom: false, zoomSnap: 0.5 });
    this.map.invalidateSize();
    if (this.line) this.line.remove();
    if (this.ends) this.ends.remove();
    if (points.length < 2) return;
    this.line = L.polyline(points, { color: '#ffd200', weight: 4 }).addTo(this.map);
    this.ends = L.layerGroup([
      L.circleMarker(points[0], { radius: 7, color: '#2ecc40', weight: 3 }).bindTooltip('start', { permanent: true, direction: 'right' }),
      L.circleMarker(points[points.length - 1], { radius: 7, color: '#ff6b6b', weight: 3 }).bindTooltip('finish', { permanent: true, direction: 'right' }),
    ]).addTo(this.map);
    this.map.fitBounds(this.line.getBounds(), { padding: [20, 20] });
  }

  resized() { if (this.map && !$('challenges-page').hidden) this.map.invalidateSize(); }
}

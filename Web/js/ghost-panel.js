// The ghost on the cox's live screen (docs/GHOST.md): before the start, the chooser (a saved
// course and its best, or one of its leaderboard's attempts: GET /api/live/ghost/choices, PUT
// /api/live/ghost); while a recording races it, the gap to the ghost at the same distance along
// the course — + behind, − ahead, in seconds large and metres beside, updated at every catch —,
// the ghost's dot on the map, and the gap at each gate as it is crossed. Fed by the live stream's
// ghost_choice, ghost, ghost_gate and ghost_race messages.
import { control, getJSON } from './api.js';
import { el } from './dom.js';
import { NO_DATA } from './metrics.js';

const $ = id => document.getElementById(id);

// A gap as the cox reads it: +2.4 behind, −1.0 ahead, 0.0 level (one decimal).
export function gapText(value, places = 1) {
  if (value == null || !isFinite(value)) return NO_DATA;
  const text = Math.abs(value).toFixed(places);
  if (Number(text) === 0) return text;
  return (value > 0 ? '+' : '−') + text;
}

// A time from the start: m:ss.t.
export function raceTime(seconds) {
  if (seconds == null || !isFinite(seconds)) return NO_DATA;
  const tenths = Math.round(seconds * 10);
  const m = Math.floor(tenths / 600), s = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return `${m}:${s}`;
}

export class GhostPanel {
  constructor(map) {
    this.map = map;
    this.ghost = null;     // the attempt chosen (ghost_choice's ghost)
    this.status = null;    // the gap at the latest catch
    this.gates = [];       // gates crossed in this race
    this.finish = null;    // the race's end: {time_s, gap_s}
    this.started = false;
    this.racing = false;   // a recording runs
    this.choices = [];
    this.wire();
    this.render();
    this.load();
  }

  wire() {
    $('gh-course').onchange = () => this.fillAttempts();
    $('gh-set').onclick = () => {
      const course = $('gh-course').value;
      if (course) this.choose({ course, ghost: $('gh-attempt').value || 'best' });
    };
    $('gh-clear').onclick = () => this.choose({ ghost: null });
  }

  // The courses and their fastest attempts, and the ghost chosen already (another phone, --ghost).
  async load() {
    try {
      const [choices, now] = await Promise.all([getJSON('/api/live/ghost/choices'), getJSON('/api/live/ghost')]);
      this.choices = Array.isArray(choices) ? choices : [];
      if (now && now.ghost && !this.ghost) this.setGhost(now.ghost);
    } catch (e) {
      this.choices = [];  // an older server, or no courses: the chooser stays empty
    }
    const select = $('gh-course');
    select.replaceChildren(el('option', null, this.choices.length ? 'Course…' : 'No saved courses'));
    select.firstChild.value = '';
    for (const c of this.choices) {
      const option = el('option', null, `${c.name} (${Math.round(c.length_m)} m)`);
      option.value = c.name;
      select.appendChild(option);
    }
    if (this.ghost && this.choices.some(c => c.name === this.ghost.course)) select.value = this.ghost.course;
    // No course kept: nothing to choose, only a word on how to keep one.
    const none = this.choices.length === 0;
    for (const id of ['gh-course', 'gh-attempt', 'gh-set']) $(id).hidden = none;
    $('gh-none').hidden = !none;
    this.fillAttempts();
  }

  // Best first, then the leaderboard's attempts: time, boat, date.
  fillAttempts() {
    const course = this.choices.find(c => c.name === $('gh-course').value);
    const select = $('gh-attempt');
    select.replaceChildren();
    const best = el('option', null, course && course.attempts.length ? `Best (${raceTime(course.attempts[0].time_s)})` : 'Best');
    best.value = 'best';
    select.appendChild(best);
    for (const a of course ? course.attempts : []) {
      const when = a.date ? a.date.slice(0, 10) : a.session;
      const option = el('option', null, `${raceTime(a.time_s)} · ${a.boat || 'no boat'} · ${when}`);
      option.value = a.ghost;
      select.appendChild(option);
    }
    $('gh-set').disabled = !course;
  }

  async choose(body) {
    const error = $('gh-error');
    try {
      const answer = await control('PUT', '/api/live/ghost', body);
      error.textContent = '';
      this.setGhost(answer.ghost);
    } catch (e) {
      error.textContent = e.message;
    }
  }

  setRacing(racing) {
    if (this.racing === racing) return;
    this.racing = racing;
    if (racing) this.clearRace();
    else this.load();
    this.render();
  }

  setGhost(ghost) {
    this.ghost = ghost || null;
    this.map.ghostTrack(this.ghost ? this.ghost.track : null);
    this.render();
  }

  clearRace() {
    this.status = null;
    this.gates = [];
    this.finish = null;
    this.started = false;
    this.map.clearGhost();
  }

  reset() {
    this.clearRace();
    this.render();
  }

  message(m) {
    switch (m.type) {
      case 'ghost_choice': this.setGhost(m.ghost); return;
      case 'ghost':
        this.started = true;
        this.status = m;
        this.map.ghostAt(m.ghost_lat, m.ghost_lon);
        break;
      case 'ghost_gate':
        this.started = true;
        this.gates.push(m);
        break;
      case 'ghost_race':
        if (m.event === 'started') { this.clearRace(); this.started = true; } else this.finish = m;
        break;
      case 'session':
        if (m.event === 'started') this.clearRace();
        return;
      default: return;
    }
    this.render();
  }

  render() {
    const g = this.ghost;
    $('gh-chosen').textContent = g ? `${g.course} · ${g.choice === 'best' ? 'best' : g.session} (${raceTime(g.time_s)})` : 'none';
    $('gh-clear').hidden = !g;
    $('ghost-chooser').hidden = this.racing;
    const live = $('ghost-live');
    live.hidden = !(g && this.racing);
    if (live.hidden) return;
    $('gh-who').textContent = `${g.course} · ${raceTime(g.time_s)}`;
    const last = this.finish || this.status || this.gates[this.gates.length - 1];
    const gap = last ? last.gap_s : null;
    live.dataset.side = gap == null ? 'level' : gap > 0.05 ? 'behind' : gap < -0.05 ? 'ahead' : 'level';
    $('gh-gap-s').textContent = gap == null ? NO_DATA : gapText(gap) + ' s';
    $('gh-gap-m').textContent = this.status && !this.finish ? gapText(this.status.gap_m, 0) + ' m' : '';
    let state;
    if (this.finish) state = `Finished in ${raceTime(this.finish.time_s)}: ${gapText(this.finish.gap_s)} s on the ghost`;
    else if (!this.started) state = 'Cross the start line to race';
    else if (this.status) state = `${Math.round(this.status.along_m)} of ${Math.round(g.length_m)} m · ghost at ${Math.round(this.status.ghost_along_m)} m`;
    else state = 'Racing';
    $('gh-state').textContent = state;
    $('gh-gates').replaceChildren(...this.gates.map(x => {
      const row = el('li', x.gap_s > 0.05 ? 'behind' : x.gap_s < -0.05 ? 'ahead' : null);
      row.append(el('span', 'gate', x.gate), el('span', 'time', raceTime(x.t_s)), el('span', 'gap', gapText(x.gap_s)));
      return row;
    }));
  }
}

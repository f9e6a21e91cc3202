// The workout on the cox's live screen (docs/API.md, "The workout in the boat"). Before the
// start: the plan chooser (a plan typed as rowers write it, or a saved plan when the boat serves
// /api/workouts) and "starts at go". While a recording rows a plan: piece n of m, what is left of
// it counting down, the rest's countdown large with what comes next, each target beside the live
// figure coloured and worded in/under/over its band, a beep at 10 s and 0 s of a rest and at the
// end of a piece. At any time: the coach's plan as a banner to accept or decline. Fed by the live
// stream's workout_plan, workout, interval and workout_offer messages.
import { control, getJSON } from './api.js';
import { NO_DATA, split as splitText } from './metrics.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);

// A countdown: whole seconds, rounded up (it shows 0:01 until the second has gone), m:ss.
export function countdown(seconds) {
  if (seconds == null || !isFinite(seconds)) return NO_DATA;
  const t = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function metresLeft(m) {
  return m == null || !isFinite(m) ? NO_DATA : Math.max(0, Math.ceil(m - 1e-6)) + ' m';
}

// A step's length as written on the whiteboard: 4:00, 500m.
function length(step) {
  if (step.time_s != null) return countdown(step.time_s);
  return step.distance_m != null ? Math.round(step.distance_m) + 'm' : NO_DATA;
}

// A band [low, high] as text: 22–24, 1:48–1:52; one value when low = high.
function band(range, format) {
  if (!range) return null;
  const [lo, hi] = range.map(format);
  return lo === hi ? lo : `${lo}–${hi}`;
}

const rateText = v => Number.isInteger(v) ? String(v) : Number(v).toFixed(1);
const splitBand = v => splitText(v).replace(/\.0$/, '');

// A step's targets in words: "22–24 spm · 1:48–1:52".
function targetText(target) {
  if (!target) return '';
  return [band(target.stroke_rate_spm, rateText) && band(target.stroke_rate_spm, rateText) + ' spm',
          band(target.split_s_per_500m, splitBand)].filter(Boolean).join(' · ');
}

const pieces = n => `${n} piece${n === 1 ? '' : 's'}`;

const KINDS = { warmup: 'Warm-up', cooldown: 'Cool-down', rest: 'Rest' };

// What a step is called on the screen: "Piece 2 of 3", "Rest", "Warm-up" (its label beside).
function stepName(kind, piece, pieces) {
  return KINDS[kind] || (piece ? `Piece ${piece} of ${pieces}` : 'Piece');
}

// How the live figure stands against its band: the arrow says where it is, the word what it means.
const VERDICTS = {
  rate: { under: '▼ LOW', over: '▲ HIGH', in: '● IN' },
  split: { under: '▼ FAST', over: '▲ SLOW', in: '● IN' },
};

export class WorkoutPanel {
  constructor() {
    this.plan = null;
    this.startsAtGo = false;
    this.status = null;
    this.offer = null;
    this.racing = false;
    this.beeps = [];  // every beep asked for, {kind, step}: for the browser tests and the curious
    this.audio = null;
    this.saved = new Map();  // saved plans: name → spec (null for one saved in the JSON form)
    this.wire();
    this.render();
    this.loadSaved();
  }

  wire() {
    $('wk-form').onsubmit = e => { e.preventDefault(); this.choose({ spec: $('wk-spec').value.trim() }); };
    $('wk-clear').onclick = () => this.choose({ plan: null });
    $('wk-at-go').onchange = () => { if (this.plan) this.choose(this.choice()); };
    $('wk-saved').onchange = () => { if ($('wk-saved').value) this.choose({ name: $('wk-saved').value }); };
    $('offer-accept').onclick = () => this.answer(true);
    $('offer-decline').onclick = () => this.answer(false);
    // Browsers start Web Audio only after a tap: any tap on the page (Ready, Start) unlocks it.
    for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, () => this.unlockAudio(), { capture: true });
  }

  // The saved plans (GET /api/workouts: `oarlog workouts add`, another phone), read again each
  // time the chooser comes back after a race; when there are none, or the boat's server is older
  // and has none to give, only the typed plan.
  async loadSaved() {
    let saved;
    try { saved = await getJSON('/api/workouts'); } catch (e) { return; }
    const select = $('wk-saved');
    select.replaceChildren(el('option', null, 'Saved plans…'));
    select.firstChild.value = '';
    this.saved = new Map();
    select.hidden = !Array.isArray(saved) || saved.length === 0;
    if (select.hidden) return;
    for (const w of saved) {
      const option = el('option', null, w.summary ? `${w.name} (${w.summary})` : w.name);
      option.value = w.name;
      select.appendChild(option);
      this.saved.set(w.name, w.spec);
    }
    this.syncChooser();
  }

  // The request that gives the chosen plan again (to change "starts at go" only): a saved plan by
  // its name (a saved plan is named so), any other by its spec (its name is the spec as read).
  choice() {
    return this.saved.has(this.plan.name) ? { name: this.plan.name } : { spec: this.plan.name };
  }

  async choose(choice) {
    if (choice.spec === '') return;
    const error = $('wk-error');
    try {
      const answer = await control('PUT', '/api/live/workout', { ...choice, starts_at_go: $('wk-at-go').checked });
      error.replaceChildren();
      this.setPlan(answer.plan, answer.starts_at_go);
    } catch (e) {
      showError(error, e.message, choice.spec);
      $('wk-at-go').checked = this.startsAtGo;
    }
  }

  async answer(accept) {
    if (!this.offer) return;
    try {
      await control('POST', `/api/live/workout/offer/${encodeURIComponent(this.offer.id)}`, { accept });
    } catch (e) {
      $('offer-error').textContent = e.message;
    }
  }

  unlockAudio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!this.audio) this.audio = new Context();
    if (this.audio.state === 'suspended') this.audio.resume();
  }

  // A short high beep 10 s before the rest ends; a long higher one when it ends and when a piece ends.
  beep(kind) {
    this.beeps.push({ kind, step: this.status && this.status.step });
    const audio = this.audio;
    if (!audio || audio.state !== 'running') return;
    const long = kind !== 'rest-10';
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = long ? 1320 : 880;
    const t = audio.currentTime, end = t + (long ? 0.6 : 0.15);
    gain.gain.setValueAtTime(0.4, t);
    gain.gain.setValueAtTime(0.4, end - 0.02);
    gain.gain.linearRampToValueAtTime(0, end);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(end);
  }

  // The beeps a new status calls for, against the one before.
  beepsFor(prev, now) {
    if (!prev || prev.phase === 'waiting') return;
    const ended = prev.step !== now.step || (now.phase === 'finished' && prev.phase !== 'finished');
    if (ended) this.beep(prev.kind === 'rest' ? 'rest-end' : 'piece-end');
    else if (now.kind === 'rest' && prev.remaining_s > 10 && now.remaining_s != null && now.remaining_s <= 10) this.beep('rest-10');
  }

  setRacing(racing) {
    if (this.racing === racing) return;
    this.racing = racing;
    if (racing) this.status = null;
    else this.loadSaved();
    this.render();
  }

  setPlan(plan, startsAtGo) {
    this.plan = plan || null;
    this.startsAtGo = !!startsAtGo;
    $('wk-at-go').checked = this.startsAtGo;
    this.syncChooser();
    this.render();
  }

  // The chooser shows the chosen plan: its spec typed out (a saved one's as saved), and the saved
  // plan picked when it is one.
  syncChooser() {
    const plan = this.plan, saved = plan && this.saved.has(plan.name);
    if (plan && document.activeElement !== $('wk-spec')) $('wk-spec').value = (saved ? this.saved.get(plan.name) : plan.name) || '';
    $('wk-saved').value = saved ? plan.name : '';
  }

  reset() {
    this.status = null;
    $('wk-last').textContent = '';
    this.render();
  }

  message(m) {
    switch (m.type) {
      case 'workout_plan':
        this.setPlan(m.plan, m.starts_at_go);
        break;
      case 'workout':
        if (!this.racing) break;  // a recording's last status, sent to a phone that joins after it
        this.beepsFor(this.status, m);
        this.status = m;
        this.render();
        break;
      case 'interval':
        this.lastInterval = m;
        if (m.kind === 'work') this.showInterval(m);
        break;
      case 'workout_offer':
        this.offer = m.offer;
        this.renderOffer();
        break;
      case 'session':
        if (m.event === 'started') this.reset();
        break;
    }
  }

  showInterval(i) {
    const name = KINDS[i.step] || `Piece ${i.piece}`;
    const figures = [countdown(i.elapsed_s), i.distance_m != null ? Math.round(i.distance_m) + ' m' : null,
      i.avg_stroke_rate_spm != null ? i.avg_stroke_rate_spm.toFixed(1) + ' spm' : null,
      i.avg_split_s_per_500m != null ? splitText(i.avg_split_s_per_500m) : null].filter(Boolean);
    $('wk-last').textContent = `${name}: ${figures.join(' · ')}`;
  }

  renderOffer() {
    const o = this.offer;
    $('workout-offer').hidden = !o;
    $('offer-error').textContent = '';
    if (!o) return;
    $('offer-from').textContent = o.from || 'The coach';
    $('offer-plan').textContent = o.plan ? o.plan.name : '';
    $('offer-steps').textContent = o.plan ? stepsText(o.plan) : '';
  }

  render() {
    $('workout-chooser').hidden = this.racing;
    $('wk-chosen').textContent = this.plan ? `${this.plan.name} · ${pieces(this.plan.pieces)}` : 'none';
    $('wk-steps').textContent = this.plan ? stepsText(this.plan) + (this.startsAtGo ? ' · starts at go' : ' · starts at the first catch') : '';
    $('wk-clear').hidden = !this.plan;
    const live = $('workout-live');
    live.hidden = !(this.racing && this.plan);
    if (!live.hidden) this.renderLive();
  }

  // Where the crew is: from the status, or before its first status from the plan.
  renderLive() {
    const first = this.plan.steps[0] || {};
    const s = this.status || { phase: 'waiting', step: 1, kind: first.kind === 'rest' ? 'rest' : 'work', step_kind: first.kind,
      piece: first.kind === 'work' ? 1 : null, pieces: this.plan.pieces, time_s: first.time_s, remaining_s: first.time_s,
      remaining_m: first.distance_m, target: first.target, label: first.label, next: this.plan.steps[1] || null };
    const live = $('workout-live');
    const resting = s.kind === 'rest' && s.phase === 'rowing';
    live.dataset.phase = s.phase;
    live.dataset.kind = s.kind;
    live.dataset.step = s.step;
    live.classList.toggle('resting', resting);
    $('wk-step').textContent = s.phase === 'finished' ? 'Workout done' : stepName(s.step_kind, s.piece, s.pieces);
    $('wk-label').textContent = s.phase === 'finished' ? '' : (s.label || '');
    // The step's length from the plan (the status's time_s, or its metres before any are rowed).
    const step = this.plan.steps[s.step - 1] || {};
    const timed = step.time_s != null || (step.distance_m == null && s.remaining_s != null);
    const whole = timed ? step.time_s : step.distance_m;
    const left = (timed ? s.remaining_s : s.remaining_m) ?? (s.phase === 'waiting' ? whole : null);
    const remaining = $('wk-remaining');
    setFitted(remaining, s.phase === 'finished' ? '✓' : timed ? countdown(left) : metresLeft(left));
    remaining.dataset.value = left == null ? '' : String(left);
    $('wk-remaining-caption').textContent = s.phase === 'finished' ? pieces(s.pieces) : s.phase === 'waiting'
      ? (this.startsAtGo ? 'starts at go' : 'starts at the first catch') : 'left';
    $('wk-next').textContent = resting && s.next ? `Next: ${nextText(s, this.plan)}` : '';
    $('wk-next').hidden = !resting || !s.next;
    const targets = s.target && s.phase !== 'finished' && !resting;
    $('wk-targets').hidden = !targets;
    if (targets) {
      this.renderTarget($('wk-rate'), 'rate', s.stroke_rate_spm, s.target.stroke_rate_spm, s.stroke_rate_band,
        v => v == null ? NO_DATA : v.toFixed(1), rateText);
      this.renderTarget($('wk-split'), 'split', s.split_s_per_500m, s.target.split_s_per_500m, s.split_band, splitText, splitBand);
    }
  }

  // One target: the live figure, the band, and in/under/over in colour, arrow and word.
  renderTarget(box, which, value, range, state, format, bandFormat) {
    box.hidden = !range;
    if (!range) return;
    box.className = 'wk-target band-' + (state || 'none');
    box.dataset.band = state || '';
    setFitted(box.querySelector('.value'), format(value));
    box.querySelector('.band').textContent = band(range, bandFormat);
    box.querySelector('.verdict').textContent = state ? VERDICTS[which][state] : NO_DATA;
  }
}

// A figure is never cut: when "10:00" of a long rest, or a slow split, is wider than its box at the
// box's own size, it is drawn smaller until it fits (measured only when the text's length changes
// or the box's class does, as a rest's larger figures).
function setFitted(element, text) {
  const key = text.length + '|' + element.closest('.workout-live').className + '|' + window.innerWidth;
  element.textContent = text;
  if (element.dataset.fitted === key) return;
  element.dataset.fitted = key;
  element.style.fontSize = '';
  if (element.scrollWidth <= element.clientWidth) return;
  const size = parseFloat(getComputedStyle(element).fontSize);
  element.style.fontSize = Math.floor(size * element.clientWidth / element.scrollWidth * 0.97) + 'px';
}

// Why a plan was refused; for a spec, the spec as sent with a caret under the column the message
// names (spaces counted).
function showError(box, message, spec) {
  box.replaceChildren(el('div', null, message));
  const column = Number((/at column (\d+)$/.exec(message) || [])[1]);
  if (spec == null || !column) return;
  box.appendChild(el('pre', null, spec + '\n' + ' '.repeat(column - 1) + '^'));
}

// "4:00 · 2:00 rest · 4:00 …", each piece with its targets.
function stepsText(plan) {
  return plan.steps.map(step => {
    const t = targetText(step.target);
    const kind = step.kind === 'work' ? '' : ' ' + (KINDS[step.kind] || step.kind).toLowerCase();
    return length(step) + kind + (t ? ' @ ' + t : '');
  }).join(' · ');
}

// What comes after this rest: "Piece 2 of 3 · 4:00 · 22–24 spm" (the plan numbers the pieces).
function nextText(s, plan) {
  const n = s.next;
  const piece = plan.steps.slice(0, s.step + 1).filter(step => step.kind === 'work').length;
  const name = n.kind === 'work' ? `Piece ${piece} of ${s.pieces}` : stepName(n.kind, null, s.pieces);
  return [n.label ? `${name} (${n.label})` : name, length(n), targetText(n.target)].filter(Boolean).join(' · ');
}

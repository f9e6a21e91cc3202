// The live race screen: tiles, the crew's heart rates (heart-rates.js; their zones set in
// hr-zones.js), the acceleration trace, the map, Ready → Start → 3-2-1-Go → Stop, notes, the
// workout (WorkoutPanel), the ghost (GhostPanel), and the summary after Stop. Fed by /api/live.
import { Tiles } from './tiles.js';
import { AccelPlot } from './accel-plot.js';
import { BoatMap } from './boat-map.js';
import { WorkoutPanel } from './workout-panel.js';
import { GhostPanel } from './ghost-panel.js';
import { fillSummary } from './metrics.js';
import { control, ensurePaired } from './api.js';
import { HeartRates } from './heart-rates.js';
import { HeartRateZonesSettings } from './hr-zones.js';

const $ = id => document.getElementById(id);

export class LivePage {
  constructor() {
    this.tiles = new Tiles($('tiles'), $('tile-settings'));
    this.heartRates = new HeartRates($('tiles'));
    this.zones = new HeartRateZonesSettings(document.querySelector('#live details.tile-settings'));
    this.plot = new AccelPlot($('accel-chart'));
    this.map = new BoatMap($('map'));
    this.workout = new WorkoutPanel();
    this.ghost = new GhostPanel(this.map);
    this.strokes = [];
    this.recording = null;
    this.wire();
  }

  wire() {
    $('ready').onclick = () => this.setMode('ready');
    $('cancel').onclick = () => this.setMode('idle');
    $('start').onclick = () => this.countdown();
    $('stop').onclick = () => this.stop();
    $('note-form').onsubmit = e => { e.preventDefault(); this.addNote(); };
  }

  // idle: Ready shown; ready: the big Start; counting; recording: Stop and notes.
  setMode(mode) {
    this.mode = mode;
    $('ready').hidden = mode !== 'idle';
    $('start').hidden = mode !== 'ready';
    $('cancel').hidden = mode !== 'ready';
    $('stop').hidden = mode !== 'recording';
    $('note-form').hidden = mode !== 'recording';
    document.body.classList.toggle('racing', mode === 'recording');
    this.workout.setRacing(mode === 'recording');
    this.ghost.setRacing(mode === 'recording');
    if (mode === 'ready' || mode === 'recording') $('summary').hidden = true;
  }

  async countdown() {
    // Pair first (once per phone), so the countdown ends in a start.
    if (!(await ensurePaired())) return;
    this.setMode('counting');
    const overlay = $('countdown');
    overlay.hidden = false;
    for (const word of ['3', '2', '1']) {
      overlay.textContent = word;
      await new Promise(r => setTimeout(r, 1000));
    }
    overlay.textContent = 'Go!';
    try {
      await control('POST', '/api/record/start', {});
      this.setMode('recording');
    } catch (e) {
      this.banner('Could not start: ' + e.message, true);
      this.setMode('idle');
    }
    setTimeout(() => { overlay.hidden = true; }, 500);
  }

  async stop() {
    try {
      await control('POST', '/api/record/stop');
    } catch (e) {
      this.banner('Could not stop: ' + e.message, true);
    }
  }

  async addNote() {
    const input = $('note-text');
    const text = input.value.trim();
    if (!text || !this.recording) return;
    try {
      await control('POST', `/api/sessions/${encodeURIComponent(this.recording)}/notes`, { text });
      input.value = '';
    } catch (e) {
      this.banner('Note not added: ' + e.message, true);
    }
  }

  // Empties the screen (before a playback, and after it).
  reset() {
    this.tiles.values = {};
    this.tiles.show({});
    this.heartRates.show([]);
    this.strokes = [];
    this.resetTrace();
    this.map.clearCourse();
    $('summary').hidden = true;
    this.banner('');
    this.workout.reset();
    this.ghost.reset();
  }

  // The acceleration trace and the trail start again (a seek in a playback).
  resetTrace() {
    this.plot.clear();
    this.map.clear();
  }

  banner(text, isError) {
    const b = $('recording-banner');
    b.textContent = text;
    b.hidden = !text;
    b.classList.toggle('error', !!isError);
  }

  sensor(id, state) {
    const el = $(id);
    el.dataset.state = state;
    el.title = state;
  }

  message(m) {
    this.workout.message(m);
    this.ghost.message(m);
    switch (m.type) {
      case 'status':
        this.tiles.show(m);
        this.heartRates.show(m.heart_rates);
        this.zones.heard(m.heart_rates);
        this.sensor('sensor-gps', m.gps);
        this.sensor('sensor-accel', m.accelerometer);
        document.body.dataset.ended = m.ended ? 'true' : 'false';
        if (m.recording && this.recording !== m.session) {
          this.recording = m.session;
          this.setMode('recording');
        } else if (!m.recording && this.mode === 'recording') {
          this.setMode('idle');
        }
        if (this.mode === undefined) this.setMode('idle');
        if (m.recording) this.banner('● Recording');
        else if (m.ended) this.banner(m.source === 'replay' ? 'The replay has ended: final figures' : 'The source has stopped');
        else if (!$('recording-banner').classList.contains('error')) this.banner('');
        break;
      case 'stroke':
        this.strokes.push(m.index);
        break;
      case 'fix':
        this.map.add(m.lat, m.lon);
        break;
      case 'accel':
        this.plot.add(m.t_s, m.a_mps2);
        break;
      case 'note':
        this.tiles.show({ last_note: m.text });
        break;
      case 'session':
        if (m.event === 'started') {
          this.recording = m.id;
          this.strokes = [];
          this.map.clear();
          this.setMode('recording');
        } else {
          this.recording = null;
          this.setMode('idle');
          this.showSummary(m);
        }
        break;
    }
  }

  // The summary after Stop: "—" where a sensor gave no data; "saved" made obvious.
  showSummary(m) {
    const s = m.summary || {};
    $('summary-title').textContent = `Saved: ${m.title || 'untitled'} (${m.id})`;
    fillSummary($('summary-table'), s);
    $('summary').hidden = false;
    $('summary').scrollIntoView({ behavior: 'smooth' });
  }
}

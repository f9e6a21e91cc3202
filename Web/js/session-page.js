// One session after the outing: the summary table of `oarlog show` ("—" where a sensor gave no
// data), the track on a map (session-map.js), split and rate against time or distance
// (session-plots.js), heart rate and the oar's power, angles and forces when the session has
// them (heart-power-plots.js), the pieces (session-pieces.js) and the stroke curve of each
// (stroke-curve.js), the notes (listed, on the plots and the map, added and edited here) and the
// downloads. The summary and the strokes come from GET /api/sessions/{id} (`oarlog show ID
// --json --strokes`); the rest is fetched side by side, so the page is there before the map is.
import { getJSON, control, ensurePaired, addDownloadLinks } from './api.js';
import { fillSummary, NO_DATA, clock } from './metrics.js';
import { SessionMap } from './session-map.js';
import { SessionPlots } from './session-plots.js';
import { HeartPowerPlots } from './heart-power-plots.js';
import { SessionPieces } from './session-pieces.js';
import { StrokeCurve } from './stroke-curve.js';
import { MakeCourse } from './make-course.js';

const $ = id => document.getElementById(id);

export class SessionPage {
  constructor() {
    this.map = new SessionMap();
    this.plots = new SessionPlots();
    this.heartPower = new HeartPowerPlots();
    this.curve = new StrokeCurve();
    this.makeCourse = new MakeCourse($('make-course'), this.map);
    // A piece picked in the table: its average stroke, and its stretch outlined on the map.
    this.pieces = new SessionPieces(piece => {
      this.curveShown = this.curve.show(this.id, piece, this.session ? this.session.stroke_list || [] : []);
      this.map.highlight(piece);
    });
    $('session-note-form').onsubmit = e => { e.preventDefault(); this.addNote(); };
  }

  async load(id) {
    this.id = id;
    this.session = null;
    $('session-error').hidden = true;
    try {
      this.session = await getJSON('/api/sessions/' + encodeURIComponent(id));
    } catch (e) {
      $('session-error').textContent = 'This session could not be read: ' + e.message;
      $('session-error').hidden = false;
      return;
    }
    const s = this.session;
    document.body.dataset.sessionLoaded = '';
    $('session-title').textContent = s.title || 'untitled';
    $('session-play').href = '#play/' + encodeURIComponent(id);
    $('session-date').textContent = s.start_utc ? s.start_utc.replace('T', ' ').replace('Z', ' UTC') : NO_DATA;
    fillSummary($('session-summary'), s);
    $('session-downloads').replaceChildren();
    addDownloadLinks($('session-downloads'), id, [['fit', 'FIT'], ['tcx', 'TCX'], ['gpx', 'GPX'], ['csv', 'Strokes CSV'], ['geojson', 'GeoJSON']]);
    import('./share-link.js').then(m => m.showShareLink(id));
    import('./share-report.js').then(m => m.offerReport(id)); // the Share panel's report button
    this.makeCourse.reset(id);
    this.strokes = (s.stroke_list || []).filter(k => k.t_s != null);
    this.showNotes();
    await Promise.all([this.plots.load(id, s.note_list || []), this.heartPower.load(id, s), this.pieces.load(id), this.map.show(id, s, this.strokes)]);
    await this.curveShown;
    document.body.dataset.sessionLoaded = id;
  }

  resized() {
    this.map.resized();
  }

  showNotes() {
    const list = $('session-notes');
    list.replaceChildren();
    const notes = this.session.note_list || [];
    if (!notes.length) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = 'No notes.';
      list.appendChild(li);
    }
    notes.forEach((n, index) => {
      const li = document.createElement('li');
      li.innerHTML = '<span class="note-time"></span> <span class="note-text"></span> <button type="button" class="note-edit small">Edit</button>';
      li.querySelector('.note-time').textContent = clock(n.t_s);
      li.querySelector('.note-text').textContent = n.text;
      li.querySelector('.note-edit').onclick = () => this.editNote(li, index, n);
      list.appendChild(li);
    });
  }

  // A note's text and time changed in place (PATCH /api/sessions/{id}/notes/{index}).
  editNote(li, index, note) {
    li.innerHTML = '<form><input class="note-at" type="text" inputmode="numeric" aria-label="at (m:ss)" autocomplete="off">'
      + '<input class="note-text-edit" type="text" maxlength="500" aria-label="note" autocomplete="off">'
      + '<button type="submit" class="small">Save</button><button type="button" class="small cancel">Cancel</button></form>';
    const form = li.querySelector('form');
    form.querySelector('.note-at').value = clock(note.t_s);
    form.querySelector('.note-text-edit').value = note.text;
    form.querySelector('.cancel').onclick = () => this.showNotes();
    form.onsubmit = async e => {
      e.preventDefault();
      const text = form.querySelector('.note-text-edit').value.trim();
      const at = parseClock(form.querySelector('.note-at').value);
      if (!text || !(await ensurePaired())) return;
      const body = { text };
      if (at != null) body.t_s = at;
      try {
        await control('PATCH', `/api/sessions/${encodeURIComponent(this.id)}/notes/${index}`, body);
        await this.load(this.id);
      } catch (err) {
        $('session-error').textContent = 'Note not changed: ' + err.message;
        $('session-error').hidden = false;
      }
    };
    form.querySelector('.note-text-edit').focus();
  }

  async addNote() {
    const text = $('session-note-text').value.trim();
    const at = parseClock($('session-note-at').value);
    if (!text) return;
    if (!(await ensurePaired())) return;
    const body = { text };
    if (at != null) body.t_s = at;
    try {
      await control('POST', `/api/sessions/${encodeURIComponent(this.id)}/notes`, body);
      $('session-note-text').value = '';
      $('session-note-at').value = '';
      await this.load(this.id);
    } catch (e) {
      $('session-error').textContent = 'Note not added: ' + e.message;
      $('session-error').hidden = false;
    }
  }
}

// "12:30" or "1:02:03" or "95" (seconds) → seconds; empty → null (the session's end).
function parseClock(text) {
  const t = (text || '').trim();
  if (!t) return null;
  const parts = t.split(':').map(Number);
  if (parts.some(p => !isFinite(p))) return null;
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

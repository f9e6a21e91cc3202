// One session opened by a share link (/share/TOKEN, Web/share.html): its summary, track, split
// and rate plots, heart rate and power when it has them, pieces, stroke curves and notes, read-only — the session page's own modules,
// whose reads of /api/sessions/{id}/… are sent to /api/shared/TOKEN/… instead (the only paths
// this token may reach: docs/API.md, "Share links"). No control, no list, no other session.
import { fillSummary, NO_DATA, clock } from './metrics.js';
import { SessionMap } from './session-map.js';
import { SessionPlots } from './session-plots.js';
import { HeartPowerPlots } from './heart-power-plots.js';
import { SessionPieces } from './session-pieces.js';
import { StrokeCurve } from './stroke-curve.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);
const token = decodeURIComponent(location.pathname.split('/')[2] || '');
const base = '/api/shared/' + encodeURIComponent(token);

// The modules ask for /api/sessions/{id}/…: this session's reads under the token.
const pageFetch = window.fetch.bind(window);
window.fetch = (url, options) => {
  if (typeof url === 'string' && url.startsWith('/api/sessions/')) {
    const rest = url.slice('/api/sessions/'.length);
    const cut = rest.search(/[/?]/);
    url = base + (cut < 0 ? '' : rest.slice(cut));
  }
  return pageFetch(url, options);
};

async function load() {
  const r = await fetch(base, { cache: 'no-store' });
  if (!r.ok) {
    $('session-error').textContent = r.status === 403
      ? 'This link no longer opens a session: it was revoked, or never made. Ask for a new one.'
      : 'This session could not be read (' + r.status + ').';
    $('session-error').hidden = false;
    document.querySelector('.session-grid').hidden = true;
    document.body.dataset.sessionLoaded = 'refused';
    return;
  }
  const s = await r.json();
  const id = s.id || 'shared';
  document.title = 'Oarlog · ' + (s.title || 'shared session');
  $('session-title').textContent = s.title || 'untitled';
  $('session-date').textContent = s.start_utc ? s.start_utc.replace('T', ' ').replace('Z', ' UTC') : NO_DATA;
  fillSummary($('session-summary'), s);
  showNotes(s.note_list || []);
  const strokes = (s.stroke_list || []).filter(k => k.t_s != null);
  const map = new SessionMap();
  const plots = new SessionPlots();
  const heartPower = new HeartPowerPlots();
  const curve = new StrokeCurve();
  let curveShown = null;
  const pieces = new SessionPieces(piece => {
    curveShown = curve.show(id, piece, s.stroke_list || []);
    map.highlight(piece);
  });
  await Promise.all([plots.load(id, s.note_list || []), heartPower.load(id, s), pieces.load(id), map.show(id, s, strokes)]);
  await curveShown;
  window.addEventListener('resize', () => map.resized());
  document.body.dataset.sessionLoaded = id;
}

function showNotes(notes) {
  const list = $('session-notes');
  list.replaceChildren();
  if (!notes.length) list.append(el('li', 'empty', 'No notes.'));
  for (const n of notes) {
    const li = el('li');
    li.append(el('span', 'note-time', clock(n.t_s)), document.createTextNode(' '), el('span', 'note-text', n.text));
    list.append(li);
  }
}

load();

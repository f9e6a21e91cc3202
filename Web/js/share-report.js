// The session page's "Share report" button: the session as one HTML file that opens offline on
// any phone or laptop (GET /api/sessions/{id}/export/html: byte for byte `oarlog export ID
// --format html`). Where the browser can share files (a phone's share sheet), it offers the file
// there; elsewhere it downloads it as ID.html. It lives in its own box at the top of
// #session-share (the Share panel's content, shared with share-link.js).
import { el } from './dom.js';

const $ = id => document.getElementById(id);

// This button's box, first in #session-share (the session page's Share panel).
function ensureBox() {
  const outer = $('session-share');
  let mine = $('share-report-box');
  if (!mine) {
    mine = el('div', 'share-report-box');
    mine.id = 'share-report-box';
    // Its own few rules here, so the shared style sheets are left alone: one row that wraps.
    mine.style.cssText = 'display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px;';
    outer.prepend(mine);
  }
  return mine;
}

// Puts (or points) the button at session ID.
export function offerReport(id) {
  const row = ensureBox();
  let button = $('session-share-report');
  if (!button) {
    button = el('button', 'small', 'Share report');
    button.id = 'session-share-report';
    button.type = 'button';
    button.title = 'The session as one HTML file that opens offline: figures, track, plots, pieces, notes';
    row.appendChild(button);
    const note = el('span', 'nodata-note');
    note.id = 'session-share-report-note';
    note.hidden = true;
    row.appendChild(note);
  }
  button.dataset.session = id;
  button.disabled = false;
  button.textContent = 'Share report';
  $('session-share-report-note').hidden = true;
  button.onclick = () => shareReport(button, id);
}

async function shareReport(button, id) {
  const note = $('session-share-report-note');
  const name = id + '.html';
  button.disabled = true;
  button.textContent = 'Making the report…';
  note.hidden = true;
  try {
    const r = await fetch(`/api/sessions/${encodeURIComponent(id)}/export/html`, { cache: 'no-store' });
    if (!r.ok) {
      let message = String(r.status);
      try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    const blob = await r.blob();
    const file = new File([blob], name, { type: 'text/html' });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: document.getElementById('session-title')?.textContent || name });
    } else {
      download(blob, name);
    }
  } catch (e) {
    // A share sheet closed without sharing is not an error.
    if (e.name !== 'AbortError') {
      note.textContent = 'No report: ' + e.message;
      note.hidden = false;
    }
  } finally {
    button.disabled = false;
    button.textContent = 'Share report';
  }
}

// Saves BLOB as NAME through a link made for it.
function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

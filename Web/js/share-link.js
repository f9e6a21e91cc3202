// A share link to the session on the page (docs/API.md, "Share links"): "Share link" makes one
// (POST /api/sessions/{id}/shares, with the control token), shows it built from this page's own
// origin — the boat's Wi-Fi address this phone used — copies it, and draws its QR code (Debian's
// node-qrcode-generator, served at /vendor/qrcode/qrcode.js) for a crew member's phone to scan.
// Under it, the session's live links, each with Revoke (DELETE /api/shares/{token}). The link
// opens that one session read-only (/share/{token}, Web/share.html) and nothing else.
// It lives in its own box inside #session-share (the session page's Share panel).
import { control, token } from './api.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);

let box = null;
let sessionID = null;

// Shows the share box for session `id` (session-page.js calls it on each load).
export function showShareLink(id) {
  sessionID = id;
  box = ensureBox();
  box.replaceChildren();
  const make = el('button', 'small share-make', 'Share link');
  make.type = 'button';
  make.id = 'share-make';
  make.onclick = () => createLink(id);
  const made = el('div', 'share-made');
  made.id = 'share-made';
  made.hidden = true;
  const note = el('p', 'nodata-note', 'A link opens this one session, read-only, for anyone on the boat\'s Wi-Fi who has it — until you revoke it.');
  const list = el('ul', 'share-list');
  list.id = 'share-list';
  box.append(make, made, note, list);
  if (token()) listLinks(id);
}

function ensureBox() {
  if (!document.querySelector('link[href="/css/share.css"]')) {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/css/share.css';
    document.head.append(css);
  }
  const outer = $('session-share');
  let mine = $('share-link-box');
  if (!mine) {
    mine = el('div', 'share-link-box');
    mine.id = 'share-link-box';
    outer.append(mine);
  }
  return mine;
}

const linkURL = path => location.origin + path;

async function createLink(id) {
  const made = $('share-made');
  let answer;
  try {
    answer = await control('POST', `/api/sessions/${encodeURIComponent(id)}/shares`);
  } catch (e) {
    made.replaceChildren(el('p', 'error', 'No link: ' + e.message));
    made.hidden = false;
    return;
  }
  if (id !== sessionID) return;
  const url = linkURL(answer.path);
  const input = el('input', 'share-link');
  input.id = 'share-url';
  input.type = 'text';
  input.readOnly = true;
  input.value = url;
  input.setAttribute('aria-label', 'the share link');
  const copy = el('button', 'small', 'Copy');
  copy.type = 'button';
  copy.onclick = () => copyText(input, copy);
  const qr = el('canvas', 'share-qr');
  qr.id = 'share-qr';
  made.replaceChildren(input, copy, qr);
  made.hidden = false;
  await drawQR(qr, url);
  copyText(input, copy);
  listLinks(id);
}

// Copies the link (the clipboard API needs a secure origin, which http://boat is not: then the
// selected text is copied the old way).
async function copyText(input, button) {
  input.focus();
  input.select();
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(input.value); copied = true; }
  } catch (e) { /* below */ }
  if (!copied) { try { copied = document.execCommand('copy'); } catch (e) { copied = false; } }
  button.textContent = copied ? 'Copied' : 'Copy';
}

function loadQRCode() {
  if (window.qrcode) return Promise.resolve(window.qrcode);
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = '/vendor/qrcode/qrcode.js';
    s.onload = () => resolve(window.qrcode);
    s.onerror = () => reject(new Error('no QR code maker on this server (node-qrcode-generator)'));
    document.head.append(s);
  });
}

// The QR code of `text` on a canvas: dark modules on white, a quiet zone of 4 modules.
async function drawQR(canvas, text) {
  let make;
  try { make = await loadQRCode(); } catch (e) { canvas.replaceWith(el('p', 'nodata-note', e.message)); return; }
  const qr = make(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const cell = Math.max(3, Math.floor(220 / (n + 8)));
  canvas.width = canvas.height = (n + 8) * cell;
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) g.fillRect((c + 4) * cell, (r + 4) * cell, cell, cell);
  }
  canvas.dataset.link = text;
}

// The session's live links, each with Revoke.
async function listLinks(id) {
  let links;
  try {
    links = await control('GET', `/api/sessions/${encodeURIComponent(id)}/shares`);
  } catch (e) {
    return;
  }
  const list = $('share-list');
  if (id !== sessionID || !list) return;
  list.replaceChildren();
  for (const link of links) {
    const li = el('li', 'share-row');
    li.dataset.token = link.token;
    const a = el('a', 'share-row-link', linkURL(link.path));
    a.href = link.path;
    a.rel = 'noreferrer';
    const revoke = el('button', 'small share-revoke', 'Revoke');
    revoke.type = 'button';
    revoke.onclick = async () => {
      try {
        await control('DELETE', `/api/shares/${encodeURIComponent(link.token)}`);
      } catch (e) { /* gone already */ }
      const url = $('share-url');
      if (url && url.value === linkURL(link.path)) $('share-made').hidden = true;
      listLinks(id);
    };
    li.append(a, revoke);
    list.append(li);
  }
}

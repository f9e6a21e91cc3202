// A club's history brought in from the race list: files, folders (dropped) or a zip, dropped on
// the list or chosen with the picker, each sent to POST /api/import?name=FILE (docs/API.md: the
// same import as `oarlog import`, the same JSON answer); then the summary — imported, skipped as
// duplicates, refused with why — and the list again.
import { ensurePaired, token } from './api.js';

const $ = id => document.getElementById(id);
// Files beyond this are refused by the boat (413): said here without sending them.
const MAX_BYTES = 64 * 1024 * 1024;

export class RaceImport {
  constructor(onImported) {
    this.onImported = onImported;
    this.busy = false;
    $('race-import-files').addEventListener('change', e => {
      const files = [...e.target.files];
      e.target.value = '';
      this.run(files.map(f => ({ file: f, name: f.webkitRelativePath || f.name })));
    });
    const zone = $('races');
    zone.addEventListener('dragover', e => { e.preventDefault(); zone.classList.add('dropping'); });
    zone.addEventListener('dragleave', e => { if (e.target === zone) zone.classList.remove('dropping'); });
    zone.addEventListener('drop', async e => {
      e.preventDefault();
      zone.classList.remove('dropping');
      this.run(await droppedFiles(e.dataTransfer));
    });
  }

  // Sends each file in turn, showing where it is, then the summary.
  async run(files) {
    if (this.busy || !files.length) return;
    if (!(await ensurePaired())) return;
    this.busy = true;
    const total = { imported: [], duplicates: [], refused: [], other_files: 0 };
    const status = $('race-import-status');
    status.hidden = false;
    $('race-import-summary').hidden = true;
    try {
      for (const [n, { file, name }] of files.entries()) {
        status.textContent = `Importing ${n + 1} of ${files.length}: ${name}`;
        try {
          const answer = await upload(file, name);
          for (const key of ['imported', 'duplicates', 'refused']) total[key].push(...answer[key]);
          total.other_files += answer.other_files || 0;
        } catch (e) {
          total.refused.push({ file: name, error: e.message });
        }
      }
    } finally {
      this.busy = false;
      status.hidden = true;
    }
    this.show(total);
    if (total.imported.length) await this.onImported();
  }

  show(total) {
    const box = $('race-import-summary');
    box.replaceChildren();
    const head = document.createElement('p');
    head.className = 'race-import-counts';
    head.textContent = `Imported ${total.imported.length}, skipped as duplicates ${total.duplicates.length}, refused ${total.refused.length}`
      + (total.other_files ? ` (${total.other_files} other file${total.other_files === 1 ? '' : 's'} passed over)` : '');
    box.appendChild(head);
    if (total.refused.length) {
      const list = document.createElement('ul');
      list.className = 'race-import-refused';
      for (const r of total.refused) {
        const li = document.createElement('li');
        li.textContent = `${r.file}: ${r.error}`;
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    const close = document.createElement('button');
    close.className = 'small';
    close.textContent = 'OK';
    close.onclick = () => { box.hidden = true; };
    box.appendChild(close);
    box.hidden = false;
  }
}

// One file's bytes to the boat, with the token (asked for again once if it was refused).
async function upload(file, name) {
  if (file.size > MAX_BYTES) throw new Error('over 64 MiB: import it with `oarlog import` on the boat');
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!token() && !(await ensurePaired())) throw new Error('not paired');
    const r = await fetch('/api/import?name=' + encodeURIComponent(name), {
      method: 'POST', headers: { 'Authorization': 'Bearer ' + token(), 'Content-Type': 'application/octet-stream' }, body: file,
    });
    if (r.status === 401) { localStorage.removeItem('oarlog.token'); continue; }
    if (!r.ok) {
      let message = String(r.status);
      try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return r.json();
  }
  throw new Error('not paired');
}

// The files of a drop: a dropped folder walked (hidden files left out), a file as it is.
async function droppedFiles(transfer) {
  const out = [];
  const entries = [...transfer.items].map(i => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (entries.every(e => !e)) return [...transfer.files].map(f => ({ file: f, name: f.name }));
  for (const entry of entries) if (entry) await walk(entry, out);
  return out;
}

async function walk(entry, out) {
  if (entry.name.startsWith('.')) return;
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ file, name: entry.fullPath.replace(/^\//, '') });
    return;
  }
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    for (const child of batch) await walk(child, out);
  }
}

// The boat's API (docs/API.md): reads are open; controls carry the token, which a phone gets
// once by entering the pairing code and keeps.
const TOKEN_KEY = 'oarlog.token';

export function token() { return localStorage.getItem(TOKEN_KEY); }

export async function getJSON(path) {
  const r = await fetch(path, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

// Pairs this phone (asks for the code) unless it already has the token.
export async function ensurePaired() {
  return token() ? true : askForCode();
}

function askForCode() {
  const dialog = document.getElementById('pair-dialog');
  const input = document.getElementById('pair-code');
  const error = document.getElementById('pair-error');
  return new Promise(resolve => {
    dialog.onclose = async () => {
      if (dialog.returnValue !== 'ok') return resolve(false);
      const r = await fetch('/api/pair', { method: 'POST', body: JSON.stringify({ code: input.value.trim() }) });
      if (r.ok) {
        localStorage.setItem(TOKEN_KEY, (await r.json()).token);
        error.textContent = '';
        resolve(true);
      } else {
        // Wrong codes from this phone are slowed (docs/SECURITY.md): the server says how long.
        const wait = Number(r.headers.get('Retry-After'));
        error.textContent = r.status === 429
          ? `Too many wrong codes from this phone: try again in ${wait > 90 ? Math.ceil(wait / 60) + ' minutes' : (wait || 60) + ' s'}.`
          : 'Wrong code.';
        input.value = '';
        dialog.showModal();
      }
    };
    input.value = '';
    dialog.showModal();
    input.focus();
  });
}

// A control request; pairs first when there is no token (or it was refused).
export async function control(method, path, body) {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!token() && !(await askForCode())) throw new Error('not paired');
    const r = await fetch(path, {
      method, headers: { 'Authorization': 'Bearer ' + token(), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (r.status === 401) { localStorage.removeItem(TOKEN_KEY); continue; }
    if (!r.ok) {
      let message = r.status + '';
      try { message = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return r.status === 204 ? null : r.json();
  }
  throw new Error('not paired');
}

// Links to a session's exports (GET /api/sessions/{id}/export/{format}: byte for byte `oarlog
// export`), one per [format, label], appended to CONTAINER.
export function addDownloadLinks(container, id, formats) {
  for (const [format, label] of formats) {
    const a = document.createElement('a');
    a.className = 'download';
    a.dataset.format = format;
    a.href = `/api/sessions/${encodeURIComponent(id)}/export/${format}`;
    a.download = '';
    a.textContent = label;
    container.appendChild(a);
  }
}

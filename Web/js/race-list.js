// The race list: the sessions the boat keeps, from the archive's index (/api/sessions with its
// filters: words in the title, notes and places; dates; distance; rate; boat; near a place;
// the order); rename; delete with confirmation; downloads. A damaged file is listed with what to
// do about it. The filters live in the page's address too (#races?search=…&from=…), so a list is
// a link: the race map's "List these" opens the sessions that started at one place. Files,
// folders and zips dropped on it are imported (race-import.js). Each row shows its uploads to the
// training sites (/api/uploads: ↑ Strava ✓, queued, failed) and a button per account (/api/accounts).
import { getJSON, control, addDownloadLinks } from './api.js';
import { clock, split, metres } from './metrics.js';
import { picker } from './compare-page.js';
import { RaceImport } from './race-import.js';

const $ = id => document.getElementById(id);
// The inputs and the /api/sessions parameter each sets.
const SITES = { intervals: 'Intervals', strava: 'Strava', concept2: 'Concept2' };
const MARK = { done: '✓', duplicate: '✓', sent: '…', sending: '…', queued: 'queued', failed: 'failed' };
const FIELDS = [['race-search', 'search'], ['race-from', 'from'], ['race-to', 'to'], ['race-min-distance', 'min_distance'],
  ['race-boat', 'boat'], ['race-sort', 'sort']];

export class RaceList {
  constructor() {
    this.sessions = [];
    this.boats = new Set();
    this.near = '';
    this.asked = 0;
    this.total = null;
    for (const [id] of FIELDS) $(id).addEventListener(id === 'race-search' ? 'input' : 'change', () => this.changed());
    for (const id of ['race-rate-low', 'race-rate-high']) $(id).addEventListener('change', () => this.changed());
    $('race-filter-toggle').onclick = () => {
      const panel = $('race-filter-panel');
      panel.hidden = !panel.hidden;
      $('race-filter-toggle').setAttribute('aria-expanded', String(!panel.hidden));
    };
    $('race-filter-clear').onclick = () => {
      for (const [id] of FIELDS) $(id).value = id === 'race-sort' ? 'date' : '';
      $('race-rate-low').value = $('race-rate-high').value = '';
      this.near = '';
      this.changed(true);
    };
    $('race-near-clear').onclick = () => { this.near = ''; this.changed(true); };
    // Files dropped on the list or chosen are imported (race-import.js); the list then shows them.
    this.importer = new RaceImport(() => this.fetch());
    // Choosing two sessions to compare (compare-page.js) ticks rows of the list as it stands.
    picker.attach(() => this.render(this.shownQuery || ''));
  }

  // Opened from the address: its filters (if any) into the inputs, then the list.
  load(query = '') {
    const p = new URLSearchParams(query);
    if ([...p.keys()].length) {
      for (const [id, name] of FIELDS) $(id).value = p.get(name) || (id === 'race-sort' ? 'date' : '');
      const [low, high] = (p.get('rate') || '').split('-');
      $('race-rate-low').value = low || '';
      $('race-rate-high').value = high || '';
      this.near = p.get('near') || '';
      $('race-filter-panel').hidden = !['from', 'to', 'min_distance', 'rate', 'boat', 'sort'].some(k => p.get(k));
    }
    return this.fetch();
  }

  // The parameters of the filters set now.
  query() {
    const p = new URLSearchParams();
    for (const [id, name] of FIELDS) {
      const v = $(id).value.trim();
      if (v && !(name === 'sort' && v === 'date')) p.set(name, v);
    }
    const low = $('race-rate-low').value.trim(), high = $('race-rate-high').value.trim();
    if (low || high) p.set('rate', `${low || 0}-${high || 60}`);
    if (this.near) p.set('near', this.near);
    return p.toString();
  }

  changed(now = false) {
    clearTimeout(this.timer);
    // Typing waits for a pause; a picked date or order answers at once.
    this.timer = setTimeout(() => this.fetch(), now ? 0 : 250);
  }

  async fetch() {
    const query = this.query();
    const asked = ++this.asked;
    let sessions;
    try {
      sessions = await getJSON('/api/sessions' + (query ? '?' + query : ''));
    } catch (e) {
      if (asked !== this.asked) return;
      $('race-error').hidden = false;
      $('race-error').textContent = e.message.endsWith(': 400') ? 'A filter is not right: check the dates and numbers.' : 'The boat did not answer: ' + e.message;
      return;
    }
    if (asked !== this.asked) return;  // a newer question is on its way
    // Uploads and accounts: the list shows without them if they do not answer.
    [this.uploads, this.accounts] = await Promise.all([getJSON('/api/uploads').catch(() => []), getJSON('/api/accounts').catch(() => [])]);
    if (asked !== this.asked) return;
    $('race-error').hidden = true;
    if (!query) this.total = sessions.length;
    this.sessions = sessions;
    for (const s of sessions) if (s.boat) this.boats.add(s.boat);
    this.fillBoats();
    if (location.hash.startsWith('#races')) history.replaceState(null, '', '#races' + (query ? '?' + query : ''));
    this.render(query);
  }

  fillBoats() {
    const select = $('race-boat');
    const chosen = select.value;
    const known = new Set([...select.options].map(o => o.value));
    for (const b of [...this.boats].sort()) {
      if (known.has(b)) continue;
      const o = document.createElement('option');
      o.value = o.textContent = b;
      select.appendChild(o);
    }
    select.value = chosen;
    select.closest('label').hidden = this.boats.size === 0;
  }

  render(query) {
    const list = $('race-list');
    list.replaceChildren();
    const filtered = query && query !== 'sort=distance' && query !== 'sort=split';
    $('race-near').hidden = !this.near;
    if (this.near) {
      const [lat, lon, m] = this.near.split(',');
      $('race-near-text').textContent = `Near ${Number(lat).toFixed(4)}, ${Number(lon).toFixed(4)} (within ${m || 500} m)`;
    }
    const n = this.sessions.length;
    $('race-count').textContent = filtered
      ? `${n} session${n === 1 ? '' : 's'} match${n === 1 ? 'es' : ''}` + (this.total != null ? ` (of ${this.total})` : '')
      : `${n} session${n === 1 ? '' : 's'}`;
    if (!n) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = filtered ? 'No session matches.' : 'No sessions yet: press Ready, then Start.';
      list.appendChild(li);
    }
    for (const s of this.sessions) list.appendChild(this.row(s));
    list.dataset.query = query;  // what the list shows (for the browser tests)
    this.shownQuery = query;
  }

  row(s) {
    const li = document.createElement('li');
    li.className = 'race';
    li.dataset.id = s.id;
    const date = s.start_utc ? s.start_utc.replace('T', ' ').slice(0, 16) + ' UTC' : '—';
    // Fixed markup; the session's own words and figures go in as text.
    li.innerHTML = `<div class="race-head"><a class="race-title"></a><span class="race-date"></span></div>
      <div class="race-figures"><span class="distance"></span><span class="elapsed"></span>
      <span class="rate"></span>
      <span class="split"></span></div>
      <div class="race-actions"><span class="downloads"></span><button class="small rename">Rename</button><button class="small delete">Delete</button><span class="uploads"></span></div>`;
    const title = li.querySelector('.race-title');
    title.href = '#session/' + encodeURIComponent(s.id);
    title.textContent = (s.title || (s.start_utc ? 'untitled' : s.id)) + (s.boat ? ` · ${s.boat}` : '');
    li.querySelector('.race-date').textContent = date;
    li.querySelector('.distance').textContent = metres(s.distance_m);
    li.querySelector('.elapsed').textContent = clock(s.elapsed_s);
    li.querySelector('.rate').textContent = s.avg_stroke_rate_spm == null ? '—' : Number(s.avg_stroke_rate_spm).toFixed(1) + ' spm';
    li.querySelector('.split').textContent = `${split(s.avg_split_s_per_500m)} /500m`;
    if (s.damaged) {
      const note = document.createElement('p');
      note.className = 'race-damaged';
      note.textContent = `Damaged file: run “oarlog recover ${s.id}” on the boat to keep what can be read.`;
      li.insertBefore(note, li.querySelector('.race-actions'));
    }
    // Downloads, byte for byte what `oarlog export` writes (FIT and TCX for Strava, Garmin
    // Connect and rowsandall, GPX for maps, the per-stroke CSV for spreadsheets).
    if (!s.damaged) {
      addDownloadLinks(li.querySelector('.downloads'), s.id, [['fit', 'FIT'], ['tcx', 'TCX'], ['gpx', 'GPX'], ['csv', 'CSV']]);
    }
    if (!s.damaged) this.uploadState(li.querySelector('.uploads'), s);
    li.querySelector('.rename').onclick = () => this.rename(s);
    li.querySelector('.delete').onclick = () => this.remove(s);
    picker.decorate(li, s);
    return li;
  }

  // A chip per upload of the session (its last error as the tooltip) and an Upload button per
  // account it has not reached.
  uploadState(span, s) {
    const mine = (this.uploads || []).filter(u => u.session === s.id);
    for (const u of mine) {
      const chip = document.createElement('span');
      chip.className = 'chip upload-' + u.state;
      chip.textContent = `↑ ${SITES[u.service] || u.service} ${MARK[u.state] || u.state}`;
      chip.title = u.last_error || u.account_stopped || (u.remote_id ? 'id ' + u.remote_id : u.state);
      span.appendChild(chip);
    }
    for (const a of this.accounts || []) {
      const there = mine.find(u => u.service === a.service);
      if (there && there.state !== 'failed') continue;
      const b = document.createElement('button');
      b.className = 'small upload';
      b.dataset.service = a.service;
      b.textContent = '↑ ' + (SITES[a.service] || a.service);
      b.onclick = () => this.upload(s, a.service);
      span.appendChild(b);
    }
  }

  async upload(s, service) {
    try {
      await control('POST', `/api/sessions/${encodeURIComponent(s.id)}/uploads`, { service, force: false });
      await this.fetch();
      setTimeout(() => this.fetch(), 3000);  // the delivery runs in the background
    } catch (e) { alert('Not queued: ' + e.message); }
  }

  async rename(s) {
    const title = prompt('New title', s.title || '');
    if (title === null) return;
    try {
      await control('PATCH', '/api/sessions/' + encodeURIComponent(s.id), { title });
      await this.fetch();
    } catch (e) { alert('Not renamed: ' + e.message); }
  }

  async remove(s) {
    if (!confirm(`Delete "${s.title || 'untitled'}" (${s.id})? This cannot be undone.`)) return;
    try {
      await control('DELETE', '/api/sessions/' + encodeURIComponent(s.id));
      await this.fetch();
    } catch (e) { alert('Not deleted: ' + e.message); }
  }
}

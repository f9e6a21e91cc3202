// The race list: sessions newest first (date, title, distance, time, rate, split); rename;
// delete with confirmation; downloads; search over title, notes and date.
import { getJSON, control, addDownloadLinks } from './api.js';
import { clock, split, metres } from './metrics.js';
import { picker } from './compare-page.js';

const $ = id => document.getElementById(id);

export class RaceList {
  constructor() {
    this.sessions = [];
    this.notes = {};
    $('race-search').oninput = () => this.render();
    picker.attach(() => this.render());
  }

  async load() {
    this.sessions = (await getJSON('/api/sessions')).sort((a, b) => (b.start_utc || '').localeCompare(a.start_utc || ''));
    this.render();
    // Notes for the search, fetched once per session.
    for (const s of this.sessions) {
      if (this.notes[s.id] !== undefined || s.error) continue;
      try {
        const full = await getJSON('/api/sessions/' + encodeURIComponent(s.id));
        this.notes[s.id] = (full.note_list || []).map(n => n.text).join(' ');
      } catch (e) { this.notes[s.id] = ''; }
    }
  }

  matches(s, q) {
    if (!q) return true;
    const hay = [s.title, s.id, s.start_utc, (s.start_utc || '').slice(0, 10), this.notes[s.id]].join(' ').toLowerCase();
    return q.toLowerCase().split(/\s+/).every(w => hay.includes(w));
  }

  render() {
    const q = $('race-search').value.trim();
    const list = $('race-list');
    list.replaceChildren();
    const shown = this.sessions.filter(s => this.matches(s, q));
    if (!shown.length) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = this.sessions.length ? 'No session matches.' : 'No sessions yet: press Ready, then Start.';
      list.appendChild(li);
    }
    for (const s of shown) {
      const li = document.createElement('li');
      li.className = 'race';
      li.dataset.id = s.id;
      const date = s.start_utc ? s.start_utc.replace('T', ' ').slice(0, 16) + ' UTC' : '—';
      li.innerHTML = `<div class="race-head"><a class="race-title" href="#session/${encodeURIComponent(s.id)}"></a><span class="race-date">${date}</span></div>
        <div class="race-figures"><span>${metres(s.distance_m)}</span><span>${clock(s.elapsed_s)}</span>
        <span>${s.avg_stroke_rate_spm == null ? '—' : s.avg_stroke_rate_spm.toFixed(1) + ' spm'}</span>
        <span>${split(s.avg_split_s_per_500m)} /500m</span></div>
        <div class="race-actions"><span class="downloads"></span><button class="small rename">Rename</button><button class="small delete">Delete</button></div>`;
      li.querySelector('.race-title').textContent = s.title || 'untitled';
      // Downloads, byte for byte what `oarlog export` writes (FIT and TCX for Strava, Garmin
      // Connect and rowsandall, GPX for maps, the per-stroke CSV for spreadsheets).
      if (!s.error) {
        addDownloadLinks(li.querySelector('.downloads'), s.id, [['fit', 'FIT'], ['tcx', 'TCX'], ['gpx', 'GPX'], ['csv', 'CSV']]);
      }
      li.querySelector('.rename').onclick = () => this.rename(s);
      li.querySelector('.delete').onclick = () => this.remove(s);
      picker.decorate(li, s);
      list.appendChild(li);
    }
  }

  async rename(s) {
    const title = prompt('New title', s.title || '');
    if (title === null) return;
    try {
      await control('PATCH', '/api/sessions/' + encodeURIComponent(s.id), { title });
      await this.load();
    } catch (e) { alert('Not renamed: ' + e.message); }
  }

  async remove(s) {
    if (!confirm(`Delete "${s.title || 'untitled'}" (${s.id})? This cannot be undone.`)) return;
    try {
      await control('DELETE', '/api/sessions/' + encodeURIComponent(s.id));
      await this.load();
    } catch (e) { alert('Not deleted: ' + e.message); }
  }
}

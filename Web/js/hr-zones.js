// Each rower's heart-rate zones, set on the phone (GET/PUT/DELETE /api/heart-rate/zones, the
// token needed to change them): a section under the live screen's tile settings, hidden during
// a race like them. A rower is named as the strap or seat is (`stroke`, `7`, `bow`; `default`
// for a single strap without a name and every seat without zones of its own).
import { el } from './dom.js';
import { getJSON, control, ensurePaired } from './api.js';
import { seatLabel, bySeat } from './heart-rates.js';

export class HeartRateZonesSettings {
  constructor(after) {
    const box = this.box = el('details', 'tile-settings hr-zones-settings');
    box.id = 'hr-zones';
    box.innerHTML = `<summary>Heart-rate zones</summary>
      <p class="hr-zones-note">Per rower, by the strap's or seat's name. Zones as % of the maximum:
        Z1 under 60, Z2 60–70, Z3 70–80, Z4 80–90, Z5 90 and over; with a resting rate, % of the
        reserve between rest and maximum (Karvonen).</p>
      <div class="zone-key"><span style="background:var(--z1)">Z1</span><span style="background:var(--z2)">Z2</span>
        <span style="background:var(--z3)">Z3</span><span style="background:var(--z4)">Z4</span><span style="background:var(--z5)">Z5</span></div>
      <table><thead><tr><th>Rower</th><th>Max</th><th>Rest</th><th></th></tr></thead><tbody></tbody></table>
      <form autocomplete="off">
        <input id="hrz-sensor" type="text" maxlength="40" placeholder="Seat (7, stroke)" aria-label="seat or strap name" list="hrz-heard">
        <datalist id="hrz-heard"></datalist>
        <input id="hrz-max" type="number" min="100" max="230" step="1" inputmode="numeric" placeholder="max" aria-label="maximum heart rate, bpm">
        <input id="hrz-rest" type="number" min="20" max="150" step="1" inputmode="numeric" placeholder="rest" aria-label="resting heart rate, bpm (optional)">
        <button id="hrz-save" type="submit">Set</button>
      </form>
      <div id="hrz-error" class="error"></div>`;
    after.after(box);
    this.rows = box.querySelector('tbody');
    this.error = box.querySelector('#hrz-error');
    box.querySelector('form').onsubmit = e => { e.preventDefault(); this.save(); };
    box.addEventListener('toggle', () => { if (box.open) this.load(); });
    this.zones = [];
  }

  // The seats heard live, offered as names.
  heard(rates) {
    const list = this.box.querySelector('#hrz-heard');
    const names = (rates || []).map(r => r.sensor).filter(s => s != null);
    if (names.join('\n') === this.heardNames) return;
    this.heardNames = names.join('\n');
    list.replaceChildren(...names.map(n => { const o = el('option'); o.value = n; return o; }));
  }

  async load() {
    try {
      this.zones = (await getJSON('/api/heart-rate/zones')).zones || [];
    } catch (e) {
      this.error.textContent = 'The zones could not be read: ' + e.message;
      return;
    }
    this.rows.replaceChildren();
    for (const z of this.zones.slice().sort(bySeat)) {
      const tr = el('tr');
      tr.dataset.sensor = z.sensor;
      const remove = el('button', 'small', '✕');
      remove.type = 'button';
      remove.setAttribute('aria-label', 'remove the zones of ' + z.sensor);
      remove.onclick = () => this.remove(z.sensor);
      const cell = el('td');
      cell.append(remove);
      tr.append(el('td', null, seatLabel(z.sensor)), el('td', null, Math.round(z.max_bpm)),
        el('td', null, z.rest_bpm == null ? '—' : Math.round(z.rest_bpm)), cell);
      tr.onclick = e => { if (e.target !== remove) this.fill(z); };
      this.rows.append(tr);
    }
    document.body.dataset.hrZones = String(this.zones.length);
  }

  fill(z) {
    this.box.querySelector('#hrz-sensor').value = z.sensor;
    this.box.querySelector('#hrz-max').value = Math.round(z.max_bpm);
    this.box.querySelector('#hrz-rest').value = z.rest_bpm == null ? '' : Math.round(z.rest_bpm);
  }

  async save() {
    const sensor = this.box.querySelector('#hrz-sensor').value.trim();
    const max = this.box.querySelector('#hrz-max').value, rest = this.box.querySelector('#hrz-rest').value;
    this.error.textContent = '';
    if (!sensor || !max) { this.error.textContent = 'A seat and a maximum heart rate, please.'; return; }
    if (!(await ensurePaired())) return;
    try {
      await control('PUT', '/api/heart-rate/zones/' + encodeURIComponent(sensor),
        { max_bpm: Number(max), rest_bpm: rest === '' ? null : Number(rest) });
      for (const id of ['#hrz-sensor', '#hrz-max', '#hrz-rest']) this.box.querySelector(id).value = '';
      await this.load();
    } catch (e) {
      this.error.textContent = 'Not set: ' + e.message;
    }
  }

  async remove(sensor) {
    if (!(await ensurePaired())) return;
    try {
      await control('DELETE', '/api/heart-rate/zones/' + encodeURIComponent(sensor));
      await this.load();
    } catch (e) {
      this.error.textContent = 'Not removed: ' + e.message;
    }
  }
}

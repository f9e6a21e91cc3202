// The crew's heart rates on the live screen, from the status message's `heart_rates`
// (docs/API.md): one tile for a single strap, a row of the seats (stroke first, up to 8) for
// several, each coloured by its zone with the zone's number printed (never colour alone); "—"
// for a rate older than 10 s; nothing at all when there is no heart rate. Names come from the
// boat's straps and traces: they go on the page as text.
import { el } from './dom.js';
import { NO_DATA } from './metrics.js';

// The order of the seats in the row: stroke first, then 7 … 2, bow last; names that are not a
// seat after them, in their own order.
export function seatRank(name) {
  if (name == null) return 0;
  const n = String(name).trim().toLowerCase();
  if (n === 'stroke' || n === 's') return 100;
  if (n === 'bow' || n === 'b') return 1;
  if (/^[1-9]$/.test(n)) return Number(n);
  return -1;
}

export function bySeat(a, b) {
  const ra = seatRank(a.sensor), rb = seatRank(b.sensor);
  if (ra !== rb) return rb - ra;
  return String(a.sensor ?? '').localeCompare(String(b.sensor ?? ''));
}

// "Stroke", "7", "Bow": how a seat is labelled.
export function seatLabel(name) {
  if (name == null) return 'HR';
  const n = String(name);
  return n.length ? n.charAt(0).toUpperCase() + n.slice(1) : 'HR';
}

export class HeartRates {
  constructor(after) {
    this.box = el('div', 'heart-rates');
    this.box.id = 'heart-rates';
    this.box.hidden = true;
    after.after(this.box);
    this.rates = [];
  }

  // The status message's heart rates (an older server sends none: nothing shown).
  show(rates) {
    this.rates = Array.isArray(rates) ? rates.slice(0, 8).sort(bySeat) : [];
    this.box.replaceChildren();
    this.box.hidden = this.rates.length === 0;
    this.box.classList.toggle('single', this.rates.length === 1);
    if (this.rates.length === 1) this.box.append(this.tile(this.rates[0]));
    else for (const r of this.rates) this.box.append(this.seat(r));
  }

  // One strap: a tile like the others, its zone beside the unit.
  tile(r) {
    const tile = el('div', 'tile hr-tile hr-cell');
    this.mark(tile, r);
    tile.append(el('div', 'label', r.sensor == null ? 'Heart rate' : 'Heart rate · ' + seatLabel(r.sensor)));
    const value = el('div', 'value hr-bpm', r.bpm == null ? NO_DATA : String(Math.round(r.bpm)));
    const unit = el('div', 'unit', 'bpm');
    if (r.zone != null) unit.append(document.createTextNode(' · '), el('b', 'hr-zone', 'Z' + r.zone));
    tile.append(value, unit);
    return tile;
  }

  // One seat of several: its name, its rate large, its zone printed.
  seat(r) {
    const cell = el('div', 'hr-seat hr-cell');
    this.mark(cell, r);
    const head = el('div', 'hr-seat-head');
    head.append(el('span', 'hr-name', seatLabel(r.sensor)), el('span', 'hr-zone', r.zone == null ? '' : 'Z' + r.zone));
    cell.append(head, el('div', 'hr-bpm', r.bpm == null ? NO_DATA : String(Math.round(r.bpm))));
    return cell;
  }

  mark(cell, r) {
    cell.dataset.sensor = r.sensor ?? '';
    cell.dataset.bpm = r.bpm == null ? '' : String(r.bpm);
    cell.dataset.zone = r.zone == null ? '' : String(r.zone);
    if (r.zone != null) cell.classList.add('zone-' + r.zone);
    if (r.bpm == null) cell.classList.add('stale');
    cell.title = r.bpm == null ? `no heart rate for ${Math.round(r.age_s || 0)} s` : '';
  }
}

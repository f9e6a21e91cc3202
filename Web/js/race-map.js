// All races on a map: one round marker per place where sessions started (GET /api/sessions:
// start_lat_deg, start_lon_deg, the session's first GPS fix), with the number of sessions that
// started there; sessions starting within 300 m of each other are one place. Tap a marker for
// its sessions below the map, newest first, each linking to its page; under each marker the
// title of the newest session there. Sessions without GPS are
// counted under the map.
import { getJSON } from './api.js';
import { clock, metres } from './metrics.js';
import { plainMap, distanceMetres } from './boat-map.js';
import { textNode } from './dom.js';

const $ = id => document.getElementById(id);

// Sessions that start closer than this are at one place (a club's landing stage, a regatta's start).
export const SAME_PLACE_M = 300;
// Markers big enough to tap with a wet finger.
const MARKER_PX = 48;

// Groups sessions (newest first) by start place, greedily: each session joins the first place
// whose first session started within SAME_PLACE_M of its start, or makes a new place. A place's
// marker stands at the mean of its sessions' starts.
export function groupByPlace(sessions) {
  const places = [];
  for (const s of sessions) {
    const at = [s.start_lat_deg, s.start_lon_deg];
    let place = places.find(p => distanceMetres(p.anchor, at) <= SAME_PLACE_M);
    if (!place) places.push(place = { anchor: at, sessions: [] });
    place.sessions.push(s);
  }
  for (const p of places) {
    p.lat = p.sessions.reduce((sum, s) => sum + s.start_lat_deg, 0) / p.sessions.length;
    p.lon = p.sessions.reduce((sum, s) => sum + s.start_lon_deg, 0) / p.sessions.length;
  }
  return places;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

export class RaceMap {
  constructor() {
    this.sessions = [];
    this.groups = [];
    this.selected = null;
    this.loaded = false;
  }

  hasStart(s) { return s.start_lat_deg != null && s.start_lon_deg != null; }

  async load() {
    this.loaded = false;
    const all = await getJSON('/api/sessions');
    this.sessions = all.sort((a, b) => (b.start_utc || '').localeCompare(a.start_utc || ''));
    this.groups = groupByPlace(this.sessions.filter(s => this.hasStart(s)));
    // Keep the place that was open (the same first session) across a reload.
    const open = this.selected && this.groups.find(g => g.sessions.some(s => s.id === this.selected.sessions[0].id));
    this.selected = open || null;
    this.render();
    this.loaded = true;
  }

  render() {
    const unreadable = this.sessions.filter(s => s.error).length;
    const noGPS = this.sessions.filter(s => !s.error && !this.hasStart(s)).length;
    $('race-map-empty').hidden = this.sessions.length > 0;
    $('race-map-panel').hidden = this.groups.length === 0;
    const counts = [];
    if (noGPS) counts.push(plural(noGPS, 'session has', 'sessions have') + ' no GPS');
    if (unreadable) counts.push(plural(unreadable, 'session cannot', 'sessions cannot') + ' be read');
    $('race-map-no-gps').textContent = counts.join('; ') + (counts.length ? ': not on the map.' : '');
    $('race-map-no-gps').hidden = counts.length === 0;
    // Drawn only on screen: the page is loaded again each time it is shown.
    if (this.groups.length && !$('map-page').hidden) this.drawMap();
    this.renderList();
  }

  // A new view of the places, made while the page is on screen (a hidden Leaflet map has no size).
  drawMap() {
    if (!this.map) {
      this.map = plainMap($('race-map'), { zoomSnap: 0.5 });
      this.layer = L.layerGroup().addTo(this.map);
    }
    this.map.invalidateSize();
    this.layer.clearLayers();
    this.markers = this.groups.map(g => {
      const marker = L.marker([g.lat, g.lon], {
        icon: this.icon(g), title: plural(g.sessions.length, 'session', 'sessions') + ' started here', riseOnHover: true,
      });
      marker.on('click', () => this.select(g));
      // Without map tiles a number alone does not say which place it is: the newest session's
      // title under it (as text: Leaflet takes a string as HTML).
      marker.bindTooltip(textNode(g.sessions[0].title || 'untitled'), {
        permanent: true, direction: 'bottom', offset: [0, MARKER_PX / 2], className: 'race-place-label',
      });
      marker.addTo(this.layer);
      return marker;
    });
    this.fit();
  }

  icon(group) {
    const n = group.sessions.length;
    return L.divIcon({
      className: 'race-place' + (group === this.selected ? ' selected' : ''),
      html: `<span>${n}</span>`, iconSize: [MARKER_PX, MARKER_PX], iconAnchor: [MARKER_PX / 2, MARKER_PX / 2],
    });
  }

  // Every place and its label in view; one place alone at a zoom where the river around it shows.
  fit() {
    if (this.groups.length === 1) {
      this.map.setView([this.groups[0].lat, this.groups[0].lon], 14);
    } else {
      const bounds = L.latLngBounds(this.groups.map(g => [g.lat, g.lon]));
      // Room for a marker above and beside its place and for its label below.
      this.map.fitBounds(bounds, { paddingTopLeft: [80, MARKER_PX], paddingBottomRight: [80, MARKER_PX + 24], maxZoom: 14 });
    }
  }

  select(group) {
    this.selected = group;
    this.groups.forEach((g, i) => this.markers[i].setIcon(this.icon(g)));
    this.renderList();
    $('race-map-group').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  // The open place's sessions, newest first: date, title (a link to its page), distance, time.
  renderList() {
    const g = this.selected;
    $('race-map-hint').hidden = !this.groups.length || g !== null;
    $('race-map-group').hidden = g === null;
    if (!g) return;
    const ns = g.lat >= 0 ? 'N' : 'S', ew = g.lon >= 0 ? 'E' : 'W';
    $('race-map-group-title').textContent = plural(g.sessions.length, 'session', 'sessions') + ' started here';
    $('race-map-group-place').textContent = `${Math.abs(g.lat).toFixed(4)}° ${ns}, ${Math.abs(g.lon).toFixed(4)}° ${ew}`;
    // The race list's near filter: every session whose track came within the same 300 m.
    $('race-map-group-near').href = `#races?near=${g.lat.toFixed(5)},${g.lon.toFixed(5)},${SAME_PLACE_M}`;
    const list = $('race-map-list');
    list.replaceChildren();
    for (const s of g.sessions) {
      const li = document.createElement('li');
      li.className = 'race';
      li.dataset.id = s.id;
      const date = s.start_utc ? s.start_utc.replace('T', ' ').slice(0, 16) + ' UTC' : '—';
      li.innerHTML = `<div class="race-head"><a class="race-title"></a><span class="race-date"></span></div>
        <div class="race-figures"><span class="distance"></span><span class="elapsed"></span></div>`;
      const title = li.querySelector('.race-title');
      title.href = '#session/' + encodeURIComponent(s.id);
      title.textContent = s.title || 'untitled';
      li.querySelector('.race-date').textContent = date;
      li.querySelector('.distance').textContent = metres(s.distance_m);
      li.querySelector('.elapsed').textContent = clock(s.elapsed_s);
      list.appendChild(li);
    }
  }

  resized() {
    if (this.map && !$('map-page').hidden) this.map.invalidateSize();
  }
}

// The fleet on one map (#fleet, a coach's launch): each boat a marker with its name, its recent
// track a line in the boat's colour, the course's gates (race.fences_geojson), and a ring where
// two boats crossed paths. Fitted to the boats (with the course) once; after that the view is the
// coach's: updates move the markers, never the map. "Show all" fits again; a tapped boat or
// meeting centres the map there. On a touch screen one finger scrolls the page, not the map
// (the seed app's users fought map panning): the zoom buttons and two fingers instead.
import { plainMap } from './boat-map.js';
import { fencesLayer } from './session-map.js';
import { el, textNode } from './dom.js';

// Boat colours: bright on the dark map and apart from the gates (white) and meetings (magenta).
export const BOAT_COLOURS = ['#ffd200', '#00c8ff', '#2ecc40', '#ff9500', '#ff6b6b', '#b48cff', '#7fffd4', '#f0a0ff'];
const MEETING_COLOUR = '#ff4fd8';
const LABEL_H = 26;  // a name label's height (24.5 px) and a gap: labels closer than this are pushed apart

export class FleetMap {
  constructor(element) {
    this.element = element;
    this.boats = new Map();  // id → { marker, track }
    this.fitted = false;     // fitted to the boats once
    this.fences = null;      // the course's GeoJSON drawn, as text
    this.gateLabels = [];    // the gates' name markers
  }

  ensure() {
    if (this.map) return;
    this.map = plainMap(this.element, { zoomSnap: 0.5, scrollWheelZoom: false, dragging: !L.Browser.mobile, tap: false });
    this.map.setView([0, 0], 2);
    this.courseLayer = L.layerGroup().addTo(this.map);
    this.tracks = L.layerGroup().addTo(this.map);
    this.meetingLayer = L.layerGroup().addTo(this.map);
    this.markers = L.layerGroup().addTo(this.map);
    this.map.on('zoomend', () => this.declutter());
  }

  get onScreen() { return this.element.clientWidth > 0; }

  // The latest /api/fleet answer; colourOf(id) gives each boat's colour.
  update(data, colourOf) {
    this.ensure();
    if (!this.onScreen) return;
    this.map.invalidateSize();
    this.drawCourse(data.race ? data.race.fences_geojson : null);
    const seen = new Set();
    for (const b of data.boats) {
      if (b.lat == null || b.lon == null) continue;
      seen.add(b.id);
      let shown = this.boats.get(b.id);
      if (!shown) {
        shown = {
          track: L.polyline([], { color: colourOf(b.id), weight: 3, opacity: 0.8 }).addTo(this.tracks),
          marker: L.marker([b.lat, b.lon], { icon: this.icon(b, colourOf(b.id)), keyboard: false }).addTo(this.markers),
        };
        this.boats.set(b.id, shown);
      }
      shown.marker.setLatLng([b.lat, b.lon]);
      shown.marker.getElement().classList.toggle('stale', b.stale === true);
      shown.track.setLatLngs(b.track.length ? b.track.concat([[b.lat, b.lon]]) : []);
      shown.marker.getElement().querySelector('.fleet-boat-name').textContent = b.name;
    }
    for (const [id, shown] of this.boats) {
      if (seen.has(id)) continue;
      shown.marker.remove();
      shown.track.remove();
      this.boats.delete(id);
    }
    this.meetingLayer.clearLayers();
    for (const m of data.meetings) {
      if (m.lat == null || m.lon == null) continue;
      L.circleMarker([m.lat, m.lon], { radius: 9, color: MEETING_COLOUR, weight: 3, fill: false, className: 'fleet-meeting' })
        .bindTooltip(textNode(`${m.boats.join(' & ')} · ${m.closest_m == null ? '' : Number(m.closest_m).toFixed(1) + ' m'}`))
        .addTo(this.meetingLayer);
    }
    if (!this.fitted && this.boats.size > 0) {
      this.fit();
      this.fitted = true;
    }
    this.declutter();
  }

  // The boat's dot in its colour (one of BOAT_COLOURS) and its name, filled in as text by update().
  icon(b, colour) {
    return L.divIcon({
      className: 'fleet-boat',
      html: `<span class="fleet-boat-dot" style="background:${colour}"></span><span class="fleet-boat-name"></span>`,
      iconSize: [18, 18], iconAnchor: [9, 9],
    });
  }

  // The course file's GeoJSON (race.fences_geojson: the object; text is parsed too), drawn again only when it changes.
  drawCourse(fences) {
    const text = fences == null ? null : typeof fences === 'string' ? fences : JSON.stringify(fences);
    if (text === this.fences) return;
    this.fences = text;
    this.courseLayer.clearLayers();
    this.gateLabels = [];
    this.courseBounds = null;
    if (!text) return;
    try {
      const layer = fencesLayer(JSON.parse(text));
      this.courseBounds = layer.getBounds();
      // The course in view before the boats are heard.
      if (!this.fitted && !this.fittedCourse) {
        this.map.fitBounds(this.courseBounds, { padding: [20, 20], maxZoom: 17, animate: false });
        this.fittedCourse = true;
      }
      layer.addTo(this.courseLayer);
      // Each gate's name above its line's north end, off the lanes where the boats' names are.
      layer.eachLayer(line => {
        const label = line.getTooltip && line.getTooltip();
        if (!label || !(line instanceof L.Polyline) || line instanceof L.Polygon) return;
        const name = line.feature.properties.name;
        line.unbindTooltip();
        const top = line.getLatLngs().flat(Infinity).reduce((a, b) => (b.lat > a.lat ? b : a));
        this.gateLabels.push(L.marker(top, {
          icon: L.divIcon({ className: 'gate-label fleet-gate-label', html: el('span', null, name), iconSize: [0, 0] }),
          interactive: false, keyboard: false,
        }).addTo(this.courseLayer));
      });
      this.declutter();
    } catch (e) {
      console.warn('the course could not be drawn', e);
    }
  }

  // Every boat, its track and the course in view.
  fit() {
    if (!this.map || !this.onScreen) return;
    let bounds = this.courseBounds ? L.latLngBounds(this.courseBounds.getSouthWest(), this.courseBounds.getNorthEast()) : null;
    for (const { marker, track } of this.boats.values()) {
      const b = track.getLatLngs().length ? track.getBounds() : L.latLngBounds([marker.getLatLng()]);
      bounds = bounds ? bounds.extend(b) : b;
    }
    if (bounds) this.map.fitBounds(bounds, { paddingTopLeft: [20, 20], paddingBottomRight: [90, 20], maxZoom: 17, animate: false });
  }

  centre(lat, lon) {
    if (!this.map) return;
    this.map.setView([lat, lon], Math.max(this.map.getZoom(), 17));
  }

  // Boats in lanes a few metres apart have their names on top of each other: the labels are
  // pushed down, in order from the top, until none overlaps another.
  // Zoomed out, a course's gate names run into each other: the start and the finish keep theirs,
  // a marker gate's name shows only where it has room.
  declutter() {
    if (!this.map) return;
    const gates = this.gateLabels.map(m => ({ at: this.map.latLngToLayerPoint(m.getLatLng()), el: m.getElement()?.querySelector('span') }))
      .filter(g => g.el);
    const ends = gates.length > 1 ? [gates[0], gates[gates.length - 1]] : gates;
    const shown = [];
    for (const g of [...ends, ...gates.slice(1, -1)]) {
      const w = g.el.offsetWidth || 40;
      const room = shown.every(o => Math.abs(o.at.x - g.at.x) > (o.w + w) / 2 + 4 || Math.abs(o.at.y - g.at.y) > LABEL_H);
      g.el.style.visibility = room ? '' : 'hidden';
      if (room) shown.push({ at: g.at, w });
    }
    const placed = [];
    const labels = [...this.boats.values()].map(({ marker }) => ({
      at: this.map.latLngToLayerPoint(marker.getLatLng()), el: marker.getElement().querySelector('.fleet-boat-name'),
    })).sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x);
    for (const l of labels) {
      const w = l.el.offsetWidth;
      let y = l.at.y;
      for (let moved = true; moved;) {
        moved = false;
        for (const p of placed) {
          if (Math.abs(p.y - y) < LABEL_H && l.at.x < p.x + p.w && p.x < l.at.x + w) { y = p.y + LABEL_H; moved = true; }
        }
      }
      placed.push({ x: l.at.x, y, w });
      l.el.style.transform = `translateY(${Math.round(y - l.at.y)}px)`;
    }
  }

  resized() {
    if (this.map && this.onScreen) this.map.invalidateSize();
  }

  // What the tests read: the markers shown (name, position, the label's box).
  get shown() {
    return [...this.boats.entries()].map(([id, { marker, track }]) => ({
      id, name: marker.getElement().querySelector('.fleet-boat-name').textContent,
      lat: marker.getLatLng().lat, lon: marker.getLatLng().lng, track: track.getLatLngs().length,
    }));
  }
}

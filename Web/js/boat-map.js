// The trail on a small map centred on the boat. No tiles needed (the boat has no internet): a
// plain background with a scale bar; a club with a connection can set a tile URL
// (localStorage 'oarlog.tiles.url'). During a race the map cannot be dragged (map gestures
// fought with scrolling in the seed app); a zoom control instead.
const TILES_KEY = 'oarlog.tiles.url';

// Great-circle distance in metres between two [lat, lon] in degrees (a sphere of the Earth's
// mean radius: enough to group start places and to find the trail's point nearest a tap).
export function distanceMetres(a, b) {
  const rad = Math.PI / 180, earthRadiusM = 6371008.8;
  const dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusM * Math.asin(Math.min(1, Math.sqrt(h)));
}

// A Leaflet map as every page of the app makes it: no tiles unless the club set a URL, a metric
// scale bar, no attribution, and it follows the window only when told (a hidden map has no size).
export function plainMap(element, options) {
  const map = L.map(element, { zoomControl: true, attributionControl: false, trackResize: false, ...options });
  const url = localStorage.getItem(TILES_KEY);
  if (url) L.tileLayer(url, { maxZoom: 19 }).addTo(map);
  L.control.scale({ imperial: false }).addTo(map);
  return map;
}

export class BoatMap {
  constructor(element) {
    this.map = plainMap(element, {
      dragging: false, touchZoom: false, scrollWheelZoom: false, doubleClickZoom: false, boxZoom: false,
      keyboard: false, zoomSnap: 0.5,
    }).setView([0, 0], 2);
    const url = localStorage.getItem(TILES_KEY);
    const field = document.getElementById('tiles-url');
    if (field) {
      field.value = url || '';
      field.onchange = () => {
        const v = field.value.trim();
        if (v) localStorage.setItem(TILES_KEY, v); else localStorage.removeItem(TILES_KEY);
        location.reload();
      };
    }
    this.trail = L.polyline([], { color: '#00e0ff', weight: 4 }).addTo(this.map);
    this.boat = null;
  }

  add(lat, lon) {
    const p = [lat, lon];
    this.trail.addLatLng(p);
    // Hidden (another page is shown): no view changes on a map without a size, which would
    // give Leaflet NaN; the boat is centred again when the map is shown (visible()).
    const hidden = this.map.getContainer().clientWidth === 0;
    if (!this.boat) {
      this.boat = L.circleMarker(p, { radius: 8, color: '#fff', weight: 3, fillColor: '#ff3b30', fillOpacity: 1 }).addTo(this.map);
      this.start = L.circleMarker(p, { radius: 6, color: '#000', weight: 2, fillColor: '#2ecc40', fillOpacity: 1 }).addTo(this.map);
      if (hidden) this.pending = true; else this.map.setView(p, 16);
    } else {
      this.boat.setLatLng(p);
      if (hidden) this.pending = true; else this.map.panTo(p, { animate: false });
    }
  }

  // The map is on screen again: its size, and the boat in the middle.
  visible() {
    this.map.invalidateSize();
    if (this.pending && this.boat) {
      this.pending = false;
      this.map.setView(this.boat.getLatLng(), this.map.getZoom() > 3 ? this.map.getZoom() : 16);
    }
  }

  // A playback: the whole trail, dim, under the boat's own.
  showCourse(latlngs) {
    this.clearCourse();
    if (latlngs.length < 2) return;
    this.course = L.polyline(latlngs, { color: '#5a6b7a', weight: 3 }).addTo(this.map);
    this.trail.bringToFront();
    this.map.fitBounds(this.course.getBounds(), { padding: [12, 12] });
  }

  // The ghost raced (ghost-panel.js): its attempt's path dim and dashed, its dot where it is now.
  ghostTrack(latlngs) {
    if (this.ghostPath) { this.ghostPath.remove(); this.ghostPath = null; }
    if (!latlngs || latlngs.length < 2) return;
    this.ghostPath = L.polyline(latlngs, { color: '#b38cff', weight: 2, opacity: 0.6, dashArray: '6 6' }).addTo(this.map);
    this.trail.bringToFront();
    if (!this.boat && this.map.getContainer().clientWidth > 0) this.map.fitBounds(this.ghostPath.getBounds(), { padding: [12, 12] });
  }

  // A ring, over the boat's dot: a ghost a few metres off still shows beside it.
  ghostAt(lat, lon) {
    if (lat == null || lon == null) return;
    const p = [lat, lon];
    if (!this.ghost) {
      this.ghost = L.circleMarker(p, { radius: 12, color: '#b38cff', weight: 4, fill: false }).addTo(this.map);
    } else this.ghost.setLatLng(p);
    this.ghost.bringToFront();
  }

  clearGhost() {
    if (this.ghost) { this.ghost.remove(); this.ghost = null; }
  }

  clearCourse() {
    if (this.course) { this.course.remove(); this.course = null; }
  }

  clear() {
    this.trail.setLatLngs([]);
    if (this.boat) { this.boat.remove(); this.start.remove(); this.boat = null; }
  }

  get points() { return this.trail.getLatLngs().length; }
}

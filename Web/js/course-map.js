// A kept course on a map (the course page, #course/NAME): its gates as lines — the start green,
// the markers white, the finish chequered black and white — each labelled with its name and
// distance, a pin at each gate's middle; and, when two attempts are compared, both tracks from
// their start crossing to their finish in two colours.
import { plainMap } from './boat-map.js';
import { textNode } from './dom.js';
import { metres } from './metrics.js';

export const GATE_COLOURS = { start: '#2ecc40', marker: '#ffffff', finish: '#ff3b30' };

export class CourseMap {
  constructor(element) {
    this.element = element;
    this.map = null;
  }

  // Draws `course` (GET /api/courses/{name}: its `fences` GeoJSON and `gates`), made while the
  // page is on screen (a Leaflet map made hidden has no size).
  show(course) {
    if (this.map) this.map.remove();
    this.map = plainMap(this.element, { zoomSnap: 0.25 });
    this.gateLayer = L.layerGroup().addTo(this.map);
    this.trackLayer = L.layerGroup().addTo(this.map);
    this.gates = [];
    this.tracks = {};
    const distance = {};
    for (const g of course.gates || []) distance[g.name] = g.distance_m;
    const features = (course.fences && course.fences.features) || [];
    const all = [];
    for (const f of features) {
      const role = f.properties && f.properties.role;
      if (!role || !f.geometry || f.geometry.type !== 'LineString') continue;
      const line = f.geometry.coordinates.map(c => [c[1], c[0]]);
      all.push(...line);
      const name = (f.properties && f.properties.name) || role;
      this.drawGate(line, role, name, distance[name]);
    }
    if (all.length) this.map.fitBounds(L.latLngBounds(all), { padding: [24, 24] });
  }

  drawGate(line, role, name, distanceM) {
    const colour = GATE_COLOURS[role] || GATE_COLOURS.marker;
    const gate = L.polyline(line, { color: colour, weight: 7, opacity: 1 }).addTo(this.gateLayer);
    // The finish chequered: black dashes over white.
    if (role === 'finish') {
      gate.setStyle({ color: '#ffffff' });
      L.polyline(line, { color: '#000000', weight: 7, opacity: 1, dashArray: '6 6', interactive: false }).addTo(this.gateLayer);
    }
    // A marker's name is usually its distance already ("500 m").
    const label = distanceM == null || name === metres(distanceM) ? name : `${name} · ${metres(distanceM)}`;
    // 'auto': to the left of a gate in the map's right half, so no label runs off the map.
    gate.bindTooltip(textNode(label), { permanent: true, direction: 'auto', className: 'gate-label course-gate-label' });
    const middle = [(line[0][0] + line[line.length - 1][0]) / 2, (line[0][1] + line[line.length - 1][1]) / 2];
    L.circleMarker(middle, { radius: 5, color: '#000', weight: 2, fillColor: colour, fillOpacity: 1, interactive: false }).addTo(this.gateLayer);
    this.gates.push({ name, role, colour: role === 'finish' ? 'chequered' : colour });
  }

  // Both attempts' tracks (the compare answer's `trails`), in `colours` ({a, b}); none: cleared.
  showTracks(trails, colours) {
    if (!this.map) return;
    this.trackLayer.clearLayers();
    this.tracks = {};
    if (!trails) return;
    const all = [];
    for (const key of ['a', 'b']) {
      const t = trails[key];
      const points = t.lat_deg.map((lat, i) => [lat, t.lon_deg[i]]);
      all.push(...points);
      // A wider under B: two attempts on the same line both show.
      this.tracks[key] = L.polyline(points, { color: colours[key], weight: key === 'a' ? 9 : 4, opacity: 0.9 }).addTo(this.trackLayer);
    }
    this.gateLayer.eachLayer(l => l.bringToFront && l.bringToFront());
    if (all.length) this.map.fitBounds(L.latLngBounds(all), { padding: [24, 24] });
  }

  resized() {
    if (this.map && this.element.offsetParent !== null) this.map.invalidateSize();
  }
}

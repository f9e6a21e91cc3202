// A stored session on a map: the trail (GET /api/sessions/{id}/trail: the export's points with
// their time and distance) coloured by the split or the rate of the stroke rowed there, with a
// legend; a green start and a red end pin; the notes where the boat was when they were made; the
// fences and gates of the session's course (GET /api/sessions/{id}/course) and each crossing;
// tap the trail for time, split and rate.
import { NO_DATA, clock, split, metres } from './metrics.js';
import { plainMap, distanceMetres } from './boat-map.js';
import { textNode, legendStep, el } from './dom.js';

const $ = id => document.getElementById(id);

// Colour scales: fast (low split, high rate) is warm, slow is cool; five steps with a legend.
const STEPS = ['#2d7dff', '#00c8ff', '#2ecc40', '#ffd200', '#ff3b30'];

export class SessionMap {
  constructor() {
    this.colourBy = 'split';
    // While a course is being made (make-course.js): every tap on the map goes there instead.
    this.onTap = null;
    // Taps on the track, a pin or the bare map alike (Leaflet gives a layer's click to the layer
    // alone); not the zoom buttons, not the end of a drag.
    $('session-map').addEventListener('click', e => {
      if (!this.onTap || !this.map || e.target.closest('.leaflet-control') || this.map.dragging.moved()) return;
      this.onTap(this.map.mouseEventToLatLng(e));
    });
    $('colour-by').onchange = e => { this.colourBy = e.target.value; this.draw(); };
  }

  // Shows the trail of `session` (its stroke list and notes) and its course; hides the map when
  // the session has no GPS.
  async show(id, session, strokes) {
    if (this.id !== id) this.piece = null;
    this.id = id;
    this.session = session;
    this.strokes = strokes;
    this.points = [];
    this.course = null;
    if (!session.gps_fixes) {
      if (this.map) { this.map.remove(); this.map = null; }
      $('session-map-panel').hidden = true;
      $('session-no-map').hidden = false;
      return;
    }
    $('session-map-panel').hidden = false;
    $('session-no-map').hidden = true;
    $('trail-readout').textContent = 'Tap the track for time, distance, split and rate.';
    const base = `/api/sessions/${encodeURIComponent(id)}`;
    const [trail, course] = await Promise.all([
      fetch(base + '/trail', { cache: 'no-store' }).then(r => r.ok ? r.json() : null),
      fetch(base + '/course', { cache: 'no-store' }).then(r => r.ok ? r.json() : null).catch(() => null),
    ]);
    if (trail) {
      this.points = trail.t_s.map((t, i) => ({ t, lat: trail.lat_deg[i], lon: trail.lon_deg[i], d: trail.distance_m[i] }));
      this.fixes = trail.fixes;
    }
    this.course = course;
    // A new map for each session, made while its page is on screen (a Leaflet map changed while
    // hidden has no size, and its view becomes NaN).
    if (this.map) this.map.remove();
    this.map = plainMap($('session-map'), { zoomSnap: 0.25 });
    this.layer = L.layerGroup().addTo(this.map);
    this.tapLayer = L.layerGroup().addTo(this.map);
    if (this.points.length) this.map.fitBounds(L.latLngBounds(this.points.map(p => [p.lat, p.lon])), { padding: [16, 16] });
    this.draw();
    this.highlight(this.piece);
  }

  // The chosen piece's stretch of the track, outlined (null: none).
  highlight(piece) {
    this.piece = piece;
    if (this.pieceLayer) { this.pieceLayer.remove(); this.pieceLayer = null; }
    this.highlighted = 0;
    if (!this.map || !piece) return;
    const stretch = this.points.filter(p => p.t >= piece.start_s && p.t <= piece.end_s).map(p => [p.lat, p.lon]);
    this.highlighted = stretch.length;
    if (stretch.length < 2) return;
    this.pieceLayer = L.polyline(stretch, { color: '#ffffff', weight: 11, opacity: 0.45, interactive: false }).addTo(this.map);
    this.pieceLayer.bringToBack();
  }

  resized() {
    if (this.map && !$('session').hidden) this.map.invalidateSize();
  }

  // The stroke rowed at session time t (the last catch at or before it).
  strokeAt(t) {
    const k = this.strokes;
    let lo = 0, hi = k.length - 1, best = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (k[mid].t_s <= t) { best = k[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  }

  // The trail's point at session time t (the last at or before it; the first before the start).
  pointAt(t) {
    const p = this.points;
    if (!p.length) return null;
    let lo = 0, hi = p.length - 1, best = p[0];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (p[mid].t <= t) { best = p[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  }

  draw() {
    if (!this.map) return;
    this.layer.clearLayers();
    this.drawCourse();
    const key = this.colourBy === 'rate' ? 'rate_spm' : 'split_s_per_500m';
    const values = this.strokes.map(k => k[key]).filter(v => v != null && isFinite(v) && (key !== 'split_s_per_500m' || v < 600));
    const sorted = values.slice().sort((a, b) => a - b);
    const q = f => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))] : 0;
    const bounds = [q(0.2), q(0.4), q(0.6), q(0.8)];
    // Faster is warmer: for split a lower value, for rate a higher one.
    const step = v => {
      if (v == null || !isFinite(v)) return null;
      const i = bounds.filter(b => v > b).length;
      return key === 'split_s_per_500m' ? 4 - i : i;
    };
    // A stroke's colour holds until the next catch; a point long after the last catch (a rest) is grey.
    let run = [], runStep;
    const flush = () => {
      if (run.length > 1) {
        L.polyline(run, { color: runStep == null ? '#888' : STEPS[runStep], weight: 5, opacity: 0.95 })
          .on('click', e => this.describe(e.latlng)).addTo(this.layer);
      }
    };
    for (const p of this.points) {
      const k = this.strokeAt(p.t);
      const st = k && p.t - k.t_s < 10 ? step(k[key]) : null;
      if (run.length && st !== runStep) { run.push([p.lat, p.lon]); flush(); run = [run[run.length - 1]]; }
      runStep = st;
      run.push([p.lat, p.lon]);
    }
    flush();
    const first = this.points[0], last = this.points[this.points.length - 1];
    const pin = (p, colour, name) => p && L.circleMarker([p.lat, p.lon],
      { radius: 9, color: '#fff', weight: 3, fillColor: colour, fillOpacity: 1 }).bindTooltip(textNode(name)).addTo(this.layer);
    this.startPin = pin(first, '#2ecc40', 'Start');
    this.endPin = pin(last, '#ff3b30', 'Finish');
    this.noteMarkers = 0;
    for (const n of this.session.note_list || []) {
      const p = this.pointAt(n.t_s);
      if (!p) continue;
      L.circleMarker([p.lat, p.lon], { radius: 6, color: '#000', weight: 2, fillColor: '#ffd200', fillOpacity: 1 })
        .bindTooltip(textNode(`${clock(n.t_s)} ${n.text}`)).addTo(this.layer);
      this.noteMarkers++;
    }
    this.legend(key, bounds);
  }

  // The course's gates as lines, its areas as shapes, and each crossing (green the right way, red the wrong way).
  drawCourse() {
    this.courseShown = { gates: 0, areas: 0, crossings: 0 };
    const c = this.course;
    if (!c) return;
    if (c.fences && c.fences.features) {
      const shown = fencesLayer(c.fences).addTo(this.layer).shown;
      this.courseShown.gates = shown.gates;
      this.courseShown.areas = shown.areas;
    }
    for (const x of c.crossings || []) {
      L.circleMarker([x.lat_deg, x.lon_deg], { radius: 5, color: '#000', weight: 1, fillColor: x.wrong_way ? '#ff3b30' : '#2ecc40', fillOpacity: 1 })
        .bindTooltip(textNode(`${x.gate} ${clock(x.t_s)}${x.wrong_way ? ' (wrong way)' : ''}`)).addTo(this.layer);
      this.courseShown.crossings++;
    }
  }

  legend(key, bounds) {
    const box = $('trail-legend');
    const fmt = key === 'rate_spm' ? v => v.toFixed(1) : v => split(v);
    const labels = key === 'rate_spm'
      ? [`< ${fmt(bounds[0])}`, `${fmt(bounds[0])}–${fmt(bounds[1])}`, `${fmt(bounds[1])}–${fmt(bounds[2])}`, `${fmt(bounds[2])}–${fmt(bounds[3])}`, `> ${fmt(bounds[3])}`]
      : [`> ${fmt(bounds[3])}`, `${fmt(bounds[3])}–${fmt(bounds[2])}`, `${fmt(bounds[2])}–${fmt(bounds[1])}`, `${fmt(bounds[1])}–${fmt(bounds[0])}`, `< ${fmt(bounds[0])}`];
    box.replaceChildren(el('span', null, key === 'rate_spm' ? 'Rate (spm):' : 'Split (/500m):'));
    labels.forEach((l, i) => box.append(i ? ' ' : '', legendStep(STEPS[i], l)));
    if (this.course && this.course.course) box.append(' ', legendStep('#fff', this.course.course));
  }

  // A tap of "Make a course" (`what`: start or finish) marked where it was.
  showTap(latlng, what) {
    if (!this.tapLayer) return;
    L.circleMarker(latlng, { radius: 10, color: '#000', weight: 3, fillColor: what === 'start' ? '#2ecc40' : '#ff3b30', fillOpacity: 1 })
      .bindTooltip(what === 'start' ? 'New course: start' : 'New course: finish', { permanent: true, direction: 'top' }).addTo(this.tapLayer);
  }

  clearTaps() {
    if (this.tapLayer) this.tapLayer.clearLayers();
  }

  // Tap on the trail: the time, distance, split and rate of the stroke rowed there.
  describe(latlng) {
    if (this.onTap) return;  // making a course: the tap is its start or finish
    let best = this.points[0], bestD = Infinity;
    for (const p of this.points) {
      const d = distanceMetres([p.lat, p.lon], [latlng.lat, latlng.lng]);
      if (d < bestD) { bestD = d; best = p; }
    }
    const k = this.strokeAt(best.t);
    const text = `${clock(best.t)} · ${metres(best.d)} · `
      + (k && best.t - k.t_s < 10 ? `${split(k.split_s_per_500m)} /500m · ${k.rate_spm == null ? NO_DATA : k.rate_spm.toFixed(1)} spm` : 'not rowing');
    L.popup().setLatLng(latlng).setContent(textNode(text)).openOn(this.map);
    $('trail-readout').textContent = text;
  }
}

// A GeoJSON of fences (docs/FENCES.md) as map layers: gates as white lines labelled with their
// name, areas as shapes; `shown` counts the gates and areas drawn.
export function fencesLayer(fences) {
  const shown = { gates: 0, areas: 0 };
  const layer = L.geoJSON(fences, {
    style: f => f.geometry.type === 'LineString' || f.geometry.type === 'MultiLineString'
      ? { color: '#ffffff', weight: 6, opacity: 0.95 }
      : { color: '#b48cff', weight: 2, fillOpacity: 0.12 },
    pointToLayer: (f, latlng) => L.circle(latlng, { radius: Number(f.properties && f.properties.radius_m) || 10 }),
    onEachFeature: (f, layer) => {
      const line = f.geometry.type.includes('LineString');
      if (line) shown.gates++; else shown.areas++;
      if (f.properties && f.properties.name) {
        layer.bindTooltip(textNode(f.properties.name), line ? { permanent: true, direction: 'right', className: 'gate-label' } : {});
      }
    },
  });
  layer.shown = shown;
  return layer;
}

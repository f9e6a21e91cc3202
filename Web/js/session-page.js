// One session after the outing: the summary table of `oarlog show` ("—" where a sensor gave no
// data), the track on a map coloured by split or by rate with a green start and a red end pin,
// split and stroke rate against time, the notes (listed, on the map, added here) and the
// downloads. Everything comes from GET /api/sessions/{id} (`oarlog show ID --json --strokes`)
// and GET /api/sessions/{id}/track (`oarlog export ID --format geojson`).
import { getJSON, control, ensurePaired, addDownloadLinks } from './api.js';
import { fillSummary, NO_DATA, clock, split } from './metrics.js';
import { plainMap } from './boat-map.js';

const $ = id => document.getElementById(id);

// Colour scales: fast (low split, high rate) is warm, slow is cool; five steps with a legend.
const STEPS = ['#2d7dff', '#00c8ff', '#2ecc40', '#ffd200', '#ff3b30'];

export class SessionPage {
  constructor() {
    this.colourBy = 'split';
    $('colour-by').onchange = e => { this.colourBy = e.target.value; this.drawTrail(); };
    $('session-note-form').onsubmit = e => { e.preventDefault(); this.addNote(); };
  }

  async load(id) {
    this.id = id;
    this.session = null;
    $('session-error').hidden = true;
    try {
      this.session = await getJSON('/api/sessions/' + encodeURIComponent(id));
    } catch (e) {
      $('session-error').textContent = 'This session could not be read: ' + e.message;
      $('session-error').hidden = false;
      return;
    }
    const s = this.session;
    document.body.dataset.sessionLoaded = '';
    $('session-title').textContent = s.title || 'untitled';
    $('session-play').href = '#play/' + encodeURIComponent(id);
    $('session-date').textContent = s.start_utc ? s.start_utc.replace('T', ' ').replace('Z', ' UTC') : NO_DATA;
    fillSummary($('session-summary'), s);
    $('session-downloads').replaceChildren();
    addDownloadLinks($('session-downloads'), id, [['fit', 'FIT'], ['tcx', 'TCX'], ['gpx', 'GPX'], ['csv', 'Strokes CSV'], ['geojson', 'GeoJSON']]);
    this.strokes = (s.stroke_list || []).filter(k => k.t_s != null);
    await this.showPlots();
    this.showNotes();
    await this.showTrack();
    document.body.dataset.sessionLoaded = id;
  }

  // The track: the GeoJSON trail, its points placed along the session by distance, so each
  // piece of it gets the split and rate of the stroke rowed there.
  async showTrack() {
    const s = this.session;
    this.track = null;
    if (!s.gps_fixes) {
      $('session-map-panel').hidden = true;
      $('session-no-map').hidden = false;
      return;
    }
    $('session-map-panel').hidden = false;
    $('session-no-map').hidden = true;
    const geojson = await getJSON(`/api/sessions/${encodeURIComponent(this.id)}/track`);
    const trail = geojson.features.find(f => f.properties && f.properties.kind === 'trail');
    const coords = trail && trail.geometry ? trail.geometry.coordinates : [];
    const start = geojson.features.find(f => f.properties && f.properties.kind === 'start');
    const end = geojson.features.find(f => f.properties && f.properties.kind === 'end');
    const points = coords.map(([lon, lat]) => ({ lat, lon }));
    let along = 0;
    points.forEach((p, i) => {
      if (i > 0) along += metresBetween(points[i - 1], p);
      p.along = along;
    });
    // Scale the trail's own length to the session's distance (the same fixes, so nearly 1).
    const total = s.distance_m || along || 1;
    for (const p of points) p.distance = along > 0 ? p.along * total / along : 0;
    this.track = { points, start, end };
    // A new map for each session, made while its page is on screen (a Leaflet map changed while
    // hidden has no size, and its view becomes NaN).
    if (this.map) this.map.remove();
    this.map = plainMap($('session-map'), { zoomSnap: 0.25 });
    this.layer = L.layerGroup().addTo(this.map);
    if (points.length) this.map.fitBounds(L.latLngBounds(points.map(p => [p.lat, p.lon])), { padding: [16, 16] });
    this.drawTrail();
  }

  // The window changed size while this page is shown.
  resized() {
    if (this.map && !$('session').hidden) this.map.invalidateSize();
  }

  // The stroke rowed at a distance along the session (the last one at or before it).
  strokeAtDistance(d) {
    const k = this.strokes;
    let lo = 0, hi = k.length - 1, best = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((k[mid].distance_m ?? -1) <= d) { best = k[mid]; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  }

  drawTrail() {
    if (!this.track || !this.map) return;
    const { points, start, end } = this.track;
    this.layer.clearLayers();
    const key = this.colourBy === 'rate' ? 'rate_spm' : 'split_s_per_500m';
    const values = this.strokes.map(k => k[key]).filter(v => v != null && isFinite(v) && (key !== 'split_s_per_500m' || v < 600));
    const sorted = values.slice().sort((a, b) => a - b);
    const q = f => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))] : 0;
    const bounds = [q(0.2), q(0.4), q(0.6), q(0.8)];
    // Faster is warmer: for split a lower value, for rate a higher one.
    const step = v => {
      if (v == null || !isFinite(v)) return null;
      let i = bounds.filter(b => v > b).length;
      return key === 'split_s_per_500m' ? 4 - i : i;
    };
    let run = [], runStep;
    const flush = () => {
      if (run.length > 1) {
        L.polyline(run, { color: runStep == null ? '#888' : STEPS[runStep], weight: 5, opacity: 0.95 })
          .on('click', e => this.describe(e.latlng)).addTo(this.layer);
      }
    };
    for (const p of points) {
      const k = this.strokeAtDistance(p.distance);
      const st = step(k ? k[key] : null);
      if (run.length && st !== runStep) { run.push([p.lat, p.lon]); flush(); run = [run[run.length - 1]]; }
      runStep = st;
      run.push([p.lat, p.lon]);
    }
    flush();
    this.trailPoints = points.length;
    const pin = (f, colour, name) => f && L.circleMarker([f.geometry.coordinates[1], f.geometry.coordinates[0]],
      { radius: 9, color: '#fff', weight: 3, fillColor: colour, fillOpacity: 1 }).bindTooltip(name).addTo(this.layer);
    this.startPin = pin(start, '#2ecc40', 'Start');
    this.endPin = pin(end, '#ff3b30', 'Finish');
    for (const n of this.session.note_list || []) {
      const p = this.pointAtTime(n.t_s);
      if (p) L.circleMarker([p.lat, p.lon], { radius: 6, color: '#000', weight: 2, fillColor: '#ffd200', fillOpacity: 1 })
        .bindTooltip(`${clock(n.t_s)} ${escapeHTML(n.text)}`).addTo(this.layer);
    }
    this.legend(key, bounds);
  }

  legend(key, bounds) {
    const box = $('trail-legend');
    const fmt = key === 'rate_spm' ? v => v.toFixed(1) : v => split(v);
    const labels = key === 'rate_spm'
      ? [`< ${fmt(bounds[0])}`, `${fmt(bounds[0])}–${fmt(bounds[1])}`, `${fmt(bounds[1])}–${fmt(bounds[2])}`, `${fmt(bounds[2])}–${fmt(bounds[3])}`, `> ${fmt(bounds[3])}`]
      : [`> ${fmt(bounds[3])}`, `${fmt(bounds[3])}–${fmt(bounds[2])}`, `${fmt(bounds[2])}–${fmt(bounds[1])}`, `${fmt(bounds[1])}–${fmt(bounds[0])}`, `< ${fmt(bounds[0])}`];
    box.innerHTML = `<span>${key === 'rate_spm' ? 'Rate (spm):' : 'Split (/500m):'}</span>`
      + labels.map((l, i) => `<span class="step"><span class="swatch" style="background:${STEPS[i]}"></span>${l}</span>`).join(' ');
  }

  // The position at a time of the session: the distance rowed by then, placed on the track.
  pointAtTime(t) {
    if (!this.track || !this.track.points.length) return null;
    const k = this.strokes;
    let d = 0;
    for (let i = 0; i < k.length && k[i].t_s <= t; i++) d = k[i].distance_m ?? d;
    const pts = this.track.points;
    let best = pts[0];
    for (const p of pts) { if (p.distance <= d) best = p; else break; }
    return best;
  }

  // Tap on the trail: the time, split and rate of the stroke rowed there.
  describe(latlng) {
    const pts = this.track.points;
    let best = pts[0], bestD = Infinity;
    for (const p of pts) {
      const d = metresBetween(p, { lat: latlng.lat, lon: latlng.lng });
      if (d < bestD) { bestD = d; best = p; }
    }
    const k = this.strokeAtDistance(best.distance);
    const text = k ? `${clock(k.t_s)} · ${split(k.split_s_per_500m)} /500m · ${k.rate_spm == null ? NO_DATA : k.rate_spm.toFixed(1)} spm`
      : 'before the first stroke';
    L.popup().setLatLng(latlng).setContent(text).openOn(this.map);
    $('trail-readout').textContent = text;
  }

  // Split and rate against time, from the server's downsampled series (a 10-hour session is a
  // few tens of kB), rests shaded and the line broken over them; a plot with no data is shown
  // disabled, never as zeros.
  async showPlots() {
    let series;
    try {
      series = await getJSON(`/api/sessions/${encodeURIComponent(this.id)}/series?fields=split,rate&points=600`);
    } catch (e) {
      series = { t_s: [], strokes: [], bucket_s: 0 };
    }
    const rests = restsOfSeries(series);
    const line = key => {
      const mean = series[key] ? series[key].mean : [];
      const points = [];
      series.t_s.forEach((t, b) => {
        const v = mean[b];
        if (v != null && (key !== 'split_s_per_500m' || v < 600)) points.push({ x: (t + series.bucket_s / 2) / 60, y: v });
      });
      return withBreaks(points, rests);
    };
    const splitData = line('split_s_per_500m');
    const rateData = line('rate_spm');
    // The split axis spans the rowing, not the paddle after a rest: up to the 90th percentile + 20 s.
    const splits = splitData.map(p => p.y).filter(v => v != null).sort((a, b) => a - b);
    const slowest = splits.length ? Math.min(600, splits[Math.floor(0.9 * (splits.length - 1))] + 20) : undefined;
    const fastest = splits.length ? Math.max(0, splits[0] - 5) : undefined;
    this.splitChart = plot(this.splitChart, $('split-chart'), splitData, '#00c8ff', rests,
      { reverse: true, min: fastest, max: slowest, format: v => v > 0 ? clock(v).replace(/\.0$/, '') : '' });
    this.rateChart = plot(this.rateChart, $('rate-chart'), rateData, '#ffd200', rests, { format: v => String(Math.round(v * 10) / 10) });
    $('split-panel').classList.toggle('disabled', splitData.length === 0);
    $('rate-panel').classList.toggle('disabled', rateData.length === 0);
    this.plotPoints = { split: splitData.filter(p => p.y != null).length, rate: rateData.filter(p => p.y != null).length };
    this.rests = rests;
  }

  showNotes() {
    const list = $('session-notes');
    list.replaceChildren();
    const notes = this.session.note_list || [];
    if (!notes.length) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = 'No notes.';
      list.appendChild(li);
    }
    for (const n of notes) {
      const li = document.createElement('li');
      li.innerHTML = `<span class="note-time">${clock(n.t_s)}</span> <span class="note-text"></span>`;
      li.querySelector('.note-text').textContent = n.text;
      list.appendChild(li);
    }
  }

  async addNote() {
    const text = $('session-note-text').value.trim();
    const at = parseClock($('session-note-at').value);
    if (!text) return;
    if (!(await ensurePaired())) return;
    const body = { text };
    if (at != null) body.t_s = at;
    try {
      await control('POST', `/api/sessions/${encodeURIComponent(this.id)}/notes`, body);
      $('session-note-text').value = '';
      $('session-note-at').value = '';
      await this.load(this.id);
    } catch (e) {
      $('session-error').textContent = 'Note not added: ' + e.message;
      $('session-error').hidden = false;
    }
  }
}

// A rest: no stroke for 10 s or more (a stop), from the end of the last bucket with a stroke to
// the start of the next, in minutes.
const REST_S = 10;
function restsOfSeries(series) {
  const rests = [];
  const n = series.t_s.length, w = series.bucket_s;
  let b = 0;
  while (b < n) {
    if (series.strokes[b] > 0) { b++; continue; }
    const first = b;
    while (b < n && series.strokes[b] === 0) b++;
    const before = first > 0, after = b < n;
    if (before && after && (b - first) * w >= REST_S) rests.push([series.t_s[first] / 60, series.t_s[b] / 60]);
  }
  return rests;
}

// The line is broken over each rest (a null point), so a rest is not drawn as rowing.
function withBreaks(points, rests) {
  const out = [];
  let r = 0;
  for (const p of points) {
    while (r < rests.length && rests[r][1] <= p.x) {
      if (out.length && out[out.length - 1].x <= rests[r][0]) out.push({ x: (rests[r][0] + rests[r][1]) / 2, y: null });
      r++;
    }
    out.push(p);
  }
  return out;
}

// Rests shaded behind the line.
const restShading = {
  id: 'rests',
  beforeDatasetsDraw(chart, args, options) {
    const { ctx, chartArea, scales: { x } } = chart;
    ctx.save();
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    for (const [a, b] of options.spans || []) {
      const x0 = Math.max(chartArea.left, x.getPixelForValue(a)), x1 = Math.min(chartArea.right, x.getPixelForValue(b));
      if (x1 > x0) ctx.fillRect(x0, chartArea.top, x1 - x0, chartArea.bottom - chartArea.top);
    }
    ctx.restore();
  },
};

function plot(chart, canvas, data, colour, rests, { reverse = false, min, max, format }) {
  if (chart) chart.destroy();
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [{ data, borderColor: colour, borderWidth: 1.5, pointRadius: 0, tension: 0, spanGaps: false }] },
    plugins: [restShading],
    options: {
      animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
      plugins: { legend: { display: false }, tooltip: { enabled: false }, rests: { spans: rests } },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'minutes', color: '#999' }, ticks: { color: '#bbb' }, grid: { color: '#333' } },
        y: { reverse, min, max, ticks: { color: '#bbb', maxTicksLimit: 5, callback: format }, grid: { color: '#333' } },
      },
    },
  });
}

// "12:30" or "1:02:03" or "95" (seconds) → seconds; empty → null (the session's end).
function parseClock(text) {
  const t = (text || '').trim();
  if (!t) return null;
  const parts = t.split(':').map(Number);
  if (parts.some(p => !isFinite(p))) return null;
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

function metresBetween(a, b) {
  const r = 6371008.8, rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

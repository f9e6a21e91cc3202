// A session's heart rates and the oar's figures, from the server's downsampled series (GET
// /api/sessions/{id}/series?fields=heart_rate,power,…: each bucket's mean): heart rate against
// time, one line per strap or seat, the zones shaded behind it when that rower has zones; power
// per stroke (the oarlock's, else the device's strokes'); the oarlock's catch and finish angles;
// its average and peak force. Each panel is made here, after the rate plot, and only when its
// data exist — the session page and the shared page (share.html) both use it.
import { el } from './dom.js';
import { seatLabel, bySeat } from './heart-rates.js';

const FIELDS = 'heart_rate,power,catch_angle,finish_angle,avg_force,max_force';
// Lines of the crew's seats: distinct, bright on black.
const SEAT_COLOURS = ['#ff4f45', '#ffd200', '#3fdc4f', '#5ab4ff', '#ff9dfc', '#ff9500', '#00e5d4', '#ffffff'];
// Zone shading, Z1 to Z5 (the live screen's zone colours, faint).
const ZONE_SHADES = ['rgba(184,184,184,0.16)', 'rgba(90,180,255,0.22)', 'rgba(63,220,79,0.22)', 'rgba(255,179,0,0.24)', 'rgba(255,79,69,0.26)'];

export class HeartPowerPlots {
  constructor() {
    this.charts = {};
    this.panels = {};
    const after = document.getElementById('rate-panel');
    let last = after;
    for (const [key, title, unit] of [['hr', 'Heart rate', 'bpm'], ['power', 'Power', 'W per stroke'],
      ['angle', 'Oar angles', '° catch and finish'], ['force', 'Oar force', 'N average and peak']]) {
      const panel = el('div', 'panel');
      panel.id = key + '-panel';
      panel.hidden = true;
      const head = el('div', 'panel-title', title + ' ');
      head.append(el('span', 'unit', unit), document.createTextNode(' '), el('span', 'unit plot-note'));
      const box = el('div', 'plot ' + key + '-plot');
      const canvas = el('canvas');
      canvas.id = key + '-chart';
      box.append(canvas);
      const legend = el('div', 'legend');
      legend.id = key + '-legend';
      panel.append(head, box, legend);
      last.after(panel);
      last = panel;
      this.panels[key] = panel;
    }
  }

  // SUMMARY (`show --json`): a session whose summary has neither heart rate nor power (both keys
  // there, both null) has none of these plots, and its records are not read for them.
  async load(id, summary) {
    if (summary && 'avg_heart_rate_bpm' in summary && 'avg_power_w' in summary
        && summary.avg_heart_rate_bpm == null && summary.avg_power_w == null) {
      this.series = null;
      this.draw();
      return;
    }
    try {
      this.series = await fetch(`/api/sessions/${encodeURIComponent(id)}/series?fields=${FIELDS}&points=600`, { cache: 'no-store' })
        .then(r => r.ok ? r.json() : Promise.reject(new Error(r.status)));
    } catch (e) {
      this.series = null;
    }
    this.draw();
  }

  // Each bucket's middle, in minutes, with the mean of `values` there.
  line(values) {
    const s = this.series, out = [];
    const mean = values ? values.mean : [];
    s.t_s.forEach((t, b) => { if (mean[b] != null) out.push({ x: (t + s.bucket_s / 2) / 60, y: mean[b] }); });
    return out;
  }

  draw() {
    const s = this.series;
    const hr = s && Array.isArray(s.heart_rate_bpm) ? s.heart_rate_bpm.filter(h => h.samples > 0).sort(bySeat) : [];
    this.show('hr', hr.map((h, i) => ({ label: seatLabel(h.sensor), data: this.line(h), colour: SEAT_COLOURS[i % SEAT_COLOURS.length] })),
      { zones: this.zoneBands(hr) });
    const power = s && s.power_w && s.power_w.samples > 0 ? [{ label: 'Power', data: this.line(s.power_w), colour: '#ffd200' }] : [];
    this.show('power', power, { note: s && s.power_w && s.power_w.source === 'oarlock' ? 'the oarlock' : 'the device' });
    const pair = (a, b, la, lb) => [[a, la, '#5ab4ff'], [b, lb, '#ff9500']].filter(([v]) => v && v.samples > 0)
      .map(([v, label, colour]) => ({ label, data: this.line(v), colour }));
    this.show('angle', s ? pair(s.catch_angle_deg, s.finish_angle_deg, 'Catch', 'Finish') : []);
    this.show('force', s ? pair(s.avg_force_n, s.max_force_n, 'Average', 'Peak') : []);
  }

  // The zones of the first seat that has them (stroke first), as [from, to, zone] in bpm.
  zoneBands(hr) {
    const withZones = hr.find(h => Array.isArray(h.zone_floors_bpm));
    if (!withZones) return null;
    const floors = withZones.zone_floors_bpm;
    const edges = [0, ...floors, 400];
    return { who: seatLabel(withZones.sensor), bands: edges.slice(0, -1).map((from, i) => [from, edges[i + 1], i]) };
  }

  // A panel shown with its lines, or hidden when there are none (a session without the data).
  show(key, lines, { zones = null, note = '' } = {}) {
    const panel = this.panels[key];
    panel.hidden = lines.length === 0;
    if (this.charts[key]) { this.charts[key].destroy(); delete this.charts[key]; }
    const legend = document.getElementById(key + '-legend');
    legend.replaceChildren();
    panel.querySelector('.plot-note').textContent = zones ? `· zones of ${zones.who}` : key === 'power' && lines.length ? `· from ${note}` : '';
    if (!lines.length) return;
    if (lines.length > 1) {
      for (const l of lines) {
        const step = el('span', 'step');
        const swatch = el('span', 'swatch');
        swatch.style.background = l.colour;
        step.append(swatch, document.createTextNode(l.label));
        legend.append(step);
      }
    }
    const { min, max, step } = niceAxis(lines.flatMap(l => l.data.map(p => p.y)));
    this.charts[key] = new Chart(document.getElementById(key + '-chart'), {
      type: 'line',
      data: { datasets: lines.map(l => ({ label: l.label, data: l.data, borderColor: l.colour, borderWidth: 1.5, pointRadius: 0, tension: 0 })) },
      plugins: [zoneShading],
      options: {
        animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
        plugins: { legend: { display: false }, tooltip: { enabled: false }, zoneShading: { zones } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'minutes', color: '#999' }, ticks: { color: '#bbb' }, grid: { color: '#333' } },
          y: { min, max, ticks: { color: '#bbb', stepSize: step }, grid: { color: '#333' } },
        },
      },
    });
  }

  // What the tests read: each plot's lines, their labels and points.
  get plotted() {
    const out = {};
    for (const [key, chart] of Object.entries(this.charts)) {
      out[key] = chart.data.datasets.map(d => ({ label: d.label, points: d.data.map(p => [p.x, p.y]) }));
    }
    return out;
  }
}

// An axis from and to round figures with four or five steps of 1, 2 or 5 × 10ⁿ over the values.
function niceAxis(values) {
  const low = Math.min(...values), high = Math.max(...values);
  const rough = Math.max(high - low, 1) / 4, power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map(m => m * power).find(s => s >= rough);
  let min = Math.floor(low / step) * step, max = Math.ceil(high / step) * step;
  if (max === min) { min -= step; max += step; }
  return { min, max, step };
}

// The heart-rate zones shaded behind the lines, Z1 to Z5.
const zoneShading = {
  id: 'zoneShading',
  beforeDatasetsDraw(chart, args, options) {
    if (!options.zones) return;
    const { ctx, chartArea, scales: { y } } = chart;
    ctx.save();
    for (const [from, to, zone] of options.zones.bands) {
      const top = Math.max(chartArea.top, y.getPixelForValue(to)), bottom = Math.min(chartArea.bottom, y.getPixelForValue(from));
      if (bottom <= top) continue;
      ctx.fillStyle = ZONE_SHADES[zone];
      ctx.fillRect(chartArea.left, top, chartArea.right - chartArea.left, bottom - top);
      if (bottom - top >= 12) {
        ctx.fillStyle = 'rgba(255,255,255,0.55)';
        ctx.font = 'bold 11px sans-serif';
        ctx.fillText('Z' + (zone + 1), chartArea.right - 20, bottom - 3);
      }
    }
    ctx.restore();
  },
};

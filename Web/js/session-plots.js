// Split and stroke rate of a stored session against time or against distance, from the
// server's downsampled series (GET /api/sessions/{id}/series: each bucket's mean; a 10-hour
// session is a few tens of kB). Rests are shaded and the line is broken over them, the notes are
// marked on the axis, and a plot with no data is shown disabled, never as zeros. A session that
// stores the boat's fused speed gets its split per stroke from it, and the split within the
// strokes (`boat_speed`: each bucket's fastest and slowest moment) as a faint band behind the line.
import { clock } from './metrics.js';

const $ = id => document.getElementById(id);

// A rest: no stroke for 10 s or more (a stop).
const REST_S = 10;

export class SessionPlots {
  constructor() {
    this.against = 'time';
    $('plots-against').onchange = e => { this.against = e.target.value; this.draw(); };
  }

  async load(id, notes) {
    this.notes = notes;
    try {
      this.series = await fetch(`/api/sessions/${encodeURIComponent(id)}/series?fields=split,rate,distance,boat_speed&points=600`, { cache: 'no-store' })
        .then(r => r.ok ? r.json() : Promise.reject(new Error(r.status)));
    } catch (e) {
      this.series = { t_s: [], strokes: [], bucket_s: 0 };
    }
    this.draw();
  }

  // The x of a bucket: its middle in minutes, or its mean distance in km.
  x(b) {
    const s = this.series;
    if (this.against === 'distance') {
      const d = s.distance_m ? s.distance_m.mean[b] : null;
      return d == null ? null : d / 1000;
    }
    return (s.t_s[b] + s.bucket_s / 2) / 60;
  }

  // The x of a session time: minutes, or the distance rowed by then (the bucket's) in km.
  xAtTime(t) {
    const s = this.series;
    if (this.against !== 'distance') return t / 60;
    const dist = s.distance_m ? s.distance_m.mean : [];
    let x = null;
    for (let b = 0; b < s.t_s.length && s.t_s[b] <= t; b++) if (dist[b] != null) x = dist[b] / 1000;
    return x;
  }

  draw() {
    const s = this.series;
    if (!s) return;
    const rests = this.rests();
    const line = key => {
      const mean = s[key] ? s[key].mean : [];
      const points = [];
      s.t_s.forEach((t, b) => {
        const v = mean[b], x = this.x(b);
        if (v != null && x != null && (key !== 'split_s_per_500m' || v < 600)) points.push({ x, y: v });
      });
      return withBreaks(points, rests);
    };
    const splitData = line('split_s_per_500m');
    const rateData = line('rate_spm');
    const band = this.inStrokeBand(rests);
    // The split axis spans the rowing, not the paddle after a rest: up to the 90th percentile + 20 s.
    const splits = splitData.map(p => p.y).filter(v => v != null).sort((a, b) => a - b);
    let slowest = splits.length ? Math.min(600, splits[Math.floor(0.9 * (splits.length - 1))] + 20) : undefined;
    let fastest = splits.length ? Math.max(0, splits[0] - 5) : undefined;
    if (band && splits.length) {
      // The axis is the strokes' splits, widened by the band only a little (a quarter of the
      // splits' own range each way): a stroke's fastest moment can be a minute faster than its
      // split, and an axis that took it all in squeezed the line a cox reads into a sliver. The
      // band beyond is clipped at the plot's edge.
      const fast = band[0].map(p => p.y).filter(v => v != null), slow = band[1].map(p => p.y).filter(v => v != null).sort((a, b) => a - b);
      const margin = Math.max(5, 0.25 * (slowest - fastest));
      if (fast.length) fastest = Math.max(0, fastest - margin, Math.min(fastest, Math.min(...fast) - 2));
      if (slow.length) slowest = Math.min(600, slowest + margin, Math.max(slowest, slow[Math.floor(0.9 * (slow.length - 1))] + 5));
    }
    const marks = (this.notes || []).map(n => ({ x: this.xAtTime(n.t_s), text: n.text })).filter(m => m.x != null);
    const xTitle = this.against === 'distance' ? 'km' : 'minutes';
    this.splitChart = plot(this.splitChart, $('split-chart'), splitData, '#00c8ff', rests, marks, xTitle,
      { reverse: true, min: fastest, max: slowest, format: v => v > 0 ? clock(v).replace(/\.0$/, '') : '', band });
    this.rateChart = plot(this.rateChart, $('rate-chart'), rateData, '#ffd200', rests, marks, xTitle,
      { format: v => String(Math.round(v * 10) / 10) });
    $('split-panel').classList.toggle('disabled', splitData.length === 0);
    $('rate-panel').classList.toggle('disabled', rateData.length === 0);
    this.plotPoints = { split: splitData.filter(p => p.y != null).length, rate: rateData.filter(p => p.y != null).length };
    this.restSpans = rests;
    this.noteMarks = marks.length;
  }

  // The split within the strokes from the stored fused speed: per bucket the split of its fastest
  // and of its slowest moment (two lines, filled between); none when the session stores none.
  inStrokeBand(rests) {
    const s = this.series, v = s.boat_speed_mps;
    if (!v || !v.samples) return null;
    const edge = key => withBreaks(s.t_s.flatMap((t, b) => {
      const speed = v[key][b], x = this.x(b);
      return speed > 0 && x != null && 500 / speed < 600 ? [{ x, y: 500 / speed }] : [];
    }), rests);
    return [edge('max'), edge('min')];
  }

  // Runs of buckets without a stroke lasting REST_S or more, between buckets with strokes, as
  // [from, to] on the x axis (the end of the rowing before, the start of the rowing after).
  rests() {
    const s = this.series, out = [];
    const n = s.t_s.length, w = s.bucket_s;
    let b = 0;
    while (b < n) {
      if (s.strokes[b] > 0) { b++; continue; }
      const first = b;
      while (b < n && s.strokes[b] === 0) b++;
      if (first > 0 && b < n && (b - first) * w >= REST_S) {
        if (this.against === 'distance') {
          const a = this.x(first - 1), c = this.x(b);
          if (a != null && c != null) out.push([a, Math.max(a, c)]);
        } else {
          out.push([s.t_s[first] / 60, s.t_s[b] / 60]);
        }
      }
    }
    return out;
  }
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

// Rests shaded behind the line; notes as yellow ticks along the top with a thin line down.
const marks = {
  id: 'marks',
  beforeDatasetsDraw(chart, args, options) {
    const { ctx, chartArea, scales: { x } } = chart;
    ctx.save();
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    for (const [a, b] of options.rests || []) {
      const x0 = Math.max(chartArea.left, x.getPixelForValue(a)), x1 = Math.min(chartArea.right, x.getPixelForValue(b));
      if (x1 > x0) ctx.fillRect(x0, chartArea.top, x1 - x0, chartArea.bottom - chartArea.top);
    }
    ctx.strokeStyle = 'rgba(255, 210, 0, 0.6)';
    ctx.fillStyle = '#ffd200';
    for (const m of options.notes || []) {
      const px = x.getPixelForValue(m.x);
      if (px < chartArea.left || px > chartArea.right) continue;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(px - 5, chartArea.top);
      ctx.lineTo(px + 5, chartArea.top);
      ctx.lineTo(px, chartArea.top + 7);
      ctx.fill();
    }
    ctx.restore();
  },
};

function plot(chart, canvas, data, colour, rests, notes, xTitle, { reverse = false, min, max, format, band = null }) {
  if (chart) chart.destroy();
  const datasets = [{ data, borderColor: colour, borderWidth: 1.5, pointRadius: 0, tension: 0, spanGaps: false }];
  if (band) {
    const edge = (points, fill) => ({ data: points, borderColor: 'rgba(0, 200, 255, 0.25)', borderWidth: 0.5, pointRadius: 0,
      tension: 0, spanGaps: false, fill, backgroundColor: 'rgba(0, 200, 255, 0.12)' });
    datasets.push(edge(band[0], false), edge(band[1], '-1'));
  }
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [marks],
    options: {
      animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
      plugins: { legend: { display: false }, tooltip: { enabled: false }, marks: { rests, notes } },
      scales: {
        x: { type: 'linear', title: { display: true, text: xTitle, color: '#999' }, ticks: { color: '#bbb' }, grid: { color: '#333' } },
        y: { reverse, min, max, ticks: { color: '#bbb', maxTicksLimit: 5, callback: format }, grid: { color: '#333' } },
      },
    },
  });
}

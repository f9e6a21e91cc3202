// The boat's acceleration through a stroke (the seed app's acceleration plot): the average
// stroke of the chosen piece, its spread (± one standard deviation, shaded) and the finish (the
// end of the mean drive); ‹ and › step through the piece's single strokes, drawn over the
// average (GET /api/sessions/{id}/curve?piece=K and ?stroke=N). Under it, the stroke quality
// from the stroke list: the drive : recovery ratio, the check and the boat-speed fluctuation, of
// the stroke shown or averaged over the piece. Without accelerometer data the plot is shown disabled.
import { clock } from './metrics.js';
import { el, legendStep } from './dom.js';

const $ = id => document.getElementById(id);

export class StrokeCurve {
  constructor() {
    $('curve-prev').onclick = () => this.step(-1);
    $('curve-next').onclick = () => this.step(1);
  }

  // `strokes`: the session's stroke list (`oarlog show --json --strokes`).
  async show(id, piece, strokes) {
    this.id = id;
    this.strokes = strokes;
    this.piece = piece;
    this.stroke = null;  // null: the piece's average alone
    this.single = null;
    this.average = null;
    if (!piece) {
      this.render();
      return;
    }
    this.average = await this.fetch(`piece=${piece.piece}`);
    this.render();
  }

  async fetch(query) {
    try {
      const r = await fetch(`/api/sessions/${encodeURIComponent(this.id)}/curve?${query}`, { cache: 'no-store' });
      return r.ok ? await r.json() : null;
    } catch (e) {
      return null;
    }
  }

  // One stroke on or back within the piece; past either end, the average alone again.
  async step(by) {
    const p = this.piece;
    if (!p || p.first_stroke == null) return;
    let n = this.stroke == null ? (by > 0 ? p.first_stroke : p.last_stroke) : this.stroke + by;
    if (n < p.first_stroke || n > p.last_stroke) { this.stroke = null; this.single = null; this.render(); return; }
    this.stroke = n;
    this.single = await this.fetch(`stroke=${n}`);
    this.render();
  }

  // The stroke's own figures from the session's stroke list: at what time, its rate and drive.
  strokeFigures(n) {
    const k = (this.strokes || [])[n];  // n: the position in the stroke list, as the API counts
    if (!k) return '';
    const parts = [clock(k.t_s)];
    if (k.rate_spm != null) parts.push(`${k.rate_spm.toFixed(1)} spm`);
    if (k.drive_s != null) parts.push(`drive ${k.drive_s.toFixed(2)} s`);
    return '\n' + parts.join(' · ');
  }

  // Stroke quality of the stroke list's strokes `from`…`to` (their means): figures with their
  // labels, large enough to read in a boat in sunlight.
  quality(from, to) {
    const list = (this.strokes || []).slice(from, to + 1);
    const mean = key => {
      const v = list.map(k => k[key]).filter(x => x != null);
      return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
    };
    const ratio = mean('drive_recovery_ratio'), check = mean('check_mps2');
    const pct = mean('speed_fluctuation_pct'), mps = mean('speed_fluctuation_mps');
    const parts = [];
    if (ratio > 0) parts.push({ key: 'ratio', label: 'drive : recovery', value: `1 : ${(1 / ratio).toFixed(1)}` });
    if (check != null) parts.push({ key: 'check', label: 'check', value: check.toFixed(1), unit: 'm/s²' });
    if (pct != null) parts.push({ key: 'swing', label: 'speed swing', value: pct.toFixed(0), unit: '%' });
    else if (mps != null) parts.push({ key: 'swing', label: 'speed swing', value: mps.toFixed(2), unit: 'm/s' });
    return parts;
  }

  render() {
    const a = this.average, s = this.single, p = this.piece;
    const has = a && a.strokes > 0;
    $('curve-panel').classList.toggle('disabled', !has);
    $('curve-title').textContent = !p ? '—'
      : !has ? `${p.label}: no accelerometer data`
      : this.stroke == null ? `${p.label}: average of ${a.strokes} strokes`
      : `${p.label}: stroke ${this.stroke - p.first_stroke + 1} of ${p.strokes}` + this.strokeFigures(this.stroke);
    const at = c => c.t_s.map((t, i) => ({ x: t, y: c.mps2[i] })).filter(q => q.x != null && q.y != null);
    const datasets = [];
    if (has) {
      const band = sign => a.t_s.map((t, i) => ({ x: t, y: a.mps2[i] == null ? null : a.mps2[i] + sign * a.sd_mps2[i] }));
      datasets.push({ data: band(1), borderWidth: 0, pointRadius: 0, fill: '+1', backgroundColor: 'rgba(0, 200, 255, 0.18)' });
      datasets.push({ data: band(-1), borderWidth: 0, pointRadius: 0, fill: false });
      datasets.push({ data: at(a), borderColor: '#00c8ff', borderWidth: 2.5, pointRadius: 0, fill: false });
    }
    if (s && s.strokes > 0) datasets.push({ data: at(s), borderColor: '#ffffff', borderWidth: 1.5, pointRadius: 0, fill: false });
    this.plotted = { average: has ? at(a).length : 0, single: s && s.strokes > 0 ? at(s).length : 0 };
    if (this.chart) this.chart.destroy();
    const finish = has ? a.drive_s : null;
    this.chart = new Chart($('curve-chart'), {
      type: 'line',
      data: { datasets },
      plugins: [finishLine],
      options: {
        animation: false, maintainAspectRatio: false, parsing: false,
        plugins: { legend: { display: false }, tooltip: { enabled: false }, finish: { at: finish } },
        scales: {
          x: { type: 'linear', min: 0, title: { display: true, text: 's from the catch', color: '#999' }, ticks: { color: '#bbb' }, grid: { color: '#333' } },
          y: { ticks: { color: '#bbb', maxTicksLimit: 6 }, grid: { color: c => c.tick.value === 0 ? '#777' : '#333' } },
        },
      },
    });
    // Built as elements, the figures as text (they come from the server).
    $('curve-legend').replaceChildren(...(has
      ? [legendStep('#00c8ff', 'average'), legendStep('rgba(0,200,255,0.35)', '± 1 SD'),
        ...(s && s.strokes > 0 ? [legendStep('#fff', 'this stroke')] : []),
        el('span', 'step', `drive ${Number(a.drive_s).toFixed(2)} s of ${Number(a.stroke_s).toFixed(2)} s`)]
      : []));
    $('curve-quality').replaceChildren(...(has
      ? this.quality(this.stroke ?? p.first_stroke, this.stroke ?? p.last_stroke).map(q => {
        const figure = el('div', 'quality-figure');
        figure.dataset.key = q.key;
        figure.append(el('span', 'value', q.value));
        if (q.unit) figure.append(el('span', 'unit', ' ' + q.unit));
        figure.append(el('span', 'label', q.label));
        return figure;
      })
      : []));
  }
}

// The finish: the end of the mean drive, a dashed line.
const finishLine = {
  id: 'finish',
  afterDatasetsDraw(chart, args, options) {
    if (options.at == null) return;
    const { ctx, chartArea, scales: { x } } = chart;
    const px = x.getPixelForValue(options.at);
    ctx.save();
    ctx.strokeStyle = '#ffd200';
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    ctx.moveTo(px, chartArea.top);
    ctx.lineTo(px, chartArea.bottom);
    ctx.stroke();
    ctx.restore();
  },
};

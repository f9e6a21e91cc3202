// Personal bests (#bests): the fastest 500 m to 6,000 m and the most distance in 1, 20 and 30
// minutes over every session (GET /api/bests?unreadable=1: `oarlog bests --json`, and the
// sessions that could not be read), one row per event — tap a row for the session, ▶ plays it
// back from where the best began — and the season's progression of one event at a time: each
// session that set a new best, against its date (tap a point for that session). "—" for an
// event no session has; sessions that could not be read are named.
import { getJSON } from './api.js';
import { clock, split, NO_DATA } from './metrics.js';

const $ = id => document.getElementById(id);

// An event's name, as `oarlog bests` gives it: "2,000 m", "20 min".
export function eventName(e) {
  return e.distance_m != null ? e.distance_m.toLocaleString('en') + ' m' : Math.round(e.duration_s / 60) + ' min';
}

// What a best is: a time over a distance, metres in a time (whole metres, grouped as the
// events are: "5,312 m").
const isDistance = e => e.distance_m != null;
const wholeMetres = v => v == null || !isFinite(v) ? NO_DATA : Math.round(v).toLocaleString('en') + ' m';
export const bestText = (e, r) => isDistance(e) ? clock(r.time_s) : wholeMetres(r.metres);
const value = (e, r) => isDistance(e) ? r.time_s : r.metres;
const day = utc => utc ? utc.slice(0, 10) : NO_DATA;
const DAY_MS = 86400e3;
// A clock without the tenths for an axis: "7:05", "1:45".
const axisClock = v => clock(v).replace(/\.\d$/, '');
const shortDate = ms => new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export class BestsPage {
  constructor() {
    this.events = [];
    this.unreadable = [];
    this.shown = null;  // the event whose progression is plotted (its name)
    this.loaded = false;
  }

  async load() {
    this.loaded = false;
    $('bests-error').hidden = true;
    let answer;
    try {
      answer = await getJSON('/api/bests?unreadable=1');
    } catch (e) {
      $('bests-error').textContent = 'The bests could not be read: ' + e.message;
      $('bests-error').hidden = false;
      this.loaded = true;
      return;
    }
    this.events = answer.bests;
    this.unreadable = answer.unreadable;
    this.render();
    this.loaded = true;
  }

  render() {
    const any = this.events.some(e => e.session != null);
    $('bests-empty').hidden = any;
    $('bests-grid').hidden = !any;
    this.renderUnreadable();
    this.renderTable();
    if (any) this.renderProgression();
    else this.plot(null);
  }

  renderUnreadable() {
    const n = this.unreadable.length;
    $('bests-unreadable').hidden = n === 0;
    $('bests-unreadable-title').textContent = n === 1 ? '1 session could not be read:' : `${n} sessions could not be read:`;
    const list = $('bests-unreadable-list');
    list.replaceChildren();
    for (const u of this.unreadable) {
      const li = document.createElement('li');
      li.innerHTML = '<span class="bests-unreadable-id"></span> <span class="bests-unreadable-reason"></span>';
      li.querySelector('.bests-unreadable-id').textContent = u.id;
      li.querySelector('.bests-unreadable-reason').textContent = u.reason;
      list.appendChild(li);
    }
  }

  // One row per event: its name, the best, the split, the date (a link to the session) and ▶
  // where in the session the best began (playback from there). The raw values in data-value.
  renderTable() {
    const body = $('bests-table').tBodies[0];
    body.replaceChildren();
    for (const e of this.events) {
      const tr = document.createElement('tr');
      const has = e.session != null;
      tr.innerHTML = '<th class="event"></th><td class="best"></td><td class="split"></td><td class="date"></td><td class="at"></td>';
      tr.querySelector('.event').textContent = eventName(e);
      const cell = (name, text, raw) => {
        const td = tr.querySelector('.' + name);
        td.textContent = text;
        td.dataset.value = raw == null ? '' : String(raw);
        return td;
      };
      cell('best', has ? bestText(e, e) : NO_DATA, has ? value(e, e) : null);
      cell('split', has ? split(e.split_s_per_500m) : NO_DATA, e.split_s_per_500m);
      const date = cell('date', '', e.date_utc);
      const at = cell('at', '', e.start_s);
      if (has) {
        const href = '#session/' + encodeURIComponent(e.session);
        tr.dataset.session = e.session;
        tr.classList.add('has-best');
        tr.onclick = () => { location.hash = href; };
        const a = document.createElement('a');
        a.href = href;
        a.textContent = day(e.date_utc);
        date.appendChild(a);
        const play = document.createElement('a');
        play.className = 'bests-play';
        play.href = `#play/${encodeURIComponent(e.session)}?at=${e.start_s}`;
        play.textContent = '▶ ' + clock(e.start_s);
        play.title = 'play the session back from where this best began';
        play.onclick = ev => ev.stopPropagation();
        at.appendChild(play);
      } else {
        date.textContent = NO_DATA;
        at.textContent = NO_DATA;
      }
      body.appendChild(tr);
    }
  }

  // A button per event with a progression; the plot of the one picked (2,000 m first, when it is there).
  renderProgression() {
    const withData = this.events.filter(e => (e.progression || []).length > 0);
    if (!withData.some(e => eventName(e) === this.shown)) {
      const first = withData.find(e => e.distance_m === 2000) || withData[0];
      this.shown = first ? eventName(first) : null;
    }
    const buttons = $('bests-events');
    buttons.replaceChildren();
    for (const e of withData) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = eventName(e);
      b.classList.toggle('selected', eventName(e) === this.shown);
      b.setAttribute('aria-pressed', String(eventName(e) === this.shown));
      b.onclick = () => { this.shown = eventName(e); this.renderProgression(); };
      buttons.appendChild(b);
    }
    this.plot(withData.find(e => eventName(e) === this.shown));
  }

  // Each new best against its date, held (a flat line) until the next; a time falls as the
  // rower gets faster, metres in a time rise. Tap a point: that session's page.
  plot(event) {
    if (this.chart) { this.chart.destroy(); this.chart = null; }
    if (!event) return;
    const progression = event.progression;
    const points = progression.map(r => ({ x: Date.parse(r.date_utc), y: value(event, r), session: r.session }));
    const distance = isDistance(event);
    $('bests-progression-title').textContent = distance
      ? `${eventName(event)}: best time, lower is faster` : `${eventName(event)}: most metres, higher is further`;
    $('bests-progression-note').textContent = progression.length === 1
      ? 'One session so far: each new best adds a point.'
      : `${progression.length} sessions set a new best. Tap a point for its session.`;
    const xs = points.map(p => p.x);
    const xPad = Math.max(DAY_MS, (Math.max(...xs) - Math.min(...xs)) * 0.08);
    const y = yAxis(points.map(p => p.y), distance);
    const format = distance ? axisClock : wholeMetres;
    this.chart = new Chart($('bests-chart'), {
      type: 'line',
      data: { datasets: [{
        data: points, borderColor: '#ffd200', borderWidth: 3, stepped: 'before',
        pointRadius: 7, pointHoverRadius: 9, pointHitRadius: 22, pointBackgroundColor: '#ffd200', pointBorderColor: '#000', pointBorderWidth: 2,
      }] },
      plugins: [valueLabels],
      options: {
        animation: false, maintainAspectRatio: false, parsing: false,
        layout: { padding: { top: 4, right: 12 } },
        plugins: { legend: { display: false }, tooltip: { enabled: false }, valueLabels: { format: distance ? clock : format, below: distance } },
        interaction: { mode: 'nearest', intersect: true },
        onClick: (evt, elements) => {
          if (elements.length) location.hash = '#session/' + encodeURIComponent(points[elements[0].index].session);
        },
        onHover: (evt, elements) => { evt.native.target.style.cursor = elements.length ? 'pointer' : 'default'; },
        scales: {
          x: {
            type: 'linear', min: Math.min(...xs) - xPad, max: Math.max(...xs) + xPad,
            // A tick at each new best's date (those that fit).
            afterBuildTicks: axis => { axis.ticks = xs.map(value => ({ value })); },
            ticks: { color: '#ddd', font: { size: 13 }, maxRotation: 0, autoSkip: true, callback: shortDate },
            grid: { color: '#333' },
          },
          y: {
            min: y.min, max: y.max,
            ticks: { color: '#ddd', font: { size: 13 }, stepSize: y.step, callback: format },
            grid: { color: '#333' },
          },
        },
      },
    });
    this.points = points;
  }

  resized() {
    if (this.chart) this.chart.resize();
  }
}

// Each point's value written beside it (a few points at most: a season's new bests), so the
// figure is read without a tap: left of the point, on the side away from the level before it
// (below for a time that fell, above for metres that rose), where the stepped line is not.
const valueLabels = {
  id: 'valueLabels',
  afterDatasetsDraw(chart, args, options) {
    const { ctx, chartArea } = chart;
    const meta = chart.getDatasetMeta(0);
    const data = chart.data.datasets[0].data;
    if (data.length > 12) return;
    ctx.save();
    ctx.font = 'bold 14px "DejaVu Sans", sans-serif';
    ctx.fillStyle = '#fff';
    ctx.textAlign = 'left';
    ctx.textBaseline = options.below ? 'top' : 'bottom';
    meta.data.forEach((el, i) => {
      const text = options.format(data[i].y);
      const w = ctx.measureText(text).width;
      const x = Math.min(Math.max(el.x - 8 - w, chartArea.left + 2), chartArea.right - w);
      ctx.fillText(text, x, options.below ? el.y + 9 : el.y - 9);
    });
    ctx.restore();
  },
};

// The value axis: steps of a round number of seconds (or metres), about four of them, with
// room beyond the points for their labels.
function yAxis(values, distance) {
  const lo = Math.min(...values), hi = Math.max(...values);
  const steps = distance ? [1, 2, 5, 10, 15, 30, 60, 120, 300, 600] : [5, 10, 20, 50, 100, 200, 500, 1000, 2000];
  const pad = Math.max((hi - lo) * 0.25, distance ? 2 : 10);
  const step = steps.find(s => (hi - lo + 2 * pad) / s <= 5) || steps[steps.length - 1];
  return { min: Math.max(0, Math.floor((lo - pad) / step) * step), max: Math.ceil((hi + pad) / step) * step, step };
}

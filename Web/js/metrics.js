// One table of metrics: key, label, unit, how it is formatted, and when there is no data.
// The live tiles, the summary after Stop and the race list all format through it, so "—"
// means the same everywhere: the sensor gave no data (never zero, never lost data).
export const NO_DATA = '—';

export function clock(seconds) {
  if (seconds == null || !isFinite(seconds)) return NO_DATA;
  const tenths = Math.round(seconds * 10);
  const h = Math.floor(tenths / 36000), m = Math.floor(tenths / 600) % 60;
  const s = Math.floor(tenths / 10) % 60, t = tenths % 10;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}.${t}`;
}

export function split(seconds) {
  if (seconds == null || !isFinite(seconds) || seconds <= 0 || seconds > 3600) return NO_DATA;
  return clock(seconds);
}

function fixed(places) {
  return v => (v == null || !isFinite(v)) ? NO_DATA : Number(v).toFixed(places);
}

export function metres(v) {
  if (v == null || !isFinite(v)) return NO_DATA;
  return v >= 10000 ? (v / 1000).toFixed(2) + ' km' : Math.round(v) + ' m';
}

// key: the status/summary JSON key; label; unit shown under the figure.
export const METRICS = [
  { key: 'stroke_rate_spm', summaryKey: 'avg_stroke_rate_spm', label: 'Rate', unit: 'spm', format: fixed(1) },
  { key: 'split_s_per_500m', summaryKey: 'avg_split_s_per_500m', label: 'Split', unit: '/500m', format: split },
  { key: 'strokes', summaryKey: 'strokes', label: 'Strokes', unit: '', format: v => v == null ? NO_DATA : String(v) },
  { key: 'elapsed_s', summaryKey: 'elapsed_s', label: 'Elapsed', unit: '', format: clock },
  { key: 'distance_m', summaryKey: 'distance_m', label: 'Distance', unit: '', format: metres },
  { key: 'distance_per_stroke_m', summaryKey: 'distance_per_stroke_m', label: 'Dist/stroke', unit: 'm', format: fixed(1) },
  { key: 'last_note', summaryKey: null, label: 'Last note', unit: '', format: v => v ? v : NO_DATA, wide: true },
];

// Fills TABLE with the summary rows of SUMMARY (show --json's keys): "—" where a value is
// null; the raw value in each cell's data-value (for tests and tools).
export function fillSummary(table, summary) {
  table.replaceChildren();
  for (const [label, key, format] of SUMMARY_ROWS) {
    const tr = document.createElement('tr');
    const v = summary[key];
    const th = document.createElement('th'), td = document.createElement('td');
    th.textContent = label;
    td.dataset.key = key;
    td.textContent = v == null ? NO_DATA : format(v);
    td.dataset.value = v == null ? '' : String(v);
    tr.append(th, td);
    table.appendChild(tr);
  }
}

// The summary table after Stop and on a session's page: the rows of `oarlog show`.
export const SUMMARY_ROWS = [
  ['Elapsed', 'elapsed_s', clock],
  ['Distance', 'distance_m', metres],
  ['Strokes', 'strokes', v => v == null ? NO_DATA : String(v)],
  ['Avg stroke rate', 'avg_stroke_rate_spm', v => v == null ? NO_DATA : Number(v).toFixed(1) + ' spm'],
  ['Max stroke rate', 'max_stroke_rate_spm', v => v == null ? NO_DATA : Number(v).toFixed(1) + ' spm'],
  ['Avg split', 'avg_split_s_per_500m', v => split(v) === NO_DATA ? NO_DATA : split(v) + ' /500m'],
  ['Best split', 'best_split_s_per_500m', v => split(v) === NO_DATA ? NO_DATA : split(v) + ' /500m'],
  ['Distance/stroke', 'distance_per_stroke_m', v => v == null ? NO_DATA : Number(v).toFixed(1) + ' m'],
  ['GPS fixes', 'gps_fixes', v => v ? String(v) : NO_DATA],
  ['Accelerometer', 'accel_samples', v => v ? v + ' samples' : NO_DATA],
  ['Notes', 'notes', v => v == null ? NO_DATA : String(v)],
];

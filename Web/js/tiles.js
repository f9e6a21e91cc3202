// The live tiles: big figures readable at arm's length. The cox can hide and reorder them
// before the start; the choice is kept on this phone.
import { METRICS, NO_DATA } from './metrics.js';

const ORDER_KEY = 'oarlog.tiles';

function savedLayout() {
  try {
    const saved = JSON.parse(localStorage.getItem(ORDER_KEY));
    if (Array.isArray(saved)) {
      const known = saved.filter(t => METRICS.some(m => m.key === t.key));
      const missing = METRICS.filter(m => !known.some(t => t.key === m.key)).map(m => ({ key: m.key, shown: true }));
      return known.concat(missing);
    }
  } catch (e) { /* nothing saved */ }
  return METRICS.map(m => ({ key: m.key, shown: true }));
}

export class Tiles {
  constructor(container, settingsList) {
    this.container = container;
    this.settingsList = settingsList;
    this.layout = savedLayout();
    this.values = {};
    this.render();
    // A phone turned on its side, or the grid laid out anew, changes the tiles' width: fit the
    // figures again.
    new ResizeObserver(() => this.fitAll()).observe(this.container);
  }

  metric(key) { return METRICS.find(m => m.key === key); }

  render() {
    this.container.replaceChildren();
    for (const item of this.layout) {
      if (!item.shown) continue;
      const m = this.metric(item.key);
      const tile = document.createElement('div');
      tile.className = 'tile' + (m.wide ? ' wide' : '');
      tile.id = 'tile-' + m.key;
      tile.innerHTML = `<div class="label">${m.label}</div><div class="value">${NO_DATA}</div><div class="unit">${m.unit}</div>`;
      this.container.appendChild(tile);
    }
    this.renderSettings();
    this.show(this.values);
  }

  renderSettings() {
    this.settingsList.replaceChildren();
    this.layout.forEach((item, i) => {
      const m = this.metric(item.key);
      const li = document.createElement('li');
      li.innerHTML = `<label><input type="checkbox" ${item.shown ? 'checked' : ''}> ${m.label}</label>
        <button class="small" aria-label="move ${m.label} up">▲</button><button class="small" aria-label="move ${m.label} down">▼</button>`;
      const [box, up, down] = li.querySelectorAll('input, button');
      box.onchange = () => { item.shown = box.checked; this.save(); };
      up.onclick = () => this.move(i, -1);
      down.onclick = () => this.move(i, 1);
      this.settingsList.appendChild(li);
    });
  }

  move(i, by) {
    const j = i + by;
    if (j < 0 || j >= this.layout.length) return;
    [this.layout[i], this.layout[j]] = [this.layout[j], this.layout[i]];
    this.save();
  }

  save() {
    localStorage.setItem(ORDER_KEY, JSON.stringify(this.layout));
    this.render();
  }

  // Shows the figures of a status message (raw values kept in data-value for tests and tools).
  show(values) {
    this.values = Object.assign(this.values, values);
    for (const m of METRICS) {
      const tile = document.getElementById('tile-' + m.key);
      if (!tile) continue;
      const v = this.values[m.key];
      const value = tile.querySelector('.value');
      const text = m.format(v);
      const lengthChanged = value.textContent.length !== text.length;
      value.textContent = text;
      tile.dataset.value = v == null ? '' : String(v);
      tile.classList.toggle('nodata', v == null);
      if (lengthChanged && !m.wide) fit(value);
    }
  }

  fitAll() {
    for (const value of this.container.querySelectorAll('.tile:not(.wide) .value')) fit(value);
  }
}

// A figure is never cut: when "20:00.0" or "12.34 km" is wider than its tile at the tile's own
// size, it is drawn smaller until it fits (measured only when the text's length changes).
function fit(value) {
  value.style.fontSize = '';
  if (value.scrollWidth <= value.clientWidth) return;
  const size = parseFloat(getComputedStyle(value).fontSize);
  value.style.fontSize = Math.floor(size * value.clientWidth / value.scrollWidth * 0.97) + 'px';
}

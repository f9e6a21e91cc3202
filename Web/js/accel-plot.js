// The boat's acceleration, running all the time (before the start too, so the screen looks
// as it will in the race): the last 10 s, Chart.js from Debian.
export class AccelPlot {
  constructor(canvas) {
    this.windowSeconds = 10;
    this.chart = new Chart(canvas, {
      type: 'line',
      data: { datasets: [{ data: [], borderColor: '#ffd200', borderWidth: 2, pointRadius: 0, tension: 0 }] },
      options: {
        animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
        plugins: { legend: { display: false }, tooltip: { enabled: false } },
        scales: {
          x: { type: 'linear', display: false },
          y: { suggestedMin: -4, suggestedMax: 4, ticks: { color: '#bbb', maxTicksLimit: 5 }, grid: { color: '#333' } },
        },
      },
    });
    this.pending = false;
  }

  add(times, values) {
    const data = this.chart.data.datasets[0].data;
    for (let i = 0; i < times.length; i++) data.push({ x: times[i], y: values[i] });
    const latest = times.length ? times[times.length - 1] : 0;
    while (data.length && data[0].x < latest - this.windowSeconds) data.shift();
    this.chart.options.scales.x.min = latest - this.windowSeconds;
    this.chart.options.scales.x.max = latest;
    if (!this.pending) {
      this.pending = true;
      requestAnimationFrame(() => { this.pending = false; this.chart.update('none'); });
    }
  }

  clear() {
    this.chart.data.datasets[0].data.length = 0;
    this.chart.update('none');
  }

  get points() { return this.chart.data.datasets[0].data.length; }
}

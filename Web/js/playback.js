// Playback (#play/ID): the live race screen driven by a recorded session over
// /api/sessions/{id}/playback — play, pause, 1× to 60×, and a scrub slider with the elapsed time
// above its left end and the time remaining above its right end (the seed app's users took a
// bare slider for a volume control). Tiles, the acceleration trace, the boat on its trail and
// the notes update as they did live.
import { control, getJSON } from './api.js';
import { clock } from './metrics.js';

const $ = id => document.getElementById(id);

export class Playback {
  constructor(live) {
    this.live = live;
    this.socket = null;
    this.duration = 0;
    this.position = 0;
    this.paused = true;
    this.dragging = false;
    const slider = $('pb-slider');
    slider.oninput = () => { this.dragging = true; this.showTimes(Number(slider.value)); };
    slider.onchange = () => { this.dragging = false; this.send({ seek: Number(slider.value) }); };
    $('pb-play').onclick = () => this.send({ pause: !this.paused });
    $('pb-speed').onchange = e => this.send({ speed: Number(e.target.value) });
  }

  // From the moment a playback is asked for (not only once its socket is open): the live
  // stream's messages must not reach the screen meanwhile (they showed "The replay has ended"
  // before Play was pressed).
  get active() { return this.socket !== null || this.opening === true; }

  // From AT seconds into the session (the personal bests' ▶), else from its start.
  async open(id, at = 0) {
    this.close();
    this.opening = true;
    this.id = id;
    this.live.reset();
    document.body.classList.add('playing-back');
    $('playback-bar').hidden = false;
    $('pb-exit').href = '#session/' + encodeURIComponent(id);
    $('pb-title').textContent = '';
    try {
      const track = await getJSON(`/api/sessions/${encodeURIComponent(id)}/track`);
      const trail = track.features.find(f => f.properties && f.properties.kind === 'trail');
      if (trail && trail.geometry) this.live.map.showCourse(trail.geometry.coordinates.map(([lon, lat]) => [lat, lon]));
      $('pb-title').textContent = trail && trail.properties.name ? trail.properties.name : '';
    } catch (e) { /* no track: the map stays empty */ }
    // A playback needs the token or the session's share key: a share link (#play/ID?share=KEY)
    // carries the key; a paired phone asks for it with its token (pairing first if it must).
    let share = new URLSearchParams(location.hash.split('?')[1] || '').get('share');
    try {
      if (!share) share = (await control('POST', `/api/sessions/${encodeURIComponent(id)}/share`)).share;
    } catch (e) {
      this.opening = false;
      this.live.banner('Playback needs this phone paired with the boat: ' + e.message, true);
      return;
    }
    if (this.id !== id || !this.opening) return;  // left or opened another meanwhile
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host
      + `/api/sessions/${encodeURIComponent(id)}/playback?share=${encodeURIComponent(share)}`);
    this.socket = ws;
    this.opening = false;
    this.live.banner('');
    ws.onopen = () => ws.send(JSON.stringify(at > 0 ? { speed: Number($('pb-speed').value), seek: at } : { speed: Number($('pb-speed').value) }));
    ws.onmessage = e => { if (this.socket === ws) this.message(JSON.parse(e.data)); };  // none after close()
    // The server says why it closed (too many playbacks at once, a phone too slow).
    ws.onclose = e => { if (this.socket === ws) this.live.banner('Playback closed: ' + (e.reason || 'open it again from the session'), true); };
  }

  close() {
    this.opening = false;
    if (this.socket) {
      const ws = this.socket;
      this.socket = null;
      ws.close();
    }
    document.body.classList.remove('playing-back');
    $('playback-bar').hidden = true;
  }

  send(command) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(command));
  }

  message(m) {
    switch (m.type) {
      case 'playback': {
        const sought = Math.abs(m.t_s - this.position) > 2;
        this.duration = m.duration_s;
        this.paused = m.paused;
        $('pb-slider').max = String(Math.max(1, Math.ceil(m.duration_s)));
        $('pb-play').textContent = m.paused ? '▶ Play' : '❚❚ Pause';
        $('pb-play').classList.toggle('stop', !m.paused);
        document.body.dataset.playback = m.ended ? 'ended' : m.paused ? 'paused' : 'playing';
        if (sought) { this.live.resetTrace(); this.live.heartRates.show([]); }
        this.moveTo(m.t_s);
        break;
      }
      case 'status':
        this.live.tiles.show(m);
        this.live.sensor('sensor-gps', m.gps);
        this.live.sensor('sensor-accel', m.accelerometer);
        // The crew's heart rates as met so far (a seek's or the end's figures carry none: kept).
        if (m.heart_rates && m.heart_rates.length) this.live.heartRates.show(m.heart_rates);
        if (m.elapsed_s != null) this.moveTo(m.elapsed_s);
        break;
      case 'error':
        this.live.banner(m.message, true);
        break;
      default:
        this.live.message(m);
    }
  }

  moveTo(t) {
    this.position = t;
    if (!this.dragging) $('pb-slider').value = String(t);
    this.showTimes(t);
  }

  showTimes(t) {
    $('pb-elapsed').textContent = clock(t);
    $('pb-remaining').textContent = '−' + clock(Math.max(0, this.duration - t));
  }
}

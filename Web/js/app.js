// Oarlog's web app: the live race screen and the race list, one WebSocket to the boat.
import { LivePage } from './live-page.js';
import { RaceList } from './race-list.js';

const live = new LivePage();
const races = new RaceList();
window.oarlog = { live, races };  // for the browser tests and the curious

function route() {
  const page = location.hash === '#races' ? 'races' : 'live';
  for (const id of ['live', 'races']) {
    document.getElementById(id).hidden = id !== page;
    document.getElementById('nav-' + id).classList.toggle('active', id === page);
  }
  if (page === 'races') races.load();
  if (page === 'live') live.map.map.invalidateSize();
}
window.addEventListener('hashchange', route);
route();

function connect() {
  const link = document.getElementById('link');
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/live');
  ws.onopen = () => { link.dataset.state = 'ok'; };
  ws.onmessage = e => live.message(JSON.parse(e.data));
  ws.onclose = () => {
    link.dataset.state = 'lost';
    setTimeout(connect, 1000);  // the boat's Wi-Fi comes and goes: reconnect
  };
}
connect();

// Oarlog's web app: the live race screen, the race list and a session's page, one WebSocket
// to the boat.
import { LivePage } from './live-page.js';
import { RaceList } from './race-list.js';
import { SessionPage } from './session-page.js';

const live = new LivePage();
const races = new RaceList();
const session = new SessionPage();
window.oarlog = { live, races, session };  // for the browser tests and the curious

// #live, #races, #session/ID
function route() {
  const hash = location.hash;
  const page = hash.startsWith('#session/') ? 'session' : hash === '#races' ? 'races' : 'live';
  for (const id of ['live', 'races', 'session']) document.getElementById(id).hidden = id !== page;
  for (const id of ['live', 'races']) {
    document.getElementById('nav-' + id).classList.toggle('active', id === page || (id === 'races' && page === 'session'));
  }
  if (page === 'races') races.load();
  if (page === 'live') live.map.map.invalidateSize();
  if (page === 'session') session.load(decodeURIComponent(hash.slice('#session/'.length)));
  else delete document.body.dataset.sessionLoaded;
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

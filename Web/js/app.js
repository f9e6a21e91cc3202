// Oarlog's web app: the live race screen, the race list, all races on a map and a session's
// page, one WebSocket to the boat; on a coach's launch (`serve --coach`) the fleet.
import { LivePage } from './live-page.js';
import { RaceList } from './race-list.js';
import { RaceMap } from './race-map.js';
import { SessionPage } from './session-page.js';
import { BestsPage } from './bests-page.js';
import { Playback } from './playback.js';
import { ComparePage } from './compare-page.js';
import { FleetPage } from './fleet-page.js';
import { getJSON } from './api.js';
import { ChallengesPage } from './challenges-page.js';

const live = new LivePage();
const races = new RaceList();
const raceMap = new RaceMap();
const session = new SessionPage();
const playback = new Playback(live);
const bests = new BestsPage();
const compare = new ComparePage();
const fleet = new FleetPage();
window.oarlog = { live, races, raceMap, session, playback, bests, compare, fleet };
const challenges = window.oarlog.challenges = new ChallengesPage();  // for the browser tests and the curious

// The page each route shows: its section's id.
const SECTIONS = { live: 'live', races: 'races', map: 'map-page', session: 'session', bests: 'bests-page', compare: 'compare', fleet: 'fleet-page' };
SECTIONS.challenges = 'challenges-page';  // #challenges

// #live, #races (#races?near=LAT,LON,M and the other filters of /api/sessions), #map, #bests, #session/ID, #play/ID (the live
// screen driven by a recorded session; #play/ID?at=S from S seconds into it), #compare/A/B (two sessions or pieces, ID or ID:K),
// #fleet (a coach's launch: every boat)
function route() {
  const hash = location.hash;
  const playing = hash.startsWith('#play/');
  let page = hash.startsWith('#session/') ? 'session' : hash === '#races' || hash.startsWith('#races?') ? 'races' : hash === '#map' ? 'map' : hash === '#bests' ? 'bests' : hash === '#fleet' ? 'fleet' : 'live';
  const compared = hash.startsWith('#compare/') ? hash.slice('#compare/'.length).split('/').map(decodeURIComponent) : null;
  if (compared) page = 'compare';
  if (hash === '#challenges') page = 'challenges';
  for (const [name, id] of Object.entries(SECTIONS)) document.getElementById(id).hidden = name !== page;
  for (const id of ['live', 'races', 'map', 'bests', 'fleet']) {
    document.getElementById('nav-' + id).classList.toggle('active', playing ? id === 'races' : id === page || (id === 'races' && (page === 'session' || page === 'compare')));
  }
  document.getElementById('nav-challenges').classList.toggle('active', page === 'challenges');
  if (playing) {
    const [id, query] = hash.slice('#play/'.length).split('?');
    playback.open(decodeURIComponent(id), Number(new URLSearchParams(query).get('at')) || 0);
  } else if (playback.active) {
    playback.close();
    live.reset();
  }
  if (page === 'races') races.load(hash.split('?')[1] || '');
  if (page === 'map') raceMap.load();
  if (page === 'bests') bests.load();
  if (page === 'challenges') challenges.load();
  if (page === 'fleet') fleet.load(); else fleet.stop();
  if (page === 'live') live.map.visible();
  if (page === 'compare') compare.load(compared[0], compared[1] || '');
  if (page === 'session') session.load(decodeURIComponent(hash.slice('#session/'.length)));
  else delete document.body.dataset.sessionLoaded;
}
window.addEventListener('hashchange', route);
// The maps follow the window's size only while they are on screen (see BoatMap.visible).
window.addEventListener('resize', () => {
  if (!document.getElementById('live').hidden) live.map.visible();
  session.resized();
  compare.resized();
  raceMap.resized();
  bests.resized();
  fleet.resized();
  challenges.resized();
});

// On a coach's launch (GET /api/coach: /api/fleet answers) the Fleet tab, and the app opens on it
// (when no page is asked for) instead of the live screen of a boat it is not on.
async function start() {
  const opening = location.hash === '' || location.hash === '#';
  if (!opening) route();
  let coach = false;
  try { coach = (await getJSON('/api/coach')).coach === true; } catch (e) { /* an older server: the boat's pages */ }
  document.body.classList.toggle('coach', coach);
  document.getElementById('nav-fleet').hidden = !coach;
  if (opening) {
    if (coach) history.replaceState(null, '', '#fleet');
    route();
  }
}
start();

function connect() {
  const link = document.getElementById('link');
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/live');
  ws.onopen = () => { link.dataset.state = 'ok'; };
  ws.onmessage = e => { if (!playback.active) live.message(JSON.parse(e.data)); };
  ws.onclose = () => {
    link.dataset.state = 'lost';
    setTimeout(connect, 1000);  // the boat's Wi-Fi comes and goes: reconnect
  };
}
connect();

// The crew's heart-rate straps on the phone (docs/HEART_RATE.md): the list the boat knows
// (GET /api/heart-rate/straps: assigned and seen by bluetoothd), a strap given to a seat
// (PUT /api/heart-rate/straps/{seat}) or taken away (DELETE), both with the control token.
// Names come from the straps themselves: they are only ever set as text.
import { getJSON, control } from './api.js';

const section = document.getElementById('hr-straps');
const list = document.getElementById('hr-strap-list');
const form = document.getElementById('hr-strap-form');
const seatInput = document.getElementById('hr-strap-seat');
const addressInput = document.getElementById('hr-strap-address');
const error = document.getElementById('hr-strap-error');

function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'small';
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

function describe(s) {
  const parts = [s.seat ? s.seat + ':' : 'no seat:', s.address];
  if (s.name) parts.push('(' + s.name + ')');
  if (s.connected) parts.push('connected');
  if (s.bpm != null) parts.push(s.bpm + ' bpm');
  return parts.join(' ');
}

async function change(method, seat, body) {
  error.textContent = '';
  try {
    await control(method, '/api/heart-rate/straps/' + encodeURIComponent(seat), body);
  } catch (e) {
    error.textContent = e.message;
  }
  await refresh();
}

async function refresh() {
  let answer;
  try {
    answer = await getJSON('/api/heart-rate/straps');
  } catch (e) {
    error.textContent = e.message;
    return;
  }
  list.replaceChildren(...answer.straps.map(s => {
    const li = document.createElement('li');
    li.append(describe(s) + ' ');
    if (s.seat) {
      li.append(button('Unassign', () => change('DELETE', s.seat)));
    } else {
      li.append(button('Use', () => { addressInput.value = s.address; seatInput.focus(); }));
    }
    return li;
  }));
  if (!answer.straps.length) list.textContent = 'No straps: wear one and run oarlog hr scan on the boat.';
}

form.addEventListener('submit', event => {
  event.preventDefault();
  const seat = seatInput.value.trim();
  const address = addressInput.value.trim();
  if (seat && address) change('PUT', seat, { address });
});
section.addEventListener('toggle', () => { if (section.open) refresh(); });

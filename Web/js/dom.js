// Text from outside the app — session titles, boat names, notes, course, gate and area names,
// piece labels, messages the server echoes, anything the API or a boat over MQTT sends — goes on
// the page as text, never as HTML: a title such as `<img src=x onerror=…>` would otherwise run as
// script on the phone that keeps the control token. So innerHTML is only ever given fixed
// markup written here, and its holes are filled with textContent; Leaflet (which takes a string
// as HTML in tooltips, popups and div icons) is given elements made with these.

// An element with a class (or none) and text (or none).
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text != null) e.textContent = String(text);
  return e;
}

// A tooltip's or popup's content for Leaflet: the text as text.
export function textNode(text) {
  return el('span', null, text);
}

// A legend's step: a coloured swatch (a colour of the app's own) and its text.
export function legendStep(colour, text) {
  const step = el('span', 'step');
  const swatch = el('span', 'swatch');
  swatch.style.background = colour;
  step.append(swatch, document.createTextNode(text));
  return step;
}

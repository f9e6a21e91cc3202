// "Make a course" on a session's map: the person taps where the start is, then the finish (near
// the session's track: the gates stand square to the track there, markers every 500 m of it
// between, as `SessionStore.makeCourse` makes them), names it, and it is kept (POST /api/courses
// with the session and the two taps, the token needed). The answer — the course, and the attempts
// found in every kept session — or why it was refused is shown in words, with a link to the
// course's page.
import { control, ensurePaired } from './api.js';
import { el } from './dom.js';
import { keptText, courseHash } from './courses-page.js';

export class MakeCourse {
  // box: the element under the session's map; map: the SessionMap (its `onTap` is set while a
  // course is being made).
  constructor(box, map) {
    this.box = box;
    this.sessionMap = map;
    this.button = el('button', 'small make-course-button', 'Make a course');
    this.button.type = 'button';
    this.prompt = el('p', 'make-course-prompt');
    this.form = el('form', 'make-course-form');
    this.name = el('input');
    Object.assign(this.name, { type: 'text', maxLength: 80, placeholder: 'Course name', autocomplete: 'off' });
    this.name.setAttribute('aria-label', 'course name');
    const keep = el('button', 'make-course-keep', 'Keep');
    keep.type = 'submit';
    this.cancel = el('button', 'small make-course-cancel', 'Cancel');
    this.cancel.type = 'button';
    this.form.append(this.name, keep);
    this.result = el('p', 'make-course-result');
    this.result.hidden = true;
    box.replaceChildren(this.button, this.prompt, this.form, this.cancel, this.result);
    this.button.onclick = () => this.begin();
    this.cancel.onclick = () => this.end();
    this.form.onsubmit = e => { e.preventDefault(); this.keep(); };
    this.end();
  }

  // A new session's page: nothing being made.
  reset(id) {
    this.id = id;
    this.result.hidden = true;
    this.end();
  }

  begin() {
    this.taps = [];
    this.result.hidden = true;
    this.button.hidden = true;
    this.cancel.hidden = false;
    this.prompt.hidden = false;
    this.prompt.textContent = 'Tap the start on the map, near the track.';
    this.sessionMap.onTap = latlng => this.tapped(latlng);
    this.box.dataset.step = 'start';
  }

  end() {
    this.sessionMap.onTap = null;
    this.sessionMap.clearTaps();
    this.button.hidden = false;
    this.prompt.hidden = true;
    this.form.hidden = true;
    this.cancel.hidden = true;
    this.box.dataset.step = '';
  }

  tapped(latlng) {
    if (this.taps.length >= 2) return;
    this.taps.push(latlng);
    this.sessionMap.showTap(latlng, this.taps.length === 1 ? 'start' : 'finish');
    if (this.taps.length === 1) {
      this.prompt.textContent = 'Now tap the finish.';
      this.box.dataset.step = 'finish';
    } else {
      this.prompt.textContent = 'Name the course and keep it.';
      this.form.hidden = false;
      this.box.dataset.step = 'name';
      this.name.focus();
    }
  }

  async keep() {
    const name = this.name.value.trim();
    if (!name) { this.say('Give the course a name.', true); return; }
    if (!(await ensurePaired())) return;
    const [start, finish] = this.taps.map(p => ({ lat_deg: p.lat, lon_deg: p.lng }));
    try {
      const answer = await control('POST', '/api/courses', { name, session: this.id, start, finish });
      this.say(keptText(answer), false, answer.course.name);
      this.name.value = '';
      this.end();
    } catch (e) {
      // The taps stay: the person can cancel and tap again, or change the name.
      this.say('Not kept: ' + e.message, true);
    }
    this.box.dataset.result = this.result.classList.contains('error') ? 'error' : 'kept';
  }

  say(text, error, course) {
    this.result.replaceChildren(el('span', null, text));
    if (course) {
      const link = el('a', 'make-course-link', 'Open the course ›');
      link.href = courseHash(course);
      this.result.append(' ', link);
    }
    this.result.classList.toggle('error', !!error);
    this.result.hidden = false;
  }
}

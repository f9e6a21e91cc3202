// The club's measured courses (#courses): GET /api/courses (`oarlog courses list --json`), one
// row per course — name, length, how many attempts the kept sessions hold, the best time — each
// opening its page (#course/NAME). A course is added here from a GeoJSON file (start, markers,
// finish, as `oarlog courses add` takes), or on a session's map ("Make a course").
import { getJSON, control, ensurePaired } from './api.js';
import { clock, metres, NO_DATA } from './metrics.js';
import { el } from './dom.js';

const $ = id => document.getElementById(id);

export function courseHash(name) { return '#course/' + encodeURIComponent(name); }

export class CoursesPage {
  constructor() {
    $('courses-add-form').onsubmit = e => { e.preventDefault(); this.addFile(); };
  }

  async load() {
    delete document.body.dataset.coursesLoaded;
    $('courses-error').hidden = true;
    let courses;
    try {
      courses = await getJSON('/api/courses');
    } catch (e) {
      $('courses-error').textContent = 'The courses could not be read: ' + e.message;
      $('courses-error').hidden = false;
      document.body.dataset.coursesLoaded = 'error';
      return;
    }
    this.courses = courses;
    const body = $('courses-table').querySelector('tbody');
    body.replaceChildren();
    for (const c of courses) {
      const tr = document.createElement('tr');
      tr.dataset.course = c.name;
      const name = el('th', 'course-name');
      const link = el('a', 'race-title', c.name);
      link.href = courseHash(c.name);
      name.append(link);
      tr.append(name, el('td', null, metres(c.length_m)), el('td', null, c.attempts == null ? NO_DATA : c.attempts),
        el('td', 'best', c.best_time_s == null ? NO_DATA : clock(c.best_time_s)));
      tr.onclick = e => { if (e.target.tagName !== 'A') location.hash = courseHash(c.name); };
      body.appendChild(tr);
    }
    $('courses-empty').hidden = courses.length > 0;
    $('courses-table').hidden = courses.length === 0;
    document.body.dataset.coursesLoaded = String(courses.length);
  }

  // A GeoJSON course from a file on the phone or laptop, kept under the name typed (POST
  // /api/courses with the token): the attempts found, or why it was refused, in words.
  async addFile() {
    const file = $('courses-add-file').files[0];
    const name = $('courses-add-name').value.trim();
    const said = $('courses-add-result');
    said.className = 'courses-add-result';
    if (!file || !name) {
      said.textContent = 'Choose a GeoJSON file and give the course a name.';
      said.classList.add('error');
      return;
    }
    if (!(await ensurePaired())) return;
    try {
      const answer = await control('POST', '/api/courses', { name, geojson: await file.text() });
      said.textContent = keptText(answer);
      $('courses-add-name').value = '';
      $('courses-add-file').value = '';
      await this.load();
    } catch (e) {
      said.textContent = 'Not kept: ' + e.message;
      said.classList.add('error');
    }
  }
}

// What POST /api/courses answered, in words: the course and the attempts found.
export function keptText(answer) {
  const c = answer.course, n = answer.attempts.length;
  const best = n ? `, best ${clock(answer.attempts[0].time_s)}` : '';
  return `Kept “${c.name}”: ${metres(c.length_m)}, ${c.gates.length} gates. `
    + `${answer.sessions_searched} session${answer.sessions_searched === 1 ? '' : 's'} searched, `
    + `${n} attempt${n === 1 ? '' : 's'} found${best}.`;
}

#!/usr/bin/python3
"""Opens the courses of Oarlog's web app in headless Chromium, at phone (390x844) and laptop
(1280x800) size, and reports what they showed: the list (#courses), a course's page
(#course/NAME: its gates on the map, the leaderboard, an attempt's legs opened, two attempts
ticked and compared gate by gate with both tracks); then, at phone size, makes a course on a
session's map (#session/ID: "Make a course", a tap at the start and one at the finish on the
track, a name — first one taken, refused in words, then a new one — kept) and compares two
attempts of it.

Usage: courses_page.py BASE_URL SCREENSHOT_DIR PAIRING_CODE COURSE SESSION GEOJSON
(COURSE: a kept course with two attempts; SESSION: a session with GPS whose track is made a course;
GEOJSON: COURSE's file, added again from the list's form under another name: refused in words)
Prints one JSON object; the Swift test (CoursesPageTests) asserts on it.
"""
import json
import sys
import time
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import chromium

base, shots, code, course, session, geojson = sys.argv[1:7]
result = {"screenshots": []}
driver, wait = chromium.start()
CURRENT = chromium.PHONE

OVERFLOW = """
const wide = [...document.querySelectorAll('main *')].filter(e => e.offsetParent !== null && !e.closest('.leaflet-container, .table-scroll')
  && e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.id || e.className || e.tagName);
const nav = document.querySelector('nav').getBoundingClientRect(), sensors = document.querySelector('.sensors').getBoundingClientRect();
const active = document.querySelector('nav a.active'), tab = active ? active.getBoundingClientRect() : null;
return {overflow_x: document.documentElement.scrollWidth > window.innerWidth, wide: wide.slice(0, 10), width: window.innerWidth,
        nav_right: nav.right, sensors_left: sensors.left, sensors_right: sensors.right,
        active_tab_shown: tab ? tab.left >= nav.left - 0.5 && tab.right <= nav.right + 0.5 : null,
        nav_active: [...document.querySelectorAll('nav a.active')].map(a => a.id)};
"""

LIST = """
return {loaded: document.body.dataset.coursesLoaded || null,
  rows: [...document.querySelectorAll('#courses-table tbody tr')].map(tr => [...tr.children].map(td => td.textContent)),
  links: [...document.querySelectorAll('#courses-table tbody a')].map(a => a.getAttribute('href'))};
"""

COURSE = """
const p = window.oarlog.course;
const tracks = p.map.tracks ? Object.fromEntries(Object.entries(p.map.tracks).map(([k, l]) => [k, {points: l.getLatLngs().length, colour: l.options.color,
  first: [l.getLatLngs()[0].lat, l.getLatLngs()[0].lng]}])) : {};
const table = t => [...document.querySelectorAll(t)].map(tr => [...tr.children].map(td => td.textContent));
return {loaded: document.body.dataset.courseLoaded || null, title: document.getElementById('course-title').textContent,
  facts: document.getElementById('course-facts').textContent, gates: p.map.gates,
  board: [...document.querySelectorAll('#course-board tbody tr.attempt')].map(tr => ({ref: tr.dataset.ref,
    cells: [...tr.children].slice(1).map(td => td.textContent), session: tr.querySelector('td.date a').getAttribute('href')})),
  legs: table('#course-board tr.legs tbody tr'),
  hint: document.getElementById('course-compare-hint').textContent,
  compared: document.body.dataset.courseCompared || null,
  gaps: [...document.querySelectorAll('#course-compare-table tbody tr')].map(tr => ({gate: tr.dataset.gate,
    cells: [...tr.children].map(td => td.textContent), value: tr.querySelector('td.gap').dataset.value})),
  legend: [...document.querySelectorAll('#course-compare-legend .step')].map(e => e.textContent),
  tracks: tracks, map_rect: document.getElementById('course-map').getBoundingClientRect().toJSON()};
"""


def shoot(name, full=False):
    path = f"{shots}/{name}.png"
    if full:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**CURRENT, "height": height})
        time.sleep(0.3)
        driver.save_screenshot(path)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", CURRENT)
        time.sleep(0.2)
    else:
        driver.save_screenshot(path)
    result["screenshots"].append(path)


def wait_for(script):
    wait.until(lambda d: d.execute_script(script))


def open_page(hash_, ready):
    driver.get("about:blank")
    driver.get(base + "/#races")
    wait_for("return window.oarlog !== undefined")
    driver.execute_script("location.hash = arguments[0]", hash_)
    wait_for(ready)
    time.sleep(0.4)  # the map settles


def course_page(name, tag):
    """The course's page: as loaded, a row opened for its legs, two rows ticked and compared."""
    seen = {}
    open_page("#course/" + urllib.parse.quote(name), f"return document.body.dataset.courseLoaded === {json.dumps(name)}")
    seen["loaded"] = driver.execute_script(COURSE)
    seen["layout"] = driver.execute_script(OVERFLOW)
    shoot(f"course-{tag}")
    # The first row tapped (on its time): its legs under it.
    driver.find_element(By.CSS_SELECTOR, "#course-board tr.attempt td.time").click()
    wait_for("return document.querySelectorAll('#course-board tr.legs').length === 1")
    seen["legs"] = driver.execute_script(COURSE)
    seen["legs_layout"] = driver.execute_script(OVERFLOW)
    shoot(f"course-{tag}-legs", full=True)
    # Two rows ticked (the second first: it is A).
    boxes = driver.find_elements(By.CSS_SELECTOR, "#course-board tr.attempt td.pick input")
    boxes[1].click()
    driver.find_elements(By.CSS_SELECTOR, "#course-board tr.attempt td.pick input")[0].click()
    wait_for("return (document.body.dataset.courseCompared || '').includes('/')")
    time.sleep(0.4)
    seen["compared"] = driver.execute_script(COURSE)
    seen["compared_layout"] = driver.execute_script(OVERFLOW)
    shoot(f"course-{tag}-compare")
    shoot(f"course-{tag}-compare-full", full=True)
    return seen


def tap_track(fraction):
    """Taps the session's map on its track, `fraction` of the way along its points."""
    x, y = driver.execute_script("""const m = window.oarlog.session.map, p = m.points[Math.round(arguments[0] * (m.points.length - 1))];
        const q = m.map.latLngToContainerPoint([p.lat, p.lon]); return [q.x, q.y];""", fraction)
    element = driver.find_element(By.ID, "session-map")
    size = element.size
    ActionChains(driver).move_to_element_with_offset(element, int(x - size["width"] / 2), int(y - size["height"] / 2)).click().perform()
    time.sleep(0.3)


try:
    for size, metrics in {"phone": chromium.PHONE, "laptop": chromium.LAPTOP}.items():
        CURRENT = metrics
        chromium.resize(driver, metrics)
        seen = {}
        open_page("#courses", "return document.body.dataset.coursesLoaded !== undefined")
        seen["list"] = driver.execute_script(LIST)
        seen["list_layout"] = driver.execute_script(OVERFLOW)
        shoot(f"courses-{size}")
        seen["course"] = course_page(course, size)
        result[size] = seen

    # Make a course on the session's map (phone).
    CURRENT = chromium.PHONE
    chromium.resize(driver, chromium.PHONE)
    result["console"] = chromium.console_errors(driver)
    made = {}
    # The list's form: the same course's file under another name, refused (pairing first).
    open_page("#courses", "return document.body.dataset.coursesLoaded !== undefined")
    driver.find_element(By.ID, "courses-add-file").send_keys(geojson)
    driver.find_element(By.ID, "courses-add-name").send_keys("Same water")
    driver.find_element(By.ID, "courses-add-send").click()
    wait.until(lambda d: d.find_element(By.ID, "pair-dialog").get_attribute("open") is not None)
    driver.find_element(By.ID, "pair-code").send_keys(code)
    driver.find_element(By.ID, "pair-ok").click()
    wait_for("return document.getElementById('courses-add-result').classList.contains('error')")
    made["file_refused"] = driver.execute_script("return document.getElementById('courses-add-result').textContent")
    shoot("courses-add-refused-phone")
    open_page("#session/" + session, f"return document.body.dataset.sessionLoaded === {json.dumps(session)}")
    driver.execute_script("document.getElementById('session-map').scrollIntoView({block: 'center'})")
    time.sleep(0.3)
    driver.find_element(By.CSS_SELECTOR, "#make-course .make-course-button").click()
    made["prompts"] = [driver.execute_script("return document.querySelector('#make-course .make-course-prompt').textContent")]
    tap_track(0.2)
    made["prompts"].append(driver.execute_script("return document.querySelector('#make-course .make-course-prompt').textContent"))
    tap_track(0.8)
    made["prompts"].append(driver.execute_script("return document.querySelector('#make-course .make-course-prompt').textContent"))
    made["taps"] = driver.execute_script("""const taps = []; window.oarlog.session.map.tapLayer.eachLayer(l => taps.push([l.getLatLng().lat, l.getLatLng().lng]));
        return taps;""")
    made["readout"] = driver.execute_script("return document.getElementById('trail-readout').textContent")
    shoot("session-make-course-taps")
    # A name taken: refused, in words.
    driver.find_element(By.CSS_SELECTOR, "#make-course input").send_keys(course)
    driver.find_element(By.CSS_SELECTOR, "#make-course .make-course-keep").click()
    wait_for("return document.getElementById('make-course').dataset.result === 'error'")
    made["refused"] = driver.execute_script("return document.querySelector('#make-course .make-course-result').textContent")
    shoot("session-make-course-refused")
    name = driver.find_element(By.CSS_SELECTOR, "#make-course input")
    name.clear()
    name.send_keys("Putney 1k")
    driver.find_element(By.CSS_SELECTOR, "#make-course .make-course-keep").click()
    wait_for("return document.getElementById('make-course').dataset.result === 'kept'")
    made["kept"] = driver.execute_script("return document.querySelector('#make-course .make-course-result').textContent")
    made["link"] = driver.execute_script("return document.querySelector('#make-course .make-course-link').getAttribute('href')")
    made["layout"] = driver.execute_script(OVERFLOW)
    shoot("session-make-course-kept")
    made["console"] = chromium.console_errors(driver)  # the two refusals' 409s
    result["made"] = made
    result["made_course"] = course_page("Putney 1k", "made-phone")
    result["console"] += chromium.console_errors(driver)
    # A course that is not kept: said so.
    open_page("#course/Henley", "return document.body.dataset.courseLoaded === 'error'")
    result["unknown"] = driver.execute_script("return document.getElementById('course-error').textContent")
    shoot("course-unknown-phone")
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/courses-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

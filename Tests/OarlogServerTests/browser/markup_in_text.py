#!/usr/bin/python3
"""Opens every page of Oarlog's web app in headless Chromium, on a phone that is paired (the
control token in localStorage, as a cox's phone keeps it), while the sessions' titles, notes,
boat names, the course's name and its gates' and areas' names are HTML markup
(`<img src=x onerror="window.__pwned=1">`, `<b>bold</b>`), and reports on each page: whether
the markup ran (window.__pwned), whether any element made from it is in the page (an <img>
with src "x", a <b> saying "bold"), and the texts where those words are shown. Every map
tooltip is opened, so that what Leaflet puts on the page only then is there too.

Usage: markup_in_text.py BASE_URL TOKEN COACH_BASE_URL SCREENSHOT_DIR SESSION_A SESSION_B LIVE_TITLE LIVE_NOTE
(A and B: sessions rowed over the same course, A with a note; LIVE_TITLE and LIVE_NOTE: the race
recorded on the live page is given them)
Prints one JSON object; the Swift test (MarkupInTextTests) asserts on it.
"""
import json
import sys
import time
import urllib.request

from selenium.webdriver.common.by import By

import chromium

base, token, coach, shots, a, b, live_title, live_note = sys.argv[1:9]
result = {"screenshots": [], "pages": {}}

driver, wait = chromium.start()

# What every page is checked for: markup that ran or became elements, and the page's text.
CHECK = """
const made = [...document.querySelectorAll('img')].filter(e => e.getAttribute('src') === 'x').length
  + [...document.querySelectorAll('b')].filter(e => e.textContent.includes('bold')).length;
return { pwned: window.__pwned === undefined ? null : String(window.__pwned), made: made,
         text: document.body.innerText, hash: location.hash };
"""

# Opens every tooltip of a Leaflet map (those shown only on a tap are made only then).
OPEN_TOOLTIPS = """
const map = arguments[0] === 'session' ? window.oarlog.session.map.map : arguments[0] === 'compare'
  ? window.oarlog.compare.map : arguments[0] === 'fleet' ? window.oarlog.fleet.map.map : window.oarlog.raceMap.map;
const texts = [];
if (!map) return texts;
map.eachLayer(l => { if (l.getTooltip && l.getTooltip()) { l.openTooltip(); texts.push(l.getTooltip().getElement().textContent); } });
return texts;
"""


def shoot(name):
    path = f"{shots}/markup-{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def check(name, extra=None):
    """The checks of one page, with what EXTRA (a script returning an object) read from it."""
    time.sleep(0.3)  # an <img src=x> made from markup fails to load, and its onerror runs, about now
    seen = driver.execute_script(CHECK)
    if extra:
        seen.update(driver.execute_script(extra))
    result["pages"][name] = seen
    shoot(name)
    return seen


def control(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read() or b"null")


def go(hash_, ready):
    """Another page of the app (the same document: what an earlier page let run is forgotten)."""
    driver.execute_script("delete window.__pwned; location.hash = arguments[0]", hash_)
    wait.until(lambda d: d.execute_script(ready))


try:
    # First the coach's launch, while its boats are still heard: the boats' names, the course's name and gates, where boats met.
    driver.get(coach + "/#fleet")
    wait.until(lambda d: d.execute_script("""const p = window.oarlog.fleet; return p.data && p.data.boats.length === 2
        && p.data.meetings.length > 0 && document.querySelectorAll('#fleet-boats tbody tr').length === 2"""))
    time.sleep(1.5)  # a second answer drawn over the first
    tooltips = driver.execute_script(OPEN_TOOLTIPS, "fleet")
    check("fleet", """return {boats: [...document.querySelectorAll('#fleet-boats .boat-name')].map(e => e.textContent),
        markers: [...document.querySelectorAll('#fleet-map .fleet-boat-name')].map(e => e.textContent),
        race: document.getElementById('fleet-race-name').textContent,
        results: [...document.querySelectorAll('#fleet-results td.boat')].map(e => e.textContent),
        gates: [...document.querySelectorAll('#fleet-gaps .gate-name')].map(e => e.textContent),
        gate_labels: [...document.querySelectorAll('#fleet-map .gate-label')].map(e => e.textContent),
        meetings: [...document.querySelectorAll('#fleet-meetings .meeting-boats')].map(e => e.textContent)}""")
    result["pages"]["fleet"]["tooltips"] = tooltips
    result["console_fleet"] = chromium.console_errors(driver)

    driver.get(base + "/")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.get(base + "/#live")
    wait.until(lambda d: d.execute_script("return document.getElementById('link').dataset.state === 'ok'"))

    # Live: a race recorded with a markup title and a note typed on the boat; its summary after Stop.
    recorded = control("POST", "/api/record/start", {"title": live_title})["id"]
    wait.until(lambda d: d.execute_script("return window.oarlog.live.recording === arguments[0]", recorded))
    control("POST", f"/api/sessions/{recorded}/notes", {"text": live_note})
    wait.until(lambda d: d.execute_script("return document.getElementById('tile-last_note').dataset.value !== ''"))
    check("live-racing", "return {last_note: document.querySelector('#tile-last_note .value').textContent}")
    control("POST", "/api/record/stop")
    wait.until(lambda d: not d.execute_script("return document.getElementById('summary').hidden"))
    check("live", "return {summary_title: document.getElementById('summary-title').textContent}")
    result["recorded"] = recorded

    # The race list, with its boats' filter.
    go("#races", "return document.querySelectorAll('#race-list li.race').length >= 3")
    check("races", """return {titles: [...document.querySelectorAll('#race-list .race-title')].map(e => e.textContent),
        boats: [...document.querySelectorAll('#race-boat option')].map(o => o.textContent)}""")

    # All races on a map: the label under each place is its newest session's title.
    go("#map", "return window.oarlog.raceMap.loaded && document.querySelectorAll('.race-place-label').length > 0")
    driver.execute_script("window.oarlog.raceMap.select(window.oarlog.raceMap.groups[0])")
    check("map", """return {labels: [...document.querySelectorAll('.race-place-label')].map(e => e.textContent),
        listed: [...document.querySelectorAll('#race-map-list .race-title')].map(e => e.textContent)}""")

    # A session's page: title, notes, the map's note, gate and crossing tooltips, the legend, the pieces.
    go(f"#session/{a}", f"return document.body.dataset.sessionLoaded === '{a}'")
    tooltips = driver.execute_script(OPEN_TOOLTIPS, "session")
    notes = driver.execute_script("return [...document.querySelectorAll('#session-notes .note-text')].map(e => e.textContent)")
    driver.find_element(By.CSS_SELECTOR, "#session-notes .note-edit").click()  # the note in its edit box
    check("session", """return {title: document.getElementById('session-title').textContent,
        editing: document.querySelector('#session-notes .note-text-edit').value,
        legend: document.getElementById('trail-legend').textContent,
        pieces: [...document.querySelectorAll('#pieces-table tbody tr td:first-child')].map(e => e.textContent),
        curve_title: document.getElementById('curve-title').textContent,
        gate_labels: [...document.querySelectorAll('#session-map .gate-label')].map(e => e.textContent)}""")
    result["pages"]["session"]["tooltips"] = tooltips
    result["pages"]["session"]["notes"] = notes
    driver.execute_script("document.getElementById('session-map').scrollIntoView()")
    shoot("session-map")

    # Playback: the title over the bar, the note as the tile shows it when the playback passes it.
    go(f"#play/{a}", "return document.getElementById('pb-title').textContent !== '' && document.body.dataset.playback")
    driver.execute_script("document.getElementById('pb-speed').value = '60'; document.getElementById('pb-speed').dispatchEvent(new Event('change'))")
    driver.find_element(By.ID, "pb-play").click()
    wait.until(lambda d: d.execute_script("return document.getElementById('tile-last_note').dataset.value !== ''"))
    check("playback", """return {title: document.getElementById('pb-title').textContent,
        last_note: document.querySelector('#tile-last_note .value').textContent}""")

    # Two sessions compared over their course (its name, the gates' names), then their first legs
    # (the legs' labels); the titles in both.
    for name, pair in (("compare", f"{a}/{b}"), ("compare-legs", f"{a}:1/{b}:1")):
        go(f"#compare/{pair}", f"return document.body.dataset.compareLoaded === '{pair}'")
        tooltips = driver.execute_script(OPEN_TOOLTIPS, "compare")
        check(name, """return {titles: [...document.querySelectorAll('.compare-title')].map(e => e.textContent),
            legend: [...document.querySelectorAll('#compare-legend .step[data-side]')].map(e => e.textContent),
            by: document.getElementById('compare-by').textContent,
            gates: [...document.querySelectorAll('#compare-table tbody tr td:first-child')].map(e => e.textContent),
            pieces: [...document.querySelectorAll('#compare-piece-a option')].map(e => e.textContent)}""")
        result["pages"][name]["tooltips"] = tooltips

    go("#bests", "return window.oarlog.bests.loaded")
    check("bests")

    result["console"] = chromium.console_errors(driver)
except Exception as e:  # noqa: BLE001 - reported to the Swift test with the page as it was
    chromium.report_failure(driver, result, e, f"{shots}/markup-failure.png")
finally:
    driver.quit()

print(json.dumps(result))

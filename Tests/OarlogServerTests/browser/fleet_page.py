#!/usr/bin/python3
"""Opens Oarlog's web app on a coach's launch (`oarlog serve --coach`) in headless Chromium while
boats race, and reports what the fleet page (#fleet) showed: opened at / it goes to #fleet; during
the race and at its end, each table's cells (text and raw value) with the /api/fleet answer they
were drawn from (read in the same moment), the map's markers, gates and meeting rings; that the map
keeps a view the coach set while updates come; that a tapped meeting centres the map there; that
boats silent for over 30 s are flagged; that leaving the page stops the polling. Screenshots at
phone (390x844) and laptop (1280x800) size.

Usage: fleet_page.py BASE_URL SCREENSHOT_DIR
Prints one JSON object; the Swift test (FleetPageTests) asserts on it.
"""
import json
import sys
import time
import urllib.request

import chromium

base, shots = sys.argv[1], sys.argv[2]
result = {"screenshots": []}

driver, wait = chromium.start()

# The page's cells and the answer they were drawn from, in one script (so they agree in time).
READ = """
const page = window.oarlog.fleet;
const cells = tr => Object.fromEntries([...tr.querySelectorAll('td, th')].filter(c => c.className)
  .map(c => [c.className, {text: c.textContent, value: c.dataset.value === undefined ? null : c.dataset.value}]));
const map = page.map.map;
const visible = [...document.querySelectorAll('#fleet-page *, nav a')].filter(e => e.getClientRects().length);
const outside = visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
  .filter(e => !e.closest('.leaflet-container')).map(e => e.id || e.className || e.tagName);
const labels = [...document.querySelectorAll('.fleet-boat-name')].map(e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; });
return {
  data: page.data,
  renders: page.renders,
  hash: location.hash,
  nav_active: [...document.querySelectorAll('nav a.active')].map(a => a.id),
  nav_fleet_shown: !document.getElementById('nav-fleet').hidden,
  broker: document.getElementById('fleet-broker').textContent,
  boats: [...document.querySelectorAll('#fleet-boats tbody tr')].map(tr => ({
    id: tr.dataset.id, stale: tr.classList.contains('stale'),
    name: tr.querySelector('.boat-name').textContent, state: tr.querySelector('.boat-state').textContent,
    heard: tr.querySelector('.heard').textContent, heard_value: tr.querySelector('.heard').dataset.value, cells: cells(tr) })),
  race_shown: !document.getElementById('fleet-race').hidden,
  race_name: document.getElementById('fleet-race-name').textContent,
  results: [...document.querySelectorAll('#fleet-results tbody tr')].map(tr => ({ id: tr.dataset.id, cells: cells(tr) })),
  gates: [...document.querySelectorAll('#fleet-gaps tbody')].map(tb => ({
    name: tb.querySelector('.gate-name').textContent, distance: tb.querySelector('.gate-distance').textContent,
    times: [...tb.querySelectorAll('tr[data-id]')].map(tr => ({ id: tr.dataset.id, cells: cells(tr) })) })),
  meetings: [...document.querySelectorAll('#fleet-meetings li')].map(li => ({
    boats: li.querySelector('.meeting-boats').textContent, time: li.querySelector('.meeting-time').textContent,
    closest: li.querySelector('.meeting-closest').textContent, duration: li.querySelector('.meeting-duration').textContent })),
  no_meetings_shown: !document.getElementById('fleet-no-meetings').hidden,
  markers: page.map.shown,
  marker_elements: document.querySelectorAll('#fleet-map .leaflet-marker-icon.fleet-boat').length,
  meeting_rings: document.querySelectorAll('#fleet-map path.fleet-meeting').length,
  gate_labels: [...document.querySelectorAll('#fleet-map .gate-label')].map(e => e.textContent),
  map_size: [document.getElementById('fleet-map').clientWidth, document.getElementById('fleet-map').clientHeight],
  centre: map ? [map.getCenter().lat, map.getCenter().lng] : null,
  zoom: map ? map.getZoom() : null,
  markers_in_view: map ? page.map.shown.filter(m => map.getBounds().contains([m.lat, m.lon])).length : 0,
  labels: labels,
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
  outside: outside,
};
"""


def read():
    return driver.execute_script(READ)


def api():
    with urllib.request.urlopen(base + "/api/fleet") as r:
        return json.loads(r.read())


def shoot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def scroll_to(element_id):
    driver.execute_script(f"document.getElementById('{element_id}').scrollIntoView({{block: 'start'}})")
    driver.execute_script("window.scrollBy(0, -50)")  # below the sticky bar
    time.sleep(0.3)


def renders():
    return driver.execute_script("return window.oarlog.fleet.renders")


def wait_renders(n):
    """Waits until the page has drawn n more answers."""
    start = renders()
    wait.until(lambda d: renders() >= start + n)


def stable(d):
    """What the page shows of an answer, without what changes while nothing happens (how long ago
    each boat was heard)."""
    d = {k: json.loads(json.dumps(d[k])) for k in ("boats", "race", "meetings")}
    for b in d["boats"]:
        b.pop("heard_s_ago", None)
        b.pop("stale", None)  # the page marks the silent boats
    return d  # compared as values: the browser gives 250.0 as 250


try:
    # Opened at / (no page asked for): the fleet, since this server answers /api/fleet.
    driver.get(base + "/")
    wait.until(lambda d: d.execute_script("return window.oarlog !== undefined && window.oarlog.fleet.renders > 0"))
    result["opened"] = read()

    # During the race: boats through the start, not all finished.
    def racing(d):
        data = d.execute_script("return window.oarlog.fleet.data")
        race = data and data["race"]
        return (race and len(data["boats"]) == 3 and all(b["lat"] is not None for b in data["boats"])
                and len(race["gates"][1]["times"]) >= 1 and any(r["time_s"] is None for r in race["results"]))
    result["step"] = "racing"
    wait.until(racing)
    time.sleep(0.2)
    result["during"] = read()
    shoot("fleet-phone-race")
    scroll_to("fleet-race")
    shoot("fleet-phone-race-results")
    driver.execute_script("window.scrollTo(0, 0)")

    # The coach zooms in on a boat: updates keep that view (no re-fit on each answer).
    first = result["during"]["markers"][0]
    driver.execute_script("window.oarlog.fleet.map.map.setView(arguments[0], 18, {animate: false})", [first["lat"], first["lon"]])
    set_view = driver.execute_script("const m = window.oarlog.fleet.map.map; return {centre: [m.getCenter().lat, m.getCenter().lng], zoom: m.getZoom()}")
    wait_renders(3)
    kept = read()
    result["view_kept"] = {"set": set_view, "after": {"centre": kept["centre"], "zoom": kept["zoom"]},
                           "renders": kept["renders"] - result["during"]["renders"]}
    # "Show all" fits the boats again.
    driver.find_element("id", "fleet-fit").click()
    time.sleep(0.3)
    result["show_all"] = read()

    # The end: every boat finished and ended; the page showing what the API gives now.
    def ended(d):
        data = d.execute_script("return window.oarlog.fleet.data")
        return (len(data["boats"]) == 3 and all(b["state"] == "ended" for b in data["boats"])
                and all(r["time_s"] is not None for r in data["race"]["results"]))
    result["step"] = "ended"
    wait.until(ended)
    result["step"] = "stable"
    def shows_the_api(d):
        shown, now = stable(d.execute_script("return window.oarlog.fleet.data")), stable(api())
        result["unstable"] = None if shown == now else [shown, now]
        return shown == now
    wait.until(shows_the_api)
    del result["unstable"]
    result["step"] = "after the race"
    result["api_end"] = api()
    result["end"] = read()
    driver.find_element("id", "fleet-fit").click()
    time.sleep(0.3)
    shoot("fleet-phone-end")
    scroll_to("fleet-boats")
    shoot("fleet-phone-end-boats")
    scroll_to("fleet-race")
    shoot("fleet-phone-end-results")
    scroll_to("fleet-gaps-panel")
    shoot("fleet-phone-end-gates")
    scroll_to("fleet-meetings")
    shoot("fleet-phone-end-meetings")

    # A tapped meeting: the map centred where the boats met.
    # Found and tapped in one script: the list is redrawn every second, so an element found first
    # and clicked later may be gone (Selenium's StaleElementReferenceException under load).
    driver.execute_script("[...document.querySelectorAll('#fleet-meetings li')].pop().click()")
    wait_renders(1)
    time.sleep(0.5)
    tapped = read()
    result["meeting_tapped"] = {"index": len(tapped["meetings"]) - 1, "centre": tapped["centre"], "zoom": tapped["zoom"]}

    chromium.resize(driver, chromium.LAPTOP)
    driver.execute_script("window.scrollTo(0, 0)")
    wait_renders(1)
    driver.find_element("id", "fleet-fit").click()
    time.sleep(0.3)
    result["laptop"] = read()
    shoot("fleet-laptop-end")

    # Silent for over 30 s (the replays are over): flagged.
    chromium.resize(driver, chromium.PHONE)
    wait.until(lambda d: all(b["heard_s_ago"] > 31 for b in d.execute_script("return window.oarlog.fleet.data.boats")))
    wait_renders(1)
    result["stale"] = read()
    scroll_to("fleet-boats")
    shoot("fleet-phone-stale")

    # Leaving the page stops the polling: no answer drawn in 2.5 s (the page polls every 1 s).
    driver.execute_script("location.hash = '#races'")
    time.sleep(0.5)
    left = renders()
    time.sleep(2.5)
    result["left"] = {"renders_before": left, "renders_after": renders()}
    # Back on the page: polling again.
    driver.execute_script("location.hash = '#fleet'")
    wait_renders(2)
    result["back"] = read()
    result["console"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/fleet-failure.png")
finally:
    driver.quit()
with open(f"{shots}/fleet-result.json", "w") as f:  # what was seen, to read when a check fails
    json.dump(result, f)
print(json.dumps(result))

#!/usr/bin/python3
"""Opens the live screen (#live) of Oarlog's web app in headless Chromium at phone size (390x844)
while the boat's server races a ghost, and reports what it showed: the chooser before the race
(its courses and attempts, the ghost chosen), then during the recording the gap in seconds and
metres, the gate rows as they came, the ghost's dot on the map, and whether anything is cut off
at the right. Screenshots of the chooser and of the race.

Usage: ghost_page.py BASE_URL TOKEN SCREENSHOT_DIR
(TOKEN: the control token, kept in localStorage as a paired phone keeps it; the recording is
started through the API, as the page's Start does)
Prints one JSON object; the Swift test (GhostPageTests) asserts on it.
"""
import json
import sys
import time
import urllib.request

import chromium

base, token, shots = sys.argv[1:4]
result = {"screenshots": []}
driver, wait = chromium.start()

READ = """
const $ = id => document.getElementById(id);
const panel = window.oarlog.live.ghost;
const map = window.oarlog.live.map;
const visible = [...document.querySelectorAll('#ghost-live *, #ghost-chooser *')].filter(e => e.getClientRects().length);
const outside = visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
  .map(e => e.id || e.className || e.tagName);
return {
  chooser_shown: !$('ghost-chooser').hidden,
  chosen: $('gh-chosen').textContent,
  courses: [...$('gh-course').options].map(o => o.textContent),
  attempts: [...$('gh-attempt').options].map(o => [o.value, o.textContent]),
  live_shown: !$('ghost-live').hidden,
  side: $('ghost-live').dataset.side || null,
  gap_s: $('gh-gap-s').textContent,
  gap_m: $('gh-gap-m').textContent,
  state: $('gh-state').textContent,
  gates: [...document.querySelectorAll('#gh-gates li')].map(li => [...li.children].map(c => c.textContent)),
  status_gap_s: panel.status ? panel.status.gap_s : null,
  status_gap_m: panel.status ? panel.status.gap_m : null,
  ghost_dot: map.ghost ? [map.ghost.getLatLng().lat, map.ghost.getLatLng().lng] : null,
  ghost_path_points: map.ghostPath ? map.ghostPath.getLatLngs().length : 0,
  gap_font_px: parseFloat(getComputedStyle($('gh-gap-s')).fontSize),
  outside,
};
"""


def shot(name):
    path = f"{shots}/ghost-{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def post(path):
    request = urllib.request.Request(base + path, data=b"{}", method="POST",
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


try:
    # Recording from the first seconds of the replay, before the crew reaches the start line.
    result["session"] = post("/api/record/start").get("id")
    driver.get(base + "/#live")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0]);", token)
    driver.get(base + "/#live")
    wait.until(lambda d: d.execute_script("return window.oarlog.live.ghost.status !== null"))
    result["first_status"] = driver.execute_script(READ)
    # Two gates crossed: the gap has grown for a while.
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('#gh-gates li').length >= 2"))
    time.sleep(0.5)
    driver.execute_script("document.getElementById('ghost-live').scrollIntoView({block: 'start'}); window.scrollBy(0, -40);")
    result["racing"] = driver.execute_script(READ)
    shot("racing")
    driver.execute_script("document.getElementById('map').scrollIntoView({block: 'center'});")
    time.sleep(0.3)
    shot("map")
    # Stopped: the chooser is back, with the course's attempts and the ghost still chosen.
    post("/api/record/stop")
    wait.until(lambda d: d.execute_script("return !document.getElementById('ghost-chooser').hidden && "
                                          "document.getElementById('gh-course').options.length > 1"))
    driver.execute_script("document.getElementById('ghost-chooser').scrollIntoView({block: 'center'});")
    time.sleep(0.3)
    result["after"] = driver.execute_script(READ)
    shot("chooser")
    result["console"] = chromium.console_errors(driver)
except Exception as error:  # noqa: BLE001 - reported to the Swift test
    chromium.report_failure(driver, result, error, f"{shots}/ghost-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

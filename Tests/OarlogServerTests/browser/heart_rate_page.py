#!/usr/bin/python3
"""The crew's heart rates on the live screen and a session's heart-rate and power plots, in one
headless Chromium session at phone size (390x844). First #live while the server replays a trace
with eight seats' heart rates (zones set for two seats through the API beforehand): the seats as
shown once the replay has ended (name, rate, zone printed, zone class, colour, size); then the
zones' settings section, where seat 5's maximum is set through its form; then the saved session's
page: the heart-rate and power plots' lines and points, and which panels are shown; last, the
session played back from 90 s: the seats as live.

Usage: heart_rate_page.py BASE_URL TOKEN SCREENSHOT_DIR SESSION_ID
Prints one JSON object; the Swift test (HeartRatePageTests) asserts on it.
"""
import json
import sys
import urllib.request

import chromium

base, token, shots, session = sys.argv[1:5]
result = {"screenshots": []}
driver, wait = chromium.start()

SEATS = """
const cells = [...document.querySelectorAll('#heart-rates .hr-cell')];
const visible = [...document.querySelectorAll('#heart-rates *')].filter(e => e.getClientRects().length);
return {
  seats: cells.map(c => ({
    sensor: c.dataset.sensor,
    bpm: c.querySelector('.hr-bpm').textContent,
    zone: c.querySelector('.hr-zone') ? c.querySelector('.hr-zone').textContent : '',
    classes: c.className,
    background: getComputedStyle(c).backgroundColor,
    font_px: parseFloat(getComputedStyle(c.querySelector('.hr-bpm')).fontSize),
  })),
  overflow: visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
    .map(e => e.className || e.tagName),
};
"""

SESSION = """
const page = window.oarlog.session.heartPower;
const shown = {};
for (const key of ['hr', 'power', 'angle', 'force']) shown[key] = !document.getElementById(key + '-panel').hidden;
return {
  shown,
  plotted: page.plotted,
  hr_note: document.querySelector('#hr-panel .plot-note').textContent,
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def shot(name):
    path = f"{shots}/hr-{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


try:
    driver.get(base + "/#live")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0]);", token)
    driver.get(base + "/#live")
    wait.until(lambda d: d.execute_script(
        "return document.body.dataset.ended === 'true' && document.querySelectorAll('#heart-rates .hr-seat').length === 8"
        " && document.querySelectorAll('#heart-rates .hr-seat[class*=\"zone-\"]').length >= 2"))
    result["live"] = driver.execute_script(SEATS)
    driver.execute_script("window.scrollTo(0, 0);")
    shot("live")

    # Seat 5's zones through the page's own form (the phone holds the token).
    driver.execute_script("const z = document.getElementById('hr-zones'); z.open = true; z.scrollIntoView({block: 'center'});")
    wait.until(lambda d: d.execute_script("return document.body.dataset.hrZones === '2'"))
    driver.find_element("id", "hrz-sensor").send_keys("5")
    driver.find_element("id", "hrz-max").send_keys("180")
    driver.find_element("id", "hrz-save").click()
    wait.until(lambda d: d.execute_script(
        "return document.body.dataset.hrZones === '3'"
        " && document.querySelector('#heart-rates .hr-seat[data-sensor=\"5\"]').dataset.zone !== ''"))
    result["zones_form"] = driver.execute_script("""
      return {
        rows: [...document.querySelectorAll('#hr-zones tbody tr')].map(tr => tr.children[0].textContent),
        seat5_zone: document.querySelector('#heart-rates .hr-seat[data-sensor="5"] .hr-zone').textContent,
        error: document.getElementById('hrz-error').textContent,
      };""")
    driver.execute_script("document.querySelector('#hr-zones form').scrollIntoView({block: 'end'}); window.scrollBy(0, 40);")
    shot("zones")

    driver.get(base + "/#session/" + session)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded === arguments[0]", session))
    result["session"] = driver.execute_script(SESSION)
    result["series"] = json.load(urllib.request.urlopen(f"{base}/api/sessions/{session}/series?fields=heart_rate,power&points=600"))
    # Under the page's bar (it stays at the top): the panel's title in sight.
    driver.execute_script("document.getElementById('hr-panel').scrollIntoView({block: 'start'}); window.scrollBy(0, -48);")
    shot("session")

    # Played back, the session shows the seats as live (from 90 s in, at 10x).
    driver.get(base + "/#play/" + session + "?at=90")
    wait.until(lambda d: d.execute_script("return document.body.dataset.playback === 'paused'"))
    driver.find_element("id", "pb-play").click()
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('#heart-rates .hr-seat').length === 8"))
    result["playback"] = driver.execute_script(SEATS)
    result["playback"]["elapsed_s"] = driver.execute_script("return window.oarlog.live.tiles.values.elapsed_s")
    driver.execute_script("window.scrollTo(0, 0);")
    shot("playback")
    result["console"] = chromium.console_errors(driver)
except Exception as error:
    chromium.report_failure(driver, result, error, f"{shots}/hr-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

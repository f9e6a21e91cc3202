#!/usr/bin/python3
"""Opens sessions' pages in Oarlog's web app in headless Chromium, at phone (390x844) and laptop
(1280x800) size, and reports what each showed; then adds a note on the first one.

Usage: session_page.py BASE_URL PAIRING_CODE SCREENSHOT_DIR SESSION_ID...
Prints one JSON object; the Swift test (BrowserTests) asserts on it.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, code, shots, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
result = {"screenshots": [], "sessions": {}}

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
    options.add_argument(a)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 60, poll_frequency=0.1)

SIZES = {"phone": {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True},
         "laptop": {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}}

READ = """
const p = window.oarlog.session;
const pin = m => m ? [m.getLatLng().lat, m.getLatLng().lng] : null;
const first = p.track && p.track.points.length ? p.track.points[0] : null;
const last = p.track && p.track.points.length ? p.track.points[p.track.points.length - 1] : null;
return {
  title: document.getElementById('session-title').textContent,
  summary: Object.fromEntries([...document.querySelectorAll('#session-summary td')].map(td => [td.dataset.key, {text: td.textContent, value: td.dataset.value}])),
  map_shown: !document.getElementById('session-map-panel').hidden,
  no_map_note: !document.getElementById('session-no-map').hidden,
  trail_points: p.track ? p.track.points.length : 0,
  first_point: first ? [first.lat, first.lon] : null,
  last_point: last ? [last.lat, last.lon] : null,
  start_pin: pin(p.startPin), end_pin: pin(p.endPin),
  split_disabled: document.getElementById('split-panel').classList.contains('disabled'),
  rate_disabled: document.getElementById('rate-panel').classList.contains('disabled'),
  rests: p.rests,
  map_width: document.getElementById('session-map').clientWidth,
  panel_width: document.getElementById('session-map-panel').clientWidth,
  plot_points: p.plotPoints,
  legend: document.getElementById('trail-legend').textContent,
  downloads: [...document.querySelectorAll('#session-downloads a')].map(a => a.getAttribute('href')),
  notes: [...document.querySelectorAll('#session-notes .note-text')].map(e => e.textContent),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def open_session(session_id):
    driver.get(base + "/#races")
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") is None)
    driver.get(base + "/#session/" + session_id)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == session_id)
    time.sleep(0.3)  # the map and plots draw


try:
    for n, session_id in enumerate(ids):
        seen = {}
        for size, metrics in SIZES.items():
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            open_session(session_id)
            seen[size] = driver.execute_script(READ)
            path = f"{shots}/session-{n}-{size}.png"
            driver.save_screenshot(path)
            result["screenshots"].append(path)
        # Tap the middle of the track: time, split and rate of the stroke rowed there.
        if seen["laptop"]["map_shown"]:
            seen["tap"] = driver.execute_script("""
                const p = window.oarlog.session, pts = p.track.points, mid = pts[Math.floor(pts.length / 2)];
                p.describe(L.latLng(mid.lat, mid.lon));
                return document.getElementById('trail-readout').textContent;""")
            choose = "const s = document.getElementById('colour-by'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));"
            driver.execute_script(choose, "rate")
            seen["legend_by_rate"] = driver.find_element(By.ID, "trail-legend").text
            driver.execute_script(choose, "split")
        result["sessions"][session_id] = seen

    # A note added on the first session's page at 5:00 (pairing first).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", SIZES["phone"])
    open_session(ids[0])
    for element_id in ("session-note-at", "session-note-text", "session-note-send"):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.ID, element_id))
    driver.find_element(By.ID, "session-note-at").send_keys("5:00")
    driver.find_element(By.ID, "session-note-text").send_keys("Rate up at the bridge")
    driver.find_element(By.ID, "session-note-send").click()
    wait.until(lambda d: d.find_element(By.ID, "pair-dialog").get_attribute("open") is not None)
    driver.find_element(By.ID, "pair-code").send_keys(code)
    driver.find_element(By.ID, "pair-ok").click()
    wait.until(lambda d: "Rate up at the bridge" in d.execute_script(
        "return [...document.querySelectorAll('#session-notes .note-text')].map(e => e.textContent)"))
    result["notes_after_add"] = driver.execute_script(
        "return [...document.querySelectorAll('#session-notes li')].map(e => e.textContent.trim())")
    driver.save_screenshot(f"{shots}/session-note.png")
    result["screenshots"].append(f"{shots}/session-note.png")
    result["console"] = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
except Exception as e:
    result["error"] = repr(e)
    try:
        driver.save_screenshot(f"{shots}/session-failure.png")
    except Exception:
        pass
finally:
    driver.quit()
print(json.dumps(result))

#!/usr/bin/python3
"""Opens sessions' pages in Oarlog's web app in headless Chromium, at phone (390x844) and laptop
(1280x800) size, and reports what each showed; then adds a note on the first one.

Usage: session_page.py BASE_URL PAIRING_CODE SCREENSHOT_DIR SESSION_ID...
Prints one JSON object; the Swift test (BrowserTests) asserts on it.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By

import chromium

base, code, shots, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
result = {"screenshots": [], "sessions": {}}

driver, wait = chromium.start()

SIZES = {"phone": chromium.PHONE, "laptop": chromium.LAPTOP}

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
            chromium.resize(driver, metrics)
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
    chromium.resize(driver, chromium.PHONE)
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

    # Playback of the first session: a seek to 75 % shows the session's figures there; at 60x the
    # strokes count on and the boat moves along its trail; pause holds it.
    def tile(key):
        return driver.execute_script("const t = document.getElementById('tile-' + arguments[0]); return t ? t.dataset.value : null", key)

    def playback_state():
        return driver.execute_script("return document.body.dataset.playback || null")

    driver.get(base + "/#races")
    driver.execute_script("delete document.body.dataset.playback")
    driver.get(base + "/#play/" + ids[0])
    wait.until(lambda d: playback_state() == "paused" and float(d.find_element(By.ID, "pb-slider").get_attribute("max")) > 1)
    duration = float(driver.find_element(By.ID, "pb-slider").get_attribute("max"))
    seek = round(duration * 0.75)
    driver.execute_script("""const s = document.getElementById('pb-slider'); s.value = arguments[0];
        s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));""", seek)
    wait.until(lambda d: tile("elapsed_s") not in (None, "") and abs(float(tile("elapsed_s")) - seek) < 0.01)
    time.sleep(0.3)
    result["playback_seek"] = {"seek": seek, "duration": duration, "elapsed": float(tile("elapsed_s")), "strokes": int(tile("strokes")),
                               "elapsed_label": driver.find_element(By.ID, "pb-elapsed").text,
                               "remaining_label": driver.find_element(By.ID, "pb-remaining").text,
                               "slider": float(driver.find_element(By.ID, "pb-slider").get_attribute("value")),
                               "last_note": tile("last_note")}
    driver.save_screenshot(f"{shots}/playback-seek.png")
    result["screenshots"].append(f"{shots}/playback-seek.png")
    driver.execute_script("const s = document.getElementById('pb-speed'); s.value = '60'; s.dispatchEvent(new Event('change'));")
    driver.find_element(By.ID, "pb-play").click()
    wait.until(lambda d: int(tile("strokes") or 0) >= result["playback_seek"]["strokes"] + 8)
    time.sleep(0.5)
    result["playback_play"] = {"state": playback_state(), "strokes": int(tile("strokes")), "elapsed": float(tile("elapsed_s")),
                               "trail_points": driver.execute_script("return window.oarlog.live.map.points"),
                               "plot_points": driver.execute_script("return window.oarlog.live.plot.points"),
                               "slider": float(driver.find_element(By.ID, "pb-slider").get_attribute("value"))}
    driver.save_screenshot(f"{shots}/playback-playing.png")
    result["screenshots"].append(f"{shots}/playback-playing.png")
    driver.find_element(By.ID, "pb-play").click()
    wait.until(lambda d: playback_state() == "paused")
    result["playback_paused_at"] = float(tile("elapsed_s"))
    # Leaving the playback gives the live screen back to the boat.
    driver.find_element(By.ID, "pb-exit").click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == ids[0])
    result["playback_closed"] = driver.execute_script("return !window.oarlog.playback.active && !document.body.classList.contains('playing-back')")
    result["console"] = chromium.console_errors(driver)
except Exception as e:
    result["error"] = repr(e)
    try:
        result["error_console"] = [e["message"] for e in driver.get_log("browser")]
        driver.save_screenshot(f"{shots}/session-failure.png")
    except Exception:
        pass
finally:
    driver.quit()
print(json.dumps(result))

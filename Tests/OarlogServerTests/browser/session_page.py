#!/usr/bin/python3
"""Opens sessions' pages in Oarlog's web app in headless Chromium, at phone (390x844) and laptop
(1280x800) size, and reports what each showed; then adds a note on the first one.

Usage: session_page.py BASE_URL PAIRING_CODE SCREENSHOT_DIR SESSION_ID... [workout:SESSION_ID] [long:SESSION_ID]
(workout: a session that rowed a plan, whose intervals table is read; long: a long session whose
first visit is timed)
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
const p = window.oarlog.session, m = p.map, pl = p.plots;
const pin = x => x ? [x.getLatLng().lat, x.getLatLng().lng] : null;
return {
  title: document.getElementById('session-title').textContent,
  summary: Object.fromEntries([...document.querySelectorAll('#session-summary td')].map(td => [td.dataset.key, {text: td.textContent, value: td.dataset.value}])),
  map_shown: !document.getElementById('session-map-panel').hidden,
  no_map_note: !document.getElementById('session-no-map').hidden,
  trail_points: m.points.length,
  start_pin: pin(m.startPin), end_pin: pin(m.endPin),
  split_disabled: document.getElementById('split-panel').classList.contains('disabled'),
  rate_disabled: document.getElementById('rate-panel').classList.contains('disabled'),
  rests: pl.restSpans,
  map_width: document.getElementById('session-map').clientWidth,
  panel_width: document.getElementById('session-map-panel').clientWidth,
  plot_points: pl.plotPoints,
  note_marks: pl.noteMarks,
  legend: document.getElementById('trail-legend').textContent,
  course_shown: m.courseShown || null,
  pieces_kind: p.pieces.kind,
  pieces: [...document.querySelectorAll('#pieces-table tbody tr')].map(tr => [...tr.children].map(td => td.textContent)),
  pieces_none: !document.getElementById('pieces-none').hidden,
  curve_title: document.getElementById('curve-title').textContent,
  curve_disabled: document.getElementById('curve-panel').classList.contains('disabled'),
  curve_plotted: p.curve.plotted,
  curve_average: p.curve.average,
  curve_quality: [...document.querySelectorAll('#curve-quality .quality-figure')].map(e => ({
    key: e.dataset.key, value: e.querySelector('.value').textContent, label: e.querySelector('.label').textContent,
    value_px: parseFloat(getComputedStyle(e.querySelector('.value')).fontSize), width: e.getBoundingClientRect().width})),
  downloads: [...document.querySelectorAll('#session-downloads a')].map(a => a.getAttribute('href')),
  notes: [...document.querySelectorAll('#session-notes .note-text')].map(e => e.textContent),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def open_session(session_id):
    """Opens a session's page; returns the seconds from navigation until everything on it was
    drawn (summary, plots, pieces, stroke curve, map)."""
    driver.get(base + "/#races")
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") is None)
    started = time.monotonic()
    driver.execute_script("location.hash = arguments[0]", "#session/" + session_id)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == session_id)
    ready = time.monotonic() - started
    time.sleep(0.3)  # the map and plots draw
    return ready


def against(value):
    driver.execute_script("const s = document.getElementById('plots-against'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));", value)
    return driver.execute_script("""const pl = window.oarlog.session.plots;
        return {points: pl.plotPoints, axis: pl.splitChart.options.scales.x.title.text, rests: pl.restSpans.length,
                last_x: Math.max(...pl.rateChart.data.datasets[0].data.filter(q => q.y != null).map(q => q.x))};""")


long_session = None
if ids and ids[-1].startswith("long:"):
    long_session = ids.pop()[len("long:"):]
workout_session = None
if ids and ids[-1].startswith("workout:"):
    workout_session = ids.pop()[len("workout:"):]

INTERVALS = """
const table = document.getElementById('pieces-table'), scroll = table.parentElement;
return {
  kind: window.oarlog.session.pieces.kind,
  title: document.getElementById('pieces-kind').textContent,
  workout_class: table.classList.contains('workout'),
  head: [...table.querySelectorAll('thead th')].map(th => th.textContent),
  rows: [...table.querySelectorAll('tbody tr[data-piece]')].map(tr => {
    // The target shown: its column, or on a phone the line under the interval.
    const line = tr.nextElementSibling && tr.nextElementSibling.matches('.target-line') ? tr.nextElementSibling : null;
    const column = tr.querySelector('td.target');
    const shown = column.offsetParent !== null ? column : line && line.offsetParent !== null ? line.querySelector('td.target') : null;
    return {
      kind: tr.dataset.kind, rest: tr.classList.contains('rest'), selected: tr.classList.contains('selected'),
      cells: [...tr.children].map(td => td.textContent),
      label: tr.querySelector('td.label').firstChild.textContent,
      target_in: shown === column ? 'column' : shown ? 'line' : null,
      target: shown ? [...shown.querySelectorAll('.target-part')].map(p => ({
        what: p.dataset.target, band: p.querySelector('.band').textContent, share: p.querySelector('.share').dataset.value,
        marker: p.querySelector('.marker') ? p.querySelector('.marker').dataset.band : null})) : [],
      target_text: shown ? shown.textContent : null,
      font_px: parseFloat(getComputedStyle(tr.children[2]).fontSize)};
  }),
  curve_title: document.getElementById('curve-title').textContent,
  curve_strokes: window.oarlog.session.curve.average ? window.oarlog.session.curve.average.strokes : null,
  table_width: table.getBoundingClientRect().width, scroll_width: scroll.clientWidth,
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def read_workout(session_id):
    """A session that rowed a plan, at phone and laptop size: its intervals table, the curve of
    the piece picked first, and the third interval's curve once its row is tapped."""
    seen = {}
    for size, metrics in SIZES.items():
        chromium.resize(driver, metrics)
        open_session(session_id)
        # Under the page's bar (it stays at the top): the panel's title in sight.
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'}); window.scrollBy(0, -48)", driver.find_element(By.ID, "pieces-panel"))
        time.sleep(0.3)
        seen[size] = driver.execute_script(INTERVALS)
        path = f"{shots}/session-workout-{size}.png"
        driver.save_screenshot(path)
        result["screenshots"].append(path)
    rows = driver.find_elements(By.CSS_SELECTOR, "#pieces-table tbody tr[data-piece]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rows[2])
    rows[2].click()
    wait.until(lambda d: d.execute_script("const c = window.oarlog.session.curve; return c.piece && c.piece.piece === 2 && c.average !== null"))
    seen["third"] = driver.execute_script("const c = window.oarlog.session.curve; return {title: document.getElementById('curve-title').textContent, strokes: c.average.strokes, piece_strokes: c.average.piece_strokes, label: c.piece.label}")
    chromium.resize(driver, chromium.PHONE)
    time.sleep(0.3)
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", driver.find_element(By.ID, "curve-panel"))
    time.sleep(0.3)
    path = f"{shots}/session-workout-phone-curve.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)
    return seen

try:
    if long_session:
        # A 10-hour session, first visit (nothing cached): how long until the page is usable.
        chromium.resize(driver, chromium.PHONE)
        result["long_ready_s"] = open_session(long_session)
        result["long"] = driver.execute_script(READ)
        result["long"]["summary"] = None
        driver.save_screenshot(f"{shots}/session-long-phone.png")
        result["screenshots"].append(f"{shots}/session-long-phone.png")
    if workout_session:
        result["workout"] = read_workout(workout_session)
    for n, session_id in enumerate(ids):
        seen = {}
        for size, metrics in SIZES.items():
            chromium.resize(driver, metrics)
            seen[size + "_ready_s"] = open_session(session_id)
            seen[size] = driver.execute_script(READ)
            path = f"{shots}/session-{n}-{size}.png"
            driver.save_screenshot(path)
            result["screenshots"].append(path)
            if size == "phone":
                # Further down the phone's screen: the plots, the pieces and the stroke curve.
                for panel in ("split-panel", "pieces-panel", "curve-panel"):
                    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", driver.find_element(By.ID, panel))
                    time.sleep(0.2)
                    path = f"{shots}/session-{n}-phone-{panel}.png"
                    driver.save_screenshot(path)
                    result["screenshots"].append(path)
        # The plots against distance, and back.
        seen["against_distance"] = against("distance")
        driver.save_screenshot(f"{shots}/session-{n}-laptop-distance.png")
        result["screenshots"].append(f"{shots}/session-{n}-laptop-distance.png")
        seen["against_time"] = against("time")
        # The stroke curve: one stroke on from the average, then back to the average.
        if not seen["laptop"]["curve_disabled"]:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.ID, "curve-next"))
            driver.find_element(By.ID, "curve-next").click()
            wait.until(lambda d: d.execute_script("return window.oarlog.session.curve.plotted.single") > 0)
            seen["curve_single"] = driver.execute_script("return {title: document.getElementById('curve-title').textContent, plotted: window.oarlog.session.curve.plotted, stroke: window.oarlog.session.curve.stroke}")
            driver.save_screenshot(f"{shots}/session-{n}-laptop-stroke.png")
            result["screenshots"].append(f"{shots}/session-{n}-laptop-stroke.png")
            driver.find_element(By.ID, "curve-prev").click()
            wait.until(lambda d: d.execute_script("return window.oarlog.session.curve.stroke") is None)
            # The second piece's row picks its curve.
            rows = driver.find_elements(By.CSS_SELECTOR, "#pieces-table tbody tr")
            if len(rows) > 1:
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", rows[1])
                rows[1].click()
                wait.until(lambda d: d.execute_script("const c = window.oarlog.session.curve; return c.piece && c.piece.piece === 1 && c.average !== null"))
                seen["second_piece_curve"] = driver.execute_script("const c = window.oarlog.session.curve; return {title: document.getElementById('curve-title').textContent, strokes: c.average.strokes, start_s: c.piece.start_s, end_s: c.piece.end_s, highlighted: window.oarlog.session.map.highlighted}")
                driver.save_screenshot(f"{shots}/session-{n}-laptop-piece-2.png")
                result["screenshots"].append(f"{shots}/session-{n}-laptop-piece-2.png")
        # Tap the middle of the track: time, split and rate of the stroke rowed there.
        if seen["laptop"]["map_shown"]:
            seen["tap"] = driver.execute_script("""
                const m = window.oarlog.session.map, pts = m.points, mid = pts[Math.floor(pts.length / 2)];
                m.describe(L.latLng(mid.lat, mid.lon));
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
        "return [...document.querySelectorAll('#session-notes li')].map(e => (e.querySelector('.note-time')?.textContent ?? '') + ' ' + (e.querySelector('.note-text')?.textContent ?? ''))")
    result["note_marks_after_add"] = driver.execute_script("return window.oarlog.session.plots.noteMarks")
    driver.save_screenshot(f"{shots}/session-note.png")
    result["screenshots"].append(f"{shots}/session-note.png")
    # Edit it: new words, moved to 6:30.
    edit = driver.find_element(By.CSS_SELECTOR, "#session-notes .note-edit")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", edit)
    edit.click()
    at = driver.find_element(By.CSS_SELECTOR, "#session-notes form .note-at")
    at.clear()
    at.send_keys("6:30")
    words = driver.find_element(By.CSS_SELECTOR, "#session-notes form .note-text-edit")
    words.clear()
    words.send_keys("Rate up after the bridge")
    driver.save_screenshot(f"{shots}/session-note-edit.png")
    result["screenshots"].append(f"{shots}/session-note-edit.png")
    driver.find_element(By.CSS_SELECTOR, "#session-notes form button[type=submit]").click()
    wait.until(lambda d: "Rate up after the bridge" in d.execute_script(
        "return [...document.querySelectorAll('#session-notes .note-text')].map(e => e.textContent)"))
    result["notes_after_edit"] = driver.execute_script(
        "return [...document.querySelectorAll('#session-notes li')].map(e => (e.querySelector('.note-time')?.textContent ?? '') + ' ' + (e.querySelector('.note-text')?.textContent ?? ''))")
    # Share link: a link that opens this one session read-only, for a crew member's phone.
    share = driver.find_element(By.ID, "share-make")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", share)
    share.click()
    wait.until(lambda d: d.find_element(By.ID, "share-url").is_displayed())
    result["share_link"] = driver.find_element(By.ID, "share-url").get_attribute("value")
    result["share_note"] = driver.find_element(By.CSS_SELECTOR, "#share-link-box .nodata-note").text
    driver.save_screenshot(f"{shots}/session-share.png")
    result["screenshots"].append(f"{shots}/session-share.png")

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
    # The paused playback at laptop size too.
    chromium.resize(driver, chromium.LAPTOP)
    time.sleep(0.3)
    driver.save_screenshot(f"{shots}/playback-laptop.png")
    result["screenshots"].append(f"{shots}/playback-laptop.png")
    result["playback_laptop_overflow_x"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
    chromium.resize(driver, chromium.PHONE)
    # Leaving the playback gives the live screen back to the boat.
    driver.find_element(By.ID, "pb-exit").click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == ids[0])
    result["playback_closed"] = driver.execute_script("return !window.oarlog.playback.active && !document.body.classList.contains('playing-back')")
    result["console"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/session-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

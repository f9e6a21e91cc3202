#!/usr/bin/python3
"""Drives Oarlog's web app in headless Chromium as a cox would on a phone (390x844).

Usage: live_page.py BASE_URL PAIRING_CODE SCREENSHOT_DIR WARMUP_SESSION_ID [WORKOUT_BASE_URL WORKOUT_TOKEN]
(WARMUP_SESSION_ID: a session already in the data directory, which the page deletes; WORKOUT_BASE_URL:
a second server, a replay with a coach's plan waiting, for the workout on the live screen: live_workout.py)
Prints one JSON object with what the page showed; the Swift test (BrowserTests) asserts on it.
Run with /usr/bin/python3 (Debian's python3-selenium), chromium and chromedriver from Debian.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By

import chromium
import live_workout

base, code, shots, warmup = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
workout_server = sys.argv[5:7]
result = {"screenshots": [], "console": []}

driver, wait = chromium.start()


def shot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def tile(key):
    return driver.find_element(By.ID, "tile-" + key).get_attribute("data-value")


def tile_order():
    return [t.get_attribute("id")[len("tile-"):] for t in driver.find_elements(By.CSS_SELECTOR, "#tiles .tile")]


def setting(label):
    """The settings row of the tile labelled LABEL (rows are rebuilt after every change)."""
    for li in driver.find_elements(By.CSS_SELECTOR, "#tile-settings li"):
        if li.find_element(By.TAG_NAME, "label").text.strip() == label:
            return li
    raise LookupError(label)


def overflowing_tiles():
    """Tiles whose figure is wider than the tile (cut off on the screen)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#tiles .tile .value')].filter(v => v.scrollWidth > v.clientWidth).map(v => v.parentElement.id)")


def race(session_id):
    return driver.find_element(By.CSS_SELECTOR, f'#race-list li.race[data-id="{session_id}"]')


def race_title(session_id):
    """Read in the page itself: the list is rebuilt after every change (no stale elements)."""
    return driver.execute_script(
        "const e = document.querySelector(`#race-list li.race[data-id=\"${arguments[0]}\"] .race-title`); return e ? e.textContent : null",
        session_id)


def race_ids():
    return driver.execute_script("return [...document.querySelectorAll('#race-list li.race')].map(li => li.dataset.id)")


try:
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    wait.until(lambda d: tile("strokes") not in (None, "", "0"))
    wait.until(lambda d: d.execute_script("return window.oarlog.live.plot.points") > 20)
    result["before_start"] = {"gps": driver.find_element(By.ID, "sensor-gps").get_attribute("data-state"),
                              "accel": driver.find_element(By.ID, "sensor-accel").get_attribute("data-state"),
                              "plot_points": driver.execute_script("return window.oarlog.live.plot.points")}
    shot("live-before-start")

    # Before the start the cox hides a tile and moves another; this phone remembers it.
    result["tiles_default"] = tile_order()
    driver.find_element(By.CSS_SELECTOR, "details.tile-settings summary").click()
    setting("Elapsed").find_element(By.TAG_NAME, "input").click()
    for _ in range(2):
        setting("Strokes").find_element(By.CSS_SELECTOR, "button[aria-label^='move Strokes up']").click()
    result["tiles_changed"] = tile_order()
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    result["tiles_after_reload"] = tile_order()
    driver.execute_script("localStorage.removeItem('oarlog.tiles')")
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    wait.until(lambda d: tile("strokes") not in (None, "", "0"))
    result["tiles_reset"] = tile_order()

    # Ready shows a big Start (nothing starts yet); Start pairs this phone, then counts down.
    driver.find_element(By.ID, "ready").click()
    result["start_visible_after_ready"] = driver.find_element(By.ID, "start").is_displayed()
    result["recording_after_ready"] = driver.execute_script("return window.oarlog.live.recording")
    driver.find_element(By.ID, "start").click()
    wait.until(lambda d: d.find_element(By.ID, "pair-dialog").get_attribute("open") is not None)
    driver.find_element(By.ID, "pair-code").send_keys(code)
    driver.find_element(By.ID, "pair-ok").click()
    wait.until(lambda d: d.find_element(By.ID, "countdown").is_displayed())
    seen = []
    t0 = time.time()
    while time.time() - t0 < 6:
        text = driver.find_element(By.ID, "countdown").text
        if text and (not seen or seen[-1] != text):
            seen.append(text)
        if text == "Go!":
            break
        time.sleep(0.05)
    result["countdown"] = seen
    wait.until(lambda d: d.execute_script("return window.oarlog.live.recording") is not None)
    session = driver.execute_script("return window.oarlog.live.recording")
    result["session"] = session
    wait.until(lambda d: int(tile("strokes") or 0) >= 3)
    note = driver.find_element(By.ID, "note-text")
    note.send_keys("Catch together")
    driver.find_element(By.ID, "note-send").click()
    wait.until(lambda d: tile("last_note") == "Catch together")
    result["portrait_overflow"] = overflowing_tiles()
    # The page scrolls (tiles, plot, map, Stop, notes); the sensors' bar stays in sight.
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    time.sleep(0.2)
    result["scrolled_bar"] = driver.execute_script(
        "return {scroll_y: window.scrollY, bar_top: document.querySelector('header.bar').getBoundingClientRect().top}")
    shot("live-racing")
    time.sleep(1)
    driver.find_element(By.ID, "stop").click()
    wait.until(lambda d: d.find_element(By.ID, "summary").is_displayed())
    result["summary_title"] = driver.find_element(By.ID, "summary-title").text
    result["summary"] = {td.get_attribute("data-key"): td.text for td in driver.find_elements(By.CSS_SELECTOR, "#summary-table td")}
    shot("live-summary")

    # The replay runs to its end: the tiles hold the final figures.
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "true")
    time.sleep(0.3)
    result["final"] = {k: tile(k) for k in ("strokes", "distance_m", "elapsed_s", "distance_per_stroke_m")}
    result["final_overflow"] = overflowing_tiles()
    driver.execute_script("window.scrollTo(0, 0)")
    shot("live-final")
    result["trail_points"] = driver.execute_script("return window.oarlog.live.map.points")

    # The race list shows the session; the search finds it by its note.
    driver.get(base + "/#races")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#race-list li.race")) >= 1)
    result["races"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    listed = lambda q: (lambda d: d.execute_script("return document.getElementById('race-list').dataset.query") == q)
    search = driver.find_element(By.ID, "race-search")
    search.send_keys("catch together")
    wait.until(listed("search=catch+together"))
    result["search_hits"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    search.clear()
    search.send_keys("no such words")
    wait.until(listed("search=no+such+words"))
    result["search_misses"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    search.clear()
    search.send_keys(" ")
    wait.until(listed(""))
    shot("race-list")

    # Downloads: the links of the race, and what the FIT link gives.
    result["downloads"] = driver.execute_script(
        "return [...document.querySelectorAll(`#race-list li.race[data-id=\"${arguments[0]}\"] a.download`)].map(a => a.getAttribute('href'))",
        session)
    result["fit_download"] = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then(async r => done({status: r.status, type: r.headers.get('content-type'),
            disposition: r.headers.get('content-disposition'), bytes: (await r.arrayBuffer()).byteLength}))
          .catch(e => done({error: String(e)}));""", result["downloads"][0] if result["downloads"] else "/none")

    # Rename through the page; delete asks first (Cancel keeps it, OK deletes it).
    race(session).find_element(By.CSS_SELECTOR, "button.rename").click()
    prompt = wait.until(lambda d: d.switch_to.alert)
    prompt.send_keys("Head race, second crew")
    prompt.accept()
    wait.until(lambda d: race_title(session) == "Head race, second crew")
    result["renamed_title"] = race_title(session)
    race(warmup).find_element(By.CSS_SELECTOR, "button.delete").click()
    confirm = wait.until(lambda d: d.switch_to.alert)
    result["delete_question"] = confirm.text
    confirm.dismiss()
    time.sleep(0.5)
    result["races_after_cancel"] = race_ids()
    race(warmup).find_element(By.CSS_SELECTOR, "button.delete").click()
    wait.until(lambda d: d.switch_to.alert).accept()
    wait.until(lambda d: len(race_ids()) == len(result["races_after_cancel"]) - 1)
    result["races_after_delete"] = race_ids()

    # The live screen in landscape (a phone turned on its side in a holder).
    chromium.resize(driver, chromium.PHONE_LANDSCAPE)
    driver.get(base + "/#live")
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    wait.until(lambda d: tile("strokes") not in (None, "", "0"))
    time.sleep(0.5)
    result["landscape_columns"] = driver.execute_script(
        "return getComputedStyle(document.getElementById('tiles')).gridTemplateColumns.split(' ').length")
    result["landscape_overflow"] = overflowing_tiles()
    shot("live-landscape")
    result["console"] = chromium.console_errors(driver)
    if workout_server:
        live_workout.run(driver, wait, workout_server[0], workout_server[1], shots, result)
except Exception as e:  # report what the page showed so far
    result["error"] = repr(e)
    try:
        shot("failure")
    except Exception:
        pass
finally:
    driver.quit()
print(json.dumps(result))

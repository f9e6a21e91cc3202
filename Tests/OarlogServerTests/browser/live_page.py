#!/usr/bin/python3
"""Drives Oarlog's web app in headless Chromium as a cox would on a phone (390x844).

Usage: live_page.py BASE_URL PAIRING_CODE SCREENSHOT_DIR
Prints one JSON object with what the page showed; the Swift test (BrowserTests) asserts on it.
Run with /usr/bin/python3 (Debian's python3-selenium), chromium and chromedriver from Debian.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, code, shots = sys.argv[1], sys.argv[2], sys.argv[3]
result = {"screenshots": [], "console": []}

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
    options.add_argument(a)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
wait = WebDriverWait(driver, 60, poll_frequency=0.1)


def shot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def tile(key):
    return driver.find_element(By.ID, "tile-" + key).get_attribute("data-value")


try:
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    wait.until(lambda d: tile("strokes") not in (None, "", "0"))
    wait.until(lambda d: d.execute_script("return window.oarlog.live.plot.points") > 20)
    result["before_start"] = {"gps": driver.find_element(By.ID, "sensor-gps").get_attribute("data-state"),
                              "accel": driver.find_element(By.ID, "sensor-accel").get_attribute("data-state"),
                              "plot_points": driver.execute_script("return window.oarlog.live.plot.points")}
    shot("live-before-start")

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
    result["trail_points"] = driver.execute_script("return window.oarlog.live.map.points")

    # The race list shows the session; the search finds it by its note.
    driver.get(base + "/#races")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#race-list li.race")) >= 1)
    result["races"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    time.sleep(1)  # the notes for the search load after the list
    search = driver.find_element(By.ID, "race-search")
    search.send_keys("catch together")
    time.sleep(0.3)
    result["search_hits"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    search.clear()
    search.send_keys("no such words")
    time.sleep(0.3)
    result["search_misses"] = [li.get_attribute("data-id") for li in driver.find_elements(By.CSS_SELECTOR, "#race-list li.race")]
    search.clear()
    search.send_keys(" ")
    time.sleep(0.3)
    shot("race-list")
    result["console"] = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
except Exception as e:  # report what the page showed so far
    result["error"] = repr(e)
    try:
        shot("failure")
    except Exception:
        pass
finally:
    driver.quit()
print(json.dumps(result))

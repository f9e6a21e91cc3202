#!/usr/bin/python3
"""Opens a playback's share link (#play/ID?share=KEY) in a browser that was never paired, on a
server whose live replay has ended, and reports what the screen showed before and after Play;
then the same session with a wrong key.

Usage: playback_share.py BASE_URL SESSION_ID SHARE_KEY SCREENSHOT_DIR
Prints one JSON object; the Swift test (StreamLimitsTests) asserts on it.
"""
import json
import sys

from selenium.webdriver.common.by import By

import chromium

base, session, key, shots = sys.argv[1:5]
result = {"screenshots": []}
driver, wait = chromium.start()

READ = """
const b = document.getElementById('recording-banner');
return {banner_shown: !b.hidden, banner: b.textContent, playback: document.body.dataset.playback || null,
        live_ended: document.body.dataset.ended || null, pair_dialog: document.getElementById('pair-dialog').open,
        strokes: Number(document.getElementById('tile-strokes').dataset.value || 0),
        token: localStorage.getItem('oarlog.token')};
"""


def read():
    return driver.execute_script(READ)


try:
    # The live screen first: its replay has ended, so it shows the replay's banner.
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")
    wait.until(lambda d: read()["banner_shown"])
    result["live"] = read()
    # The share link: the playback stands paused at 0, without the live stream's banner.
    driver.get(f"{base}/#play/{session}?share={key}")
    wait.until(lambda d: read()["playback"] == "paused")
    wait.until(lambda d: d.execute_script("return window.oarlog.playback.duration") > 0)
    # Let the live stream's next messages arrive (a status every few hundred ms): they must not show.
    driver.execute_script("window.__t = Date.now()")
    wait.until(lambda d: d.execute_script("return Date.now() - window.__t") > 1500)
    result["before_play"] = read()
    path = f"{shots}/playback-share-before-play.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)
    driver.find_element(By.ID, "pb-play").click()
    wait.until(lambda d: read()["strokes"] >= 5)
    result["playing"] = read()
    result["console"] = chromium.console_errors(driver)
    # A wrong key: the socket is refused and the screen says the playback closed.
    driver.get("about:blank")
    driver.get(f"{base}/#play/{session}?share={'0' * 32}")
    wait.until(lambda d: read()["banner_shown"] and "closed" in read()["banner"])
    result["wrong_key"] = read()
except Exception as e:  # what the page was doing when it stopped
    chromium.report_failure(driver, result, e, f"{shots}/playback-share-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

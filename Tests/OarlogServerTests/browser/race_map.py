#!/usr/bin/python3
"""Opens all races on a map (#map) in Oarlog's web app in headless Chromium, at phone (390x844)
and laptop (1280x800) size, and reports what it showed: the markers (their counts, size, whether
each is inside the map), the line counting sessions without GPS, the sessions listed when a
marker is tapped; then follows a listed session's link. With EMPTY_BASE_URL, also what the page
says for a boat with no sessions.

Usage: race_map.py BASE_URL SCREENSHOT_DIR [EMPTY_BASE_URL]
Prints one JSON object; the Swift test (RaceMapTests) asserts on it.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By

import chromium

base, shots = sys.argv[1], sys.argv[2]
empty_base = sys.argv[3] if len(sys.argv) > 3 else None
result = {"screenshots": []}

driver, wait = chromium.start()

SIZES = {"phone": chromium.PHONE, "laptop": chromium.LAPTOP}

READ = """
const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
const map = document.getElementById('race-map');
const shown = id => !document.getElementById(id).hidden;
return {
  markers: [...document.querySelectorAll('#race-map .race-place')].map(m => ({count: m.textContent.trim(), rect: rect(m), selected: m.classList.contains('selected')})),
  labels: [...document.querySelectorAll('#race-map .race-place-label')].map(e => e.textContent).sort(),
  label_rects: [...document.querySelectorAll('#race-map .race-place-label')].map(rect),
  map_rect: shown('race-map-panel') ? rect(map) : null,
  map_shown: shown('race-map-panel'),
  no_gps: shown('race-map-no-gps') ? document.getElementById('race-map-no-gps').textContent : null,
  empty: shown('race-map-empty') ? document.getElementById('race-map-empty').textContent : null,
  group_shown: shown('race-map-group'),
  hint_shown: shown('race-map-panel') && shown('race-map-hint'),
  group_title: document.getElementById('race-map-group-title').textContent,
  listed: [...document.querySelectorAll('#race-map-list .race')].map(li => ({
    id: li.dataset.id, title: li.querySelector('.race-title').textContent, href: li.querySelector('.race-title').getAttribute('href'),
    date: li.querySelector('.race-date').textContent, figures: li.querySelector('.race-figures').textContent.trim().split(/\\s+/).join(' '),
  })),
  nav_active: [...document.querySelectorAll('nav a.active')].map(a => a.id),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def open_map(url):
    """Opens the map page, in a fresh page, from the race list (so the route changes as a tap on
    the nav does)."""
    driver.get("about:blank")  # from the app's own #map, a get would only change the hash
    driver.get(url + "/#races")
    wait.until(lambda d: d.execute_script("return window.oarlog !== undefined && !document.getElementById('races').hidden"))
    driver.execute_script("location.hash = '#map'")
    wait.until(lambda d: d.execute_script("return window.oarlog.raceMap.loaded"))
    time.sleep(0.3)  # the map settles
    return driver.execute_script(READ)


def tap_marker(count):
    """Taps (a real click, at the marker's middle) the marker that shows `count`."""
    marker = next(m for m in driver.find_elements(By.CSS_SELECTOR, "#race-map .race-place") if m.text.strip() == count)
    marker.click()
    wait.until(lambda d: d.execute_script("return !document.getElementById('race-map-group').hidden"))
    time.sleep(0.5)  # the list scrolls into view
    return driver.execute_script(READ)


def shoot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


try:
    for size, metrics in SIZES.items():
        chromium.resize(driver, metrics)
        seen = {"opened": open_map(base)}
        seen["tapped_2"] = tap_marker("2")
        seen["tapped_1"] = tap_marker("1")
        seen["tapped_2_again"] = tap_marker("2")
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.3)
        shoot(f"race-map-{size}")
        result[size] = seen
    # A listed session's link opens that session's page.
    first = driver.find_element(By.CSS_SELECTOR, "#race-map-list .race .race-title")
    linked = first.get_attribute("href").split("#session/", 1)[-1]
    first.click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == linked)
    result["followed"] = {"hash": driver.execute_script("return location.hash"),
                          "loaded": driver.execute_script("return document.body.dataset.sessionLoaded"),
                          "title": driver.execute_script("return document.getElementById('session-title').textContent")}
    # The grouping itself, on starts 250 m apart along a meridian (one place, then the third 500 m
    # from the first: a second place) and 350 m apart (two places).
    result["grouping"] = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/race-map.js').then(m => {
          const at = metres => ({start_lat_deg: 51 + metres / 111195.08, start_lon_deg: -0.2});
          const counts = starts => m.groupByPlace(starts.map(at)).map(g => g.sessions.length);
          done({m250: counts([0, 250, 500]), m350: counts([0, 350]), same: counts([0, 0, 0])});
        }).catch(e => done({error: String(e)}));""")
    result["console"] = chromium.console_errors(driver)
    if empty_base:
        chromium.resize(driver, chromium.PHONE)
        result["empty"] = open_map(empty_base)
        shoot("race-map-empty-phone")
        result["console_empty"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/race-map-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

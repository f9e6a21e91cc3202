#!/usr/bin/python3
"""Uses the race list's filters (#races) in headless Chromium as a coach would: words typed in the
search, dates, a least distance, a rate range, a boat, an order; then opens the list from an
address with its filters (#races?…). Then imports: a file chosen with the picker, the same file
and another dropped on the list (a synthetic drop, as a folder's files arrive), each summary read
and the list after it. Reports, for each step, the sessions listed (ids, in order),
the filters' query the list says it shows, the count line and whether anything overflows; the
Swift test (RaceListTests) compares each with /api/sessions and `oarlog sessions --json` for the
same filters.

Usage: race_list.py BASE_URL SCREENSHOT_DIR IMPORT_BASE_URL IMPORT_TOKEN PICKED_FILE DROPPED_FILE
Prints one JSON object.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import chromium

base, shots, import_base, token, picked, dropped = sys.argv[1:7]
result = {"screenshots": [], "steps": {}}
driver, wait = chromium.start()

READ = """
return {
  query: document.getElementById('race-list').dataset.query,
  ids: [...document.querySelectorAll('#race-list li.race')].map(li => li.dataset.id),
  titles: [...document.querySelectorAll('#race-list li.race .race-title')].map(a => a.textContent),
  damaged: [...document.querySelectorAll('#race-list .race-damaged')].map(p => p.textContent),
  count: document.getElementById('race-count').textContent,
  near: document.getElementById('race-near').hidden ? null : document.getElementById('race-near-text').textContent,
  error: document.getElementById('race-error').hidden ? null : document.getElementById('race-error').textContent,
  hash: location.hash,
  boats: [...document.querySelectorAll('#race-boat option')].map(o => o.value),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""

IMPORT_READ = """
return {
  counts: document.querySelector('#race-import-summary .race-import-counts').textContent,
  refused: [...document.querySelectorAll('#race-import-summary .race-import-refused li')].map(li => li.textContent),
  titles: [...document.querySelectorAll('#race-list li.race .race-title')].map(a => a.textContent),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""

# Files dropped on the race list, as the browser hands a drop over (a DataTransfer of files).
DROP = """
const dt = new DataTransfer();
for (const [name, text] of arguments[0]) dt.items.add(new File([text], name, { type: 'text/csv' }));
document.getElementById('races').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
"""


def settled(expected_query):
    """Waits until the list shows the answer to `expected_query`, then reads it."""
    wait.until(lambda d: d.execute_script("return document.getElementById('race-list').dataset.query") == expected_query)
    return driver.execute_script(READ)


def shoot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def value(element_id, text):
    e = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", e, text)


try:
    driver.get(base + "/#races")
    result["steps"]["all"] = settled("")
    search = driver.find_element(By.ID, "race-search")
    search.send_keys("bridge")
    result["steps"]["search"] = settled("search=bridge")
    driver.find_element(By.ID, "race-filter-toggle").click()
    value("race-from", "2026-05-03")
    result["steps"]["search_from"] = settled("search=bridge&from=2026-05-03")
    search.clear()
    search.send_keys(" ")
    value("race-to", "2026-05-31")
    result["steps"]["from_to"] = settled("from=2026-05-03&to=2026-05-31")
    value("race-from", "")
    value("race-to", "")
    value("race-min-distance", "800")
    result["steps"]["min_distance"] = settled("min_distance=800")
    value("race-min-distance", "")
    value("race-rate-low", "28")
    value("race-rate-high", "36")
    result["steps"]["rate"] = settled("rate=28-36")
    value("race-rate-low", "")
    value("race-rate-high", "")
    Select(driver.find_element(By.ID, "race-boat")).select_by_value("Eight")
    driver.execute_script("document.getElementById('race-boat').dispatchEvent(new Event('change'))")
    result["steps"]["boat"] = settled("boat=Eight")
    Select(driver.find_element(By.ID, "race-sort")).select_by_value("split")
    driver.execute_script("document.getElementById('race-sort').dispatchEvent(new Event('change'))")
    result["steps"]["boat_by_split"] = settled("boat=Eight&sort=split")
    shoot("race-list-filters-phone")
    driver.find_element(By.ID, "race-filter-clear").click()
    result["steps"]["cleared"] = settled("")
    # Nothing matches: said so.
    search.send_keys("henley")
    result["steps"]["none"] = settled("search=henley")
    search.clear()
    # From an address (as the race map's "Every session that passed here" opens it).
    driver.get(base + "/#races?near=51.48730,-0.22410,300&sort=distance")
    driver.refresh()
    result["steps"]["address"] = settled("sort=distance&near=51.48730%2C-0.22410%2C300")
    shoot("race-list-near-phone")
    driver.find_element(By.ID, "race-near-clear").click()
    result["steps"]["near_cleared"] = settled("sort=distance")
    chromium.resize(driver, chromium.LAPTOP)
    time.sleep(0.3)
    result["steps"]["laptop"] = driver.execute_script(READ)
    shoot("race-list-laptop")
    # Import at phone size, on a second boat (its own sessions, so the steps above stay as
    # they were): a file chosen, then a drop of that file again and another.
    chromium.resize(driver, chromium.PHONE)
    driver.get(import_base + "/#races")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.refresh()
    settled("")
    driver.find_element(By.ID, "race-import-files").send_keys(picked)
    wait.until(lambda d: not d.find_element(By.ID, "race-import-summary").get_attribute("hidden")
               and len(d.find_elements(By.CSS_SELECTOR, "#race-list li.race")) == 1)
    result["picked"] = driver.execute_script(IMPORT_READ)
    shoot("race-list-import-phone")
    driver.find_element(By.CSS_SELECTOR, "#race-import-summary button").click()
    with open(dropped, encoding="utf-8") as f:
        dropped_text = f.read()
    with open(picked, encoding="utf-8") as f:
        picked_text = f.read()
    driver.execute_script(DROP, [["again.csv", picked_text], ["dropped.csv", dropped_text], ["notes.csv", "hello, rowers\n"]])
    wait.until(lambda d: not d.find_element(By.ID, "race-import-summary").get_attribute("hidden")
               and len(d.find_elements(By.CSS_SELECTOR, "#race-list li.race")) == 2)
    result["dropped"] = driver.execute_script(IMPORT_READ)
    shoot("race-list-import-drop-phone")
    result["console"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/race-list-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

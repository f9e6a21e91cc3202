#!/usr/bin/python3
"""Opens the challenges page (#challenges) of Oarlog's web app in headless Chromium at phone size
(390x844) and reports what it showed: each challenge card (id, state, its attempt's time), the
linked attempt's track on the map (its points), whether anything is cut off at the right; then
accepts the attempt waiting on WAITING_ID with a note, and sets a challenge through the form.

Usage: challenges_page.py BASE_URL TOKEN SCREENSHOT_DIR WAITING_ID
Prints one JSON object; the Swift test (ChallengesPageTests) asserts on it.
"""
import json
import sys

from selenium.webdriver.common.by import By

import chromium

base, token, shots, waiting_id = sys.argv[1:5]
result = {"screenshots": []}
driver, wait = chromium.start()

READ = """
const page = window.oarlog.challenges;
const cards = [...document.querySelectorAll('#ch-list .ch-card')].map(c => ({
  id: c.dataset.id, state: c.dataset.state, state_text: c.querySelector('.ch-state').textContent,
  time: c.querySelector('.ch-time') ? c.querySelector('.ch-time').textContent : null,
  answer: c.querySelector('.ch-answer') ? c.querySelector('.ch-answer').textContent : null,
  buttons: [...c.querySelectorAll('button')].map(b => b.textContent) }));
// (Inside the map, Leaflet's panes reach past its edge by design: the map's own box is checked.)
const inMap = e => { const m = e.closest('.leaflet-container'); return m && m !== e; };
const visible = [...document.querySelectorAll('#challenges-page *, nav a')].filter(e => e.getClientRects().length && !inMap(e));
const outside = visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
  .map(e => e.id || e.getAttribute('class') || e.tagName);
return { cards, outside, shown: page.shown, map_points: page.line ? page.line.getLatLngs().length : 0,
  map_shown: !document.getElementById('ch-map-panel').hidden, map_title: document.getElementById('ch-map-title').textContent,
  course_picker: document.getElementById('ch-course-pick').hidden ? 'text' : 'select',
  nav_active: document.getElementById('nav-challenges').classList.contains('active'),
  link_right: document.getElementById('link').getBoundingClientRect().right, width: window.innerWidth };
"""

try:
    driver.get(base + "/")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.get(base + "/#challenges")
    wait.until(lambda d: d.execute_script("return window.oarlog && window.oarlog.challenges.loaded"))
    wait.until(lambda d: d.execute_script("return window.oarlog.challenges.line != null"))
    result["first"] = driver.execute_script(READ)
    shot = shots + "/challenges-phone.png"
    driver.save_screenshot(shot)
    result["screenshots"].append(shot)

    card = driver.find_element(By.CSS_SELECTOR, '.ch-card[data-id="%s"]' % waiting_id)
    card.find_element(By.CSS_SELECTOR, ".ch-answer-note").send_keys("well rowed, Alpha")
    card.find_element(By.CSS_SELECTOR, ".ch-accept").click()
    wait.until(lambda d: d.execute_script(
        "const c = document.querySelector('.ch-card[data-id=\"%s\"]'); return c && c.dataset.state === 'accepted'" % waiting_id))
    result["after_accept"] = driver.execute_script(READ)

    course = driver.find_element(By.ID, "ch-course")
    if course.is_displayed():
        course.send_keys("NK course")
    driver.find_element(By.ID, "ch-under").send_keys("9:45")
    driver.find_element(By.ID, "ch-boat").send_keys("Alpha")
    driver.find_element(By.ID, "ch-by").send_keys("Coach Ann")
    driver.find_element(By.ID, "ch-note").send_keys("Sunday: under 9:45")
    before = len(result["after_accept"]["cards"])
    driver.find_element(By.ID, "ch-set").click()
    wait.until(lambda d: d.execute_script("return document.querySelectorAll('#ch-list .ch-card').length") == before + 1)
    result["after_set"] = driver.execute_script(READ)
    result["form_error"] = driver.find_element(By.ID, "ch-form-error").text
    driver.execute_script("document.getElementById('ch-form').scrollIntoView()")
    shot = shots + "/challenges-phone-form.png"
    driver.save_screenshot(shot)
    result["screenshots"].append(shot)
    # Before /api/courses exists (another branch adds it) the picker's 404 is expected: the page types the course instead.
    result["console_errors"] = [m for m in chromium.console_errors(driver)
                                if "favicon" not in m and not ("/api/courses" in m and "404" in m)]
except Exception as e:  # report what happened, with the page as it was
    chromium.report_failure(driver, result, e, shots + "/challenges-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

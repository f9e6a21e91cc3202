#!/usr/bin/python3
"""Opens the personal bests page (#bests) of Oarlog's web app in headless Chromium at phone
(390x844), phone landscape (844x390) and laptop (1280x800) size and reports what it showed: the
table's cells (text and raw values), the progression plot's points and its event buttons, the
sessions it names as unreadable, whether anything is cut off. Then taps the 2,000 m row (the
session page opens), a point of the plot (its session opens) and the 2,000 m row's ▶ (playback
from where the best began). With EMPTY_BASE_URL, what the page says when no session has GPS.

Usage: bests_page.py BASE_URL SCREENSHOT_DIR [EMPTY_BASE_URL [TOKEN]]
(TOKEN: the phone is paired before the ▶, as a playback needs)
Prints one JSON object; the Swift test (BestsPageTests) asserts on it.
"""
import json
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import chromium

base, shots = sys.argv[1], sys.argv[2]
empty_base = sys.argv[3] if len(sys.argv) > 3 else None
token = sys.argv[4] if len(sys.argv) > 4 else None
result = {"screenshots": []}

driver, wait = chromium.start()

SIZES = {"phone": chromium.PHONE, "landscape": chromium.PHONE_LANDSCAPE, "laptop": chromium.LAPTOP}

READ = """
const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
const shown = id => !document.getElementById(id).hidden;
const page = window.oarlog.bests;
const chart = page.chart;
// Every element of the page wholly inside the screen's width (nothing cut off at the right), and
// no text wider than its box.
const visible = [...document.querySelectorAll('#bests-page *, nav a')].filter(e => e.getClientRects().length);
const outside = visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
  .map(e => e.id || e.className || e.tagName);
const clipped = visible.filter(e => e.children.length === 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
  .map(e => e.id || e.className || e.tagName);
return {
  rows: [...document.querySelectorAll('#bests-table tbody tr')].map(tr => ({
    event: tr.querySelector('.event').textContent,
    best: tr.querySelector('.best').textContent, best_value: tr.querySelector('.best').dataset.value,
    split: tr.querySelector('.split').textContent, split_value: tr.querySelector('.split').dataset.value,
    date: tr.querySelector('.date').textContent, date_href: tr.querySelector('.date a') ? tr.querySelector('.date a').getAttribute('href') : null,
    at: tr.querySelector('.at').textContent, at_href: tr.querySelector('.at a') ? tr.querySelector('.at a').getAttribute('href') : null,
    session: tr.dataset.session || null,
  })),
  table_shown: shown('bests-grid'),
  empty: shown('bests-empty') ? document.getElementById('bests-empty').textContent : null,
  unreadable_title: shown('bests-unreadable') ? document.getElementById('bests-unreadable-title').textContent : null,
  unreadable: [...document.querySelectorAll('#bests-unreadable-list li')].map(li => ({
    id: li.querySelector('.bests-unreadable-id').textContent, reason: li.querySelector('.bests-unreadable-reason').textContent })),
  unreadable_text: shown('bests-unreadable') ? document.getElementById('bests-unreadable').textContent.replace(/\\s+/g, ' ').trim() : null,
  buttons: [...document.querySelectorAll('#bests-events button')].map(b => b.textContent),
  selected: [...document.querySelectorAll('#bests-events button.selected')].map(b => b.textContent),
  plot_title: document.getElementById('bests-progression-title').textContent,
  plot_note: document.getElementById('bests-progression-note').textContent,
  points: chart ? chart.data.datasets[0].data.map(p => ({x: p.x, y: p.y, session: p.session})) : null,
  point_pixels: chart ? chart.getDatasetMeta(0).data.map(el => ({x: el.x, y: el.y})) : null,
  chart_area: chart ? {left: chart.chartArea.left, right: chart.chartArea.right, top: chart.chartArea.top, bottom: chart.chartArea.bottom} : null,
  canvas_rect: chart ? rect(document.getElementById('bests-chart')) : null,
  nav_active: [...document.querySelectorAll('nav a.active')].map(a => a.id),
  nav_rects: [...document.querySelectorAll('nav a')].filter(a => a.getClientRects().length).map(rect),  // the links shown (Fleet only on a coach's launch)
  nav_rect: rect(document.querySelector('nav')),  // on a phone the tabs scroll sideways within it
  sensors_rect: rect(document.querySelector('.sensors')),
  table_rect: shown('bests-grid') ? rect(document.getElementById('bests-table')) : null,
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
  outside: outside,
  clipped: clipped,
};
"""


def open_bests(url):
    """Opens the bests page, in a fresh page, from the race list (as a tap on the nav does)."""
    driver.get("about:blank")
    driver.get(url + "/#races")
    wait.until(lambda d: d.execute_script("return window.oarlog !== undefined && !document.getElementById('races').hidden"))
    driver.find_element(By.ID, "nav-bests").click()
    wait.until(lambda d: d.execute_script("return location.hash === '#bests' && window.oarlog.bests.loaded"))
    time.sleep(0.3)
    return driver.execute_script(READ)


def shoot(name):
    path = f"{shots}/{name}.png"
    driver.save_screenshot(path)
    result["screenshots"].append(path)


def wait_session(session):
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == session)
    return {"hash": driver.execute_script("return location.hash"),
            "loaded": driver.execute_script("return document.body.dataset.sessionLoaded")}


try:
    for size, metrics in SIZES.items():
        chromium.resize(driver, metrics)
        result[size] = open_bests(base)
        shoot(f"bests-{size}")
        if size == "phone":
            # The whole page, table and plot: scrolled to the plot.
            driver.execute_script("document.getElementById('bests-chart').scrollIntoView({block: 'end'})")
            time.sleep(0.2)
            shoot("bests-phone-plot")
    chromium.resize(driver, chromium.PHONE)
    # Another event's progression, by its button.
    open_bests(base)
    driver.find_element(By.XPATH, "//div[@id='bests-events']/button[text()='500 m']").click()
    result["picked_500"] = driver.execute_script(READ)
    # A duration: the most metres in a minute, rising.
    driver.find_element(By.XPATH, "//div[@id='bests-events']/button[text()='1 min']").click()
    result["picked_1min"] = driver.execute_script(READ)
    driver.execute_script("document.getElementById('bests-chart').scrollIntoView({block: 'end'})")
    time.sleep(0.2)
    shoot("bests-phone-1min")
    # Tapping the 2,000 m row (its event name, not a link) opens the session.
    open_bests(base)
    row = driver.find_element(By.XPATH, "//table[@id='bests-table']//tr[th[text()='2,000 m']]")
    session = row.get_attribute("data-session")
    row.find_element(By.CSS_SELECTOR, "th").click()
    result["tapped_row"] = wait_session(session)
    # Tapping the plot's first point (a real click at its pixel) opens that session.
    seen = open_bests(base)
    canvas = driver.find_element(By.ID, "bests-chart")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    time.sleep(0.2)
    seen = driver.execute_script(READ)
    first, box = seen["point_pixels"][0], seen["canvas_rect"]
    ActionChains(driver).move_to_element_with_offset(canvas, round(first["x"] - box["width"] / 2), round(first["y"] - box["height"] / 2)).click().perform()
    result["tapped_point"] = wait_session(seen["points"][0]["session"])
    # The 2,000 m row's ▶: playback from where that best began.
    open_bests(base)
    if token:
        driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    play = driver.find_element(By.XPATH, "//table[@id='bests-table']//tr[th[text()='2,000 m']]//a[@class='bests-play']")
    href = play.get_attribute("href")
    play.click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.playback !== undefined && Number(document.getElementById('pb-slider').value) > 0"))
    result["played"] = {"hash": driver.execute_script("return location.hash"), "href": href,
                        "slider": driver.execute_script("return Number(document.getElementById('pb-slider').value)"),
                        "position": driver.execute_script("return window.oarlog.playback.position"),
                        "elapsed": driver.execute_script("return document.getElementById('pb-elapsed').textContent"),
                        "live_shown": driver.execute_script("return !document.getElementById('live').hidden")}
    result["console"] = chromium.console_errors(driver)
    if empty_base:
        chromium.resize(driver, chromium.PHONE)
        result["empty"] = open_bests(empty_base)
        shoot("bests-empty-phone")
        result["console_empty"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/bests-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

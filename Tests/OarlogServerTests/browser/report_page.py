#!/usr/bin/python3
"""Opens sessions' single-file HTML reports (`oarlog export ID --format html`) from disk
(file://), one after the other in one headless Chromium with the network switched off (CDP Network.emulateNetworkConditions,
offline), at phone (390x844) and laptop (1280x800) size, in one browser, and reports what it
showed: the figure tiles (text, whether each is on screen and whole), the track's path (its
points), the plots, how far the page overflows sideways, and every request the page made (the
Network events of the performance log, and the page's own resource timing). Saves a full-page
screenshot at each size: report-390.png and report-1280.png for the first report,
report-NAME-390.png and report-NAME-1280.png for the others (none for a page that is not a
report: a control).

With --session BASE_URL ID, then also the web app's session page (network back on): its "Share
report" button in the Share panel, clicked, gives the report as a download named ID.html
(report-share-390.png shows the panel).

Usage: report_page.py SCREENSHOT_DIR [--session BASE_URL ID] NAME=REPORT_FILE [NAME=REPORT_FILE ...]
Prints one JSON object; the Swift test (ReportPageTests) asserts on it.
"""
import base64
import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import chromium

shots, rest = sys.argv[1], sys.argv[2:]
session = None
if rest[:1] == ["--session"]:
    session, rest = (rest[1], rest[2]), rest[3:]
reports = [(a.split("=", 1)[0], "file://" + os.path.abspath(a.split("=", 1)[1])) for a in rest]
result = {"screenshots": []}

READ = """
const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, width: r.width, height: r.height}; };
const figures = {};
for (const f of document.querySelectorAll('.figure')) {
  const v = f.querySelector('.value');
  const r = rect(f);
  figures[f.dataset.key] = {text: v.textContent.trim(), label: f.querySelector('.label').textContent,
    on_screen: r.width > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth + 0.5,
    cut: v.scrollWidth > v.clientWidth + 1};
}
const route = document.querySelector('svg.track path.route');
const d = route ? route.getAttribute('d') : '';
const track = document.querySelector('svg.track');
const wide = [...document.querySelectorAll('body *')].filter(e => !e.closest('.scroll, svg') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className : ''));
return {
  title: document.getElementById('report-title') ? document.getElementById('report-title').textContent : document.title,
  gates: [...document.querySelectorAll('svg.track .gate-label')].map(t => t.textContent),
  figures,
  track_points: d ? (d.match(/[ML]/g) || []).length : 0,
  track_rect: track ? rect(track) : null,
  route_length: route ? route.getTotalLength() : 0,
  pins: [...document.querySelectorAll('svg.track .pin')].map(p => p.classList[1]),
  plots: [...document.querySelectorAll('svg.plot')].map(p => ({plot: p.dataset.plot, width: rect(p).width, height: rect(p).height,
                                                                 line: (p.querySelector('path.line').getAttribute('d').match(/[ML]/g) || []).length})),
  piece_rows: document.querySelectorAll('#pieces tbody tr').length,
  notes: [...document.querySelectorAll('#notes li')].map(li => li.textContent),
  scripts: document.querySelectorAll('script').length,
  overflow_px: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  body_overflow_px: document.body.scrollWidth - document.body.clientWidth,
  wide,
  resources: performance.getEntriesByType('resource').map(r => r.name),
  inner_width: document.documentElement.clientWidth,
};
"""


def start():
    """chromium.start's browser, with the performance log (every Network event) kept too."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def requests(driver):
    """The URLs the page asked for since the last call (Network.requestWillBeSent)."""
    out = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            out.append(message["params"]["request"]["url"])
    return out


def full_screenshot(driver, path):
    """The whole page, not just the screen."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


SAVE_DOWNLOADS = """
window.__saved = null;
const click = HTMLAnchorElement.prototype.click;
HTMLAnchorElement.prototype.click = function () {
  if (this.download) { window.__saved = {name: this.download, href: this.href}; return; }
  return click.call(this);
};
"""


def share_button(driver, base, session_id):
    """The session page's Share report button at phone size, clicked: what it offered."""
    wait = WebDriverWait(driver, 60, poll_frequency=0.1)
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    chromium.resize(driver, chromium.PHONE)
    driver.get(base + "/#session/" + session_id)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == session_id)
    wait.until(lambda d: d.execute_script("return !!document.getElementById('session-share-report')"))
    driver.execute_script(SAVE_DOWNLOADS)
    button = driver.find_element(By.ID, "session-share-report")
    panel = driver.execute_script("return arguments[0].closest('.panel').querySelector('.panel-title').textContent", button)
    label = button.text
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait.until(lambda d: d.execute_script("return window.__saved"))
    saved = driver.execute_script("return window.__saved")
    text = driver.execute_async_script("const done = arguments[0]; fetch(window.__saved.href).then(r => r.text()).then(done, e => done('failed: ' + e))")
    shot = os.path.join(shots, "report-share-390.png")
    driver.find_element(By.ID, "session-share-report").find_element(By.XPATH, "./ancestor::div[contains(@class, 'panel')]").screenshot(shot)
    result["screenshots"].append(shot)
    return {"label": label, "panel": panel, "name": saved["name"], "text": text,
            "console": chromium.console_errors(driver)}


driver = start()
try:
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    requests(driver)
    for index, (name, url) in enumerate(reports):
        result[name] = {}
        for size, metrics in (("390", chromium.PHONE), ("1280", chromium.LAPTOP)):
            chromium.resize(driver, metrics)
            driver.get(url)
            page = driver.execute_script(READ)
            asked = requests(driver)
            page["requests"] = [u for u in asked if u != url]
            page["console"] = chromium.console_errors(driver)
            if page["figures"]:  # a report (not a control page): its picture
                shot = os.path.join(shots, f"report-{size}.png" if index == 0 else f"report-{name}-{size}.png")
                full_screenshot(driver, shot)
                result["screenshots"].append(shot)
            result[name][size] = page
    if session:
        result["share"] = share_button(driver, *session)
except Exception as e:  # noqa: BLE001 - reported to the Swift test
    chromium.report_failure(driver, result, e, os.path.join(shots, "report-failure.png"))
finally:
    driver.quit()
print(json.dumps(result))

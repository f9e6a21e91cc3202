#!/usr/bin/python3
"""A share link, made on the owner's session page and opened on a crew member's phone, in ONE
headless Chromium: the owner (paired: the token in localStorage) opens session ID at 390x844,
taps "Share link", and the page shows the link and draws its QR code (the QR element is
screenshotted alone, for zbarimg); the link is then opened as the phone would (390x844): the
session's summary, track, plots and pieces, read-only; from that page a read of the list or of
another session carrying the token is refused; back on the owner's page the link is revoked
and opened again: the page says it no longer opens a session.

Usage: share_page.py BASE_URL TOKEN SESSION_ID OTHER_SESSION_ID SCREENSHOT_DIR
Prints one JSON object; the Swift test (SharePageTests) asserts on it.
"""
import json
import sys

from selenium.webdriver.common.by import By

import chromium

base, token, session, other, shots = sys.argv[1:6]
result = {"screenshots": []}
driver, wait = chromium.start()

SUMMARY = """
return [...document.querySelectorAll('#session-summary tr')].map(tr => [tr.querySelector('th').textContent,
  tr.querySelector('td').textContent, tr.querySelector('td').dataset.value]);
"""

READ_SHARED = """
// Everything of the page but the map's own panes (Leaflet draws them past its box, clipped).
const visible = [...document.querySelectorAll('#session *')].filter(e => e.getClientRects().length && !e.closest('.leaflet-pane'));
const outside = visible.filter(e => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 0.5 || r.left < -0.5; })
  .map(e => String(e.id || e.getAttribute('class') || e.tagName));
const split = Chart.getChart('split-chart'), rate = Chart.getChart('rate-chart');
return {
  loaded: document.body.dataset.sessionLoaded || null,
  title: document.getElementById('session-title').textContent,
  trail_paths: document.querySelectorAll('#session-map path.leaflet-interactive').length,
  split_points: split ? split.data.datasets[0].data.filter(p => p && p.y != null).length : 0,
  rate_points: rate ? rate.data.datasets[0].data.filter(p => p && p.y != null).length : 0,
  pieces_rows: document.querySelectorAll('#pieces-table tbody tr').length,
  notes: [...document.querySelectorAll('#session-notes li')].map(li => li.textContent),
  forms: document.querySelectorAll('form, input:not([type=hidden])').length,
  outside: outside,
  width: document.documentElement.scrollWidth,
  error: document.getElementById('session-error').hidden ? null : document.getElementById('session-error').textContent,
};
"""

PROBE = """
const done = arguments[arguments.length - 1];
const t = arguments[0], other = arguments[1];
// A URL object: the page's own fetch sends only strings of /api/sessions/… to its shared reads.
const ask = (path, headers, method) => fetch(new URL(path, location.origin), { headers: headers, method: method || 'GET' }).then(r => r.status);
Promise.all([
  ask('/api/sessions', { 'X-Oarlog-Share': t }),
  ask('/api/sessions/' + other, { 'Authorization': 'Bearer ' + t }),
  ask('/api/sessions/' + other + '/trail?share=' + t, {}),
  ask('/api/shared/' + t, {}, 'DELETE'),
  ask('/api/shared/' + t, {}),
]).then(done, e => done(String(e)));
"""

try:
    # The owner: paired (the token stored as pairing stores it), on the session's page.
    driver.get(base + "/#races")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.get(f"{base}/#session/{session}")
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == session)
    result["owner_summary"] = driver.execute_script(SUMMARY)
    make = driver.find_element(By.ID, "share-make")
    driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", make)
    make.click()
    wait.until(lambda d: d.execute_script("const q = document.getElementById('share-qr'); return q && q.dataset.link"))
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#share-list .share-row")) == 1)
    link = driver.find_element(By.ID, "share-url").get_attribute("value")
    result["link"] = link
    result["qr_link"] = driver.execute_script("return document.getElementById('share-qr').dataset.link")
    result["listed"] = driver.execute_script("return [...document.querySelectorAll('#share-list .share-row')].map(li => li.dataset.token)")
    qr = driver.find_element(By.ID, "share-qr")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", qr)
    result["qr_size"] = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", qr)
    qr.screenshot(f"{shots}/share-qr.png")
    result["qr_png"] = f"{shots}/share-qr.png"
    driver.save_screenshot(f"{shots}/share-owner.png")
    result["screenshots"] += [f"{shots}/share-qr.png", f"{shots}/share-owner.png"]

    # The crew member's phone: the link, as scanned; nothing stored (never paired).
    driver.execute_script("localStorage.clear()")
    driver.get(link)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") not in (None, ""))
    wait.until(lambda d: d.execute_script(READ_SHARED)["trail_paths"] > 0)
    result["shared"] = driver.execute_script(READ_SHARED)
    result["shared_summary"] = driver.execute_script(SUMMARY)
    driver.save_screenshot(f"{shots}/share-phone.png")
    driver.execute_script("document.getElementById('split-panel').scrollIntoView({block: 'start'})")
    driver.save_screenshot(f"{shots}/share-phone-plots.png")
    driver.execute_script("document.getElementById('pieces-panel').scrollIntoView({block: 'start'})")
    driver.save_screenshot(f"{shots}/share-phone-pieces.png")
    result["screenshots"] += [f"{shots}/share-phone.png", f"{shots}/share-phone-plots.png", f"{shots}/share-phone-pieces.png"]
    result["console"] = chromium.console_errors(driver)
    shared_token = link.rsplit("/", 1)[1]
    result["probe"] = driver.execute_async_script(PROBE, shared_token, other)

    # Revoked on the owner's page: the link then opens nothing.
    driver.get(base + "/#races")
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.get(f"{base}/#session/{session}")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#share-list .share-revoke")) == 1)
    driver.find_element(By.CSS_SELECTOR, "#share-list .share-revoke").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#share-list .share-row")) == 0)
    driver.execute_script("localStorage.clear()")
    driver.get(link)
    wait.until(lambda d: d.execute_script("return document.body.dataset.sessionLoaded") == "refused")
    result["revoked"] = driver.execute_script(READ_SHARED)
    driver.save_screenshot(f"{shots}/share-revoked.png")
    result["screenshots"].append(f"{shots}/share-revoked.png")
except Exception as e:  # what the page was doing when it stopped
    chromium.report_failure(driver, result, e, f"{shots}/share-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

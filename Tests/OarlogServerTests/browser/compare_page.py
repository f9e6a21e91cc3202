#!/usr/bin/python3
"""Opens the compare view (#compare/A/B) of Oarlog's web app in headless Chromium, at phone
(390x844) and laptop (1280x800) size, and reports what it showed: both trails on the map, the
split and rate plots' data, the segments' table and its gap cells; then picks two sessions in the
race list with its Compare toggle, starts from a session's "Compare with…", and opens a compare
of an unknown session.

Usage: compare_page.py BASE_URL SCREENSHOT_DIR A B C
(A and B: full sessions with GPS and accelerometer; C: one with GPS only)
Prints one JSON object; the Swift test (ComparePageTests) asserts on it.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By

import chromium

base, shots, a, b, c = sys.argv[1:6]
# Optional: two sessions that rowed the same plan, for interval K beside interval K.
planned = sys.argv[6:8]
result = {"screenshots": []}

driver, wait = chromium.start()

SIZES = {"phone": chromium.PHONE, "laptop": chromium.LAPTOP}

READ = """
const c = window.oarlog.compare;
const rect = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
const pins = [];
if (c.map) c.map.eachLayer(l => { if (l instanceof L.CircleMarker) pins.push({at: [l.getLatLng().lat, l.getLatLng().lng], colour: l.options.color, fill: l.options.fillColor, tip: l.getTooltip() ? l.getTooltip().getContent() : null}); });
const data = chart => chart ? chart.data.datasets.map(d => ({label: d.label, colour: d.borderColor, points: d.data.map(p => [p.x, p.y])})) : null;
const visible = e => e.offsetParent !== null && getComputedStyle(e).display !== 'none';
return {
  loaded: document.body.dataset.compareLoaded || null,
  error: document.getElementById('compare-error').hidden ? null : document.getElementById('compare-error').textContent,
  content_shown: !document.getElementById('compare-content').hidden,
  trails: c.trails ? Object.fromEntries(Object.entries(c.trails).map(([k, l]) => [k, {points: l.getLatLngs().length, colour: l.options.color,
    first: [l.getLatLngs()[0].lat, l.getLatLngs()[0].lng]}])) : null,
  pins: pins,
  legend: [...document.querySelectorAll('#compare-legend .step[data-side]')].map(e => e.textContent),
  sides: ['a', 'b'].map(k => ({title: document.querySelector(`#compare-side-${k} .compare-title`).textContent,
    href: document.querySelector(`#compare-side-${k} .compare-title`).getAttribute('href'),
    pieces: [...document.getElementById('compare-piece-' + k).options].map(o => o.value),
    piece: document.getElementById('compare-piece-' + k).value})),
  split: data(c.splitChart), rate: data(c.rateChart),
  rate_note: document.getElementById('compare-rate-note').textContent,
  head: [...document.querySelectorAll('#compare-table thead th')].filter(visible).map(th => th.textContent),
  rows: [...document.querySelectorAll('#compare-table tbody tr')].map(tr => [...tr.children].filter(visible).map(td => td.textContent)),
  gaps: [...document.querySelectorAll('#compare-table td.gap')].map(td => ({text: td.textContent, value: td.dataset.value, ahead: td.dataset.ahead})),
  partial: document.getElementById('compare-partial').textContent,
  by: document.getElementById('compare-by').textContent,
  map_rect: rect(document.getElementById('compare-map')),
  nav_active: [...document.querySelectorAll('nav a.active')].map(a => a.id),
  overflow_x: document.documentElement.scrollWidth > window.innerWidth,
};
"""


def open_compare(x, y):
    """Opens #compare/X/Y in a fresh page and waits until it has drawn (or said why not)."""
    driver.get("about:blank")
    driver.get(base + "/#races")
    wait.until(lambda d: d.execute_script("return window.oarlog !== undefined && !document.getElementById('races').hidden"))
    driver.execute_script("location.hash = arguments[0]", f"#compare/{x}/{y}")
    wait.until(lambda d: d.execute_script("return document.body.dataset.compareLoaded") is not None)
    time.sleep(0.4)  # the map and plots settle
    return driver.execute_script(READ)


def shoot(name, full=False):
    path = f"{shots}/{name}.png"
    if full:
        # The whole page: the viewport made as tall as the page for the shot.
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**CURRENT, "height": height})
        time.sleep(0.3)
        driver.save_screenshot(path)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", CURRENT)
        time.sleep(0.2)
    else:
        driver.save_screenshot(path)
    result["screenshots"].append(path)


def wait_for(script):
    wait.until(lambda d: d.execute_script(script))


try:
    for size, metrics in SIZES.items():
        CURRENT = metrics
        chromium.resize(driver, metrics)
        seen = {"full": open_compare(a, b)}
        shoot(f"compare-{size}")
        shoot(f"compare-{size}-full", full=True)
        seen["gps_only"] = open_compare(a, c)
        shoot(f"compare-gps-only-{size}", full=True)
        result[size] = seen
    # A piece chosen on the page: the hash becomes A:1 and the page is drawn again.
    CURRENT = chromium.PHONE
    chromium.resize(driver, chromium.PHONE)
    open_compare(a, b)
    driver.execute_script("const s = document.getElementById('compare-piece-a'); s.value = '1'; s.dispatchEvent(new Event('change'));")
    wait_for(f"return document.body.dataset.compareLoaded === {json.dumps(a + ':1/' + b)}")
    time.sleep(0.3)
    result["piece"] = driver.execute_script(READ)
    result["piece_hash"] = driver.execute_script("return location.hash")

    if planned:
        # Two sessions that rowed a plan: interval 3 chosen on A sets B (on its whole session) to
        # its interval 3; then B alone moved to interval 5, A staying on 3.
        d, e = planned
        result["plans_whole"] = open_compare(d, e)
        driver.execute_script("const s = document.getElementById('compare-piece-a'); s.value = '3'; s.dispatchEvent(new Event('change'));")
        wait_for(f"return document.body.dataset.compareLoaded === {json.dumps(d + ':3/' + e + ':3')}")
        time.sleep(0.3)
        result["plans_interval"] = driver.execute_script(READ)
        result["plans_interval"]["options"] = driver.execute_script(
            "return [...document.getElementById('compare-piece-a').options].map(o => o.textContent)")
        shoot("compare-interval-phone")
        driver.execute_script("const s = document.getElementById('compare-piece-b'); s.value = '5'; s.dispatchEvent(new Event('change'));")
        wait_for(f"return document.body.dataset.compareLoaded === {json.dumps(d + ':3/' + e + ':5')}")
        result["plans_apart"] = driver.execute_script(READ)

    # The race list: Compare, tick two, follow "Compare ▸".
    driver.get("about:blank")
    driver.get(base + "/#races")
    wait_for("return window.oarlog !== undefined && document.querySelectorAll('#race-list .race').length >= 3")
    driver.find_element(By.ID, "race-compare").click()
    wait_for("return document.querySelectorAll('#race-list .race-pick input').length >= 3")
    chooser = {"bar_before": driver.execute_script("return document.getElementById('compare-bar-text').textContent"),
               "go_before": driver.execute_script("return !document.getElementById('compare-go').hidden")}
    for session_id in (b, a):  # B ticked first: it is side A
        driver.find_element(By.CSS_SELECTOR, f"#race-list .race[data-id='{session_id}'] .race-pick input").click()
    chooser["bar_after"] = driver.execute_script("return document.getElementById('compare-bar-text').textContent")
    chooser["marks"] = driver.execute_script("return [...document.querySelectorAll('#race-list .race.picked')].map(li => [li.dataset.id, li.querySelector('.race-pick').textContent.trim()])")
    chooser["disabled"] = driver.execute_script("return [...document.querySelectorAll('#race-list .race-pick input:disabled')].map(i => i.closest('.race').dataset.id)")
    chooser["overflow_x"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
    shoot("compare-choosing-phone")
    driver.find_element(By.ID, "compare-go").click()
    wait_for(f"return document.body.dataset.compareLoaded === {json.dumps(b + '/' + a)}")
    chooser["hash"] = driver.execute_script("return location.hash")
    chooser["sides"] = driver.execute_script("return ['a', 'b'].map(k => document.querySelector(`#compare-side-${k} .compare-title`).textContent)")
    result["chooser"] = chooser

    # A session's page: "Compare with…" opens the race list choosing, that session ticked.
    driver.get("about:blank")
    driver.get(base + "/#session/" + a)
    wait_for(f"return document.body.dataset.sessionLoaded === {json.dumps(a)}")
    driver.find_element(By.ID, "session-compare").click()
    wait_for("return !document.getElementById('races').hidden && document.querySelectorAll('#race-list .race-pick input').length >= 3")
    result["from_session"] = driver.execute_script("""return {hash: location.hash, bar: !document.getElementById('compare-bar').hidden,
        ticked: [...document.querySelectorAll('#race-list .race-pick input')].filter(i => i.checked).map(i => i.closest('.race').dataset.id)};""")

    result["console"] = chromium.console_errors(driver)
    # An unknown session: said so, nothing drawn (the browser logs the answer's 404).
    result["unknown"] = open_compare(a, "2020-01-01T00-00-00Z_nothing")
    shoot("compare-unknown-phone")
    result["console_unknown"] = chromium.console_errors(driver)
except Exception as e:
    chromium.report_failure(driver, result, e, f"{shots}/compare-failure.png")
finally:
    driver.quit()
print(json.dumps(result))

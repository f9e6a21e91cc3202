"""The workout on the cox's live screen, in the browser live_page.py already drives (one browser per
run): against a second server (BrowserTests starts it in process, a replay with a coach's offer
waiting, a plan saved), the offer's banner, the plan chooser (the saved plan, a bad spec, a good
one, "starts at go"), Accept,
then Start; during a piece and during a rest, at 390x844 and 844x390, what the panel shows.

run(driver, wait, base, token, shots, result) adds its findings under result["workout"].
"""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import chromium


def text(driver, element_id):
    return driver.execute_script("const e = document.getElementById(arguments[0]); return e ? e.textContent : null", element_id)


def shown(driver, element_id):
    return driver.execute_script("const e = document.getElementById(arguments[0]); return !!e && !e.hidden && e.offsetParent !== null",
                                 element_id)


def panel(driver):
    """What the workout panel shows now, with the status it was drawn from."""
    return driver.execute_script("""
        const live = document.getElementById('workout-live'), w = window.oarlog.live.workout, s = w.status || {};
        const target = id => { const b = document.getElementById(id);
          return {cls: b.className, band: b.dataset.band, value: b.querySelector('.value').textContent,
                  range: b.querySelector('.band').textContent, verdict: b.querySelector('.verdict').textContent, shown: !b.hidden}; };
        return {phase: live.dataset.phase, kind: live.dataset.kind, step: Number(live.dataset.step), resting: live.classList.contains('resting'),
          title: document.getElementById('wk-step').textContent, remaining: document.getElementById('wk-remaining').textContent,
          remaining_value: Number(document.getElementById('wk-remaining').dataset.value),
          caption: document.getElementById('wk-remaining-caption').textContent,
          next: document.getElementById('wk-next').hidden ? null : document.getElementById('wk-next').textContent,
          targets_shown: !document.getElementById('wk-targets').hidden,
          rate: target('wk-rate'), split: target('wk-split'),
          status_rate_band: s.stroke_rate_band, status_split_band: s.split_band,
          font_px: parseFloat(getComputedStyle(document.getElementById('wk-remaining')).fontSize),
          fits: [...live.querySelectorAll('.wk-remaining, .wk-target .value, .wk-step')].every(e => e.scrollWidth <= e.clientWidth + 1),
          inside: live.getBoundingClientRect().right <= window.innerWidth + 0.5};""")


def click(driver, element_id):
    """Clicks as a thumb would: the element scrolled to the middle of the screen first (at an edge
    the sticky bar would take the tap)."""
    element = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def until(wait, driver, condition):
    wait.until(lambda d: condition(panel(d)))
    return panel(driver)


def run(driver, wait, base, token, shots, result):
    found = {}
    result["workout"] = found

    def shot(name):
        path = f"{shots}/{name}.png"
        driver.save_screenshot(path)
        result["screenshots"].append(path)

    chromium.resize(driver, chromium.PHONE)
    driver.get(base + "/#live")
    # This phone is paired with the second server already (live_page.py showed the pairing).
    driver.execute_script("localStorage.setItem('oarlog.token', arguments[0])", token)
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "link").get_attribute("data-state") == "ok")

    # The coach's plan waits: a banner with Accept and Decline.
    wait.until(lambda d: shown(d, "workout-offer"))
    found["offer"] = {"from": text(driver, "offer-from"), "plan": text(driver, "offer-plan"), "steps": text(driver, "offer-steps"),
                      "buttons": [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#workout-offer button")]}
    driver.execute_script("window.scrollTo(0, 0)")
    shot("workout-offer")

    # The saved plans to choose from (GET /api/workouts), each with its summary.
    wait.until(lambda d: shown(d, "wk-saved"))
    found["saved_plans"] = driver.execute_script(
        "return [...document.querySelectorAll('#wk-saved option')].map(o => [o.value, o.textContent])")
    driver.execute_script("document.getElementById('workout-chooser').scrollIntoView({block: 'center'})")
    Select(driver.find_element(By.ID, "wk-saved")).select_by_value("Pyramid")
    wait.until(lambda d: text(d, "wk-chosen").startswith("Pyramid"))
    found["chosen_saved"] = text(driver, "wk-chosen")
    found["chosen_saved_spec"] = driver.execute_script("return document.getElementById('wk-spec').value")

    # The chooser: a plan that does not read says where; one that reads is chosen.
    spec = driver.find_element(By.ID, "wk-spec")
    spec.clear()
    spec.send_keys("3x4:00/2:00")
    click(driver, "wk-set")
    wait.until(lambda d: text(d, "wk-error"))
    found["bad_spec_error"] = driver.execute_script("return document.querySelector('#wk-error div').textContent")
    found["bad_spec_pointer"] = driver.execute_script("const p = document.querySelector('#wk-error pre'); return p ? p.textContent : null")
    # The refusal is an answer the page expected (400), which the browser logs all the same.
    found["bad_spec_console"] = chromium.console_errors(driver)
    driver.execute_script("document.getElementById('workout-chooser').scrollIntoView()")
    shot("workout-bad-spec")
    spec.clear()
    spec.send_keys("20:00")
    click(driver, "wk-set")
    wait.until(lambda d: text(d, "wk-chosen").startswith("20:00"))
    found["chosen_typed"] = text(driver, "wk-chosen")
    found["error_after_good_spec"] = text(driver, "wk-error")

    # Accept the coach's plan: the banner goes, the plan is chosen; then it starts at the go.
    click(driver, "offer-accept")
    wait.until(lambda d: not shown(d, "workout-offer"))
    wait.until(lambda d: not text(d, "wk-chosen").startswith("20:00"))
    found["chosen_accepted"] = text(driver, "wk-chosen")
    found["saved_picked_after_accept"] = driver.execute_script("return document.getElementById('wk-saved').value")
    click(driver, "wk-at-go")
    wait.until(lambda d: "starts at go" in text(d, "wk-steps"))
    found["chosen_steps"] = text(driver, "wk-steps")
    driver.execute_script("document.getElementById('workout-chooser').scrollIntoView()")
    shot("workout-chosen")

    # Start: 3, 2, 1, Go; the first piece starts at the go.
    click(driver, "ready")
    click(driver, "start")
    wait.until(lambda d: d.execute_script("return window.oarlog.live.recording") is not None)
    found["chooser_hidden_racing"] = not shown(driver, "workout-chooser")
    driver.execute_script("window.scrollTo(0, 0)")
    piece = until(wait, driver, lambda p: p["phase"] == "rowing" and p["kind"] == "work" and p["step"] == 1 and p["status_rate_band"])
    samples = [piece["remaining_value"]]
    for _ in range(3):
        time.sleep(0.7)
        samples.append(panel(driver)["remaining_value"])
    piece = panel(driver)
    found["piece"] = piece
    found["piece_remaining"] = samples
    shot("workout-piece")

    # The rest: its countdown large, what comes next; the 10 s beep on the way.
    rest = until(wait, driver, lambda p: p["kind"] == "rest" and p["phase"] == "rowing" and p["remaining_value"] > 10)
    found["rest"] = rest
    shot("workout-rest")
    chromium.resize(driver, chromium.PHONE_LANDSCAPE)
    time.sleep(0.3)
    found["rest_landscape"] = panel(driver)
    shot("workout-rest-landscape")
    second = until(wait, driver, lambda p: p["kind"] == "work" and p["step"] == 3 and p["status_rate_band"])
    found["second_piece_landscape"] = second
    shot("workout-piece-landscape")
    found["beeps"] = driver.execute_script("return window.oarlog.live.workout.beeps")
    found["audio"] = driver.execute_script("const a = window.oarlog.live.workout.audio; return a ? a.state : null")
    chromium.resize(driver, chromium.PHONE)
    click(driver, "stop")
    wait.until(lambda d: d.find_element(By.ID, "summary").is_displayed())
    found["chooser_after_stop"] = shown(driver, "workout-chooser") and not shown(driver, "workout-live")
    found["console"] = chromium.console_errors(driver)

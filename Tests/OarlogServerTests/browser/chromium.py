"""Headless Chromium from Debian (chromium, chromium-driver), driven by Debian's python3-selenium,
as every browser test here starts it: a phone's screen, the browser console kept."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
PHONE_LANDSCAPE = {"width": 844, "height": 390, "deviceScaleFactor": 1, "mobile": True,
                   "screenOrientation": {"type": "landscapePrimary", "angle": 90}}
LAPTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


def start():
    """The browser at phone size, and a wait of up to 60 s polled every 0.1 s."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=390,844"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    resize(driver, PHONE)
    return driver, WebDriverWait(driver, 60, poll_frequency=0.1)


def resize(driver, metrics):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def report_failure(driver, result, error, screenshot):
    """What a browser script adds to its result when it stops early: the error, the console so
    far and a screenshot of the page as it was (best effort: the browser may be gone)."""
    result["error"] = repr(error)
    try:
        result["error_console"] = [e["message"] for e in driver.get_log("browser")]
        driver.save_screenshot(screenshot)
    except Exception:
        pass


def console_errors(driver):
    """What the page reported as errors (SEVERE) since the last call."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]

#!/usr/bin/env python3
"""Browser tests of the Commission web app: a real headless Chromium against the real server binary.

Usage: test_web.py PATH/TO/commission [--screenshots DIR]
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

COMMISSION = os.path.abspath(sys.argv[1])
SCREENSHOTS = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
PASSWORD = "a long enough password"
failures = []

# Runs in the page: sideways overflow, inputs without a label, and text whose contrast with its
# background is below WCAG AA's 4.5:1.
AUDIT = """
function rgb(text) { var m = text.match(/[\\d.]+/g) || []; return m.map(Number); }
function luminance(c) {
  var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(el) {
  for (; el; el = el.parentElement) {
    var c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { return c; }
  }
  return [255, 255, 255];
}
var unlabelled = [], low = [], checked = 0;
document.querySelectorAll("input, select, textarea").forEach(function (el) {
  if (el.type === "hidden") { return; }
  if (!(el.labels && el.labels.length) && !el.getAttribute("aria-label")) { unlabelled.push(el.name || el.id); }
});
document.querySelectorAll("main *, header *").forEach(function (el) {
  if (el.closest("svg") || !el.offsetParent) { return; }
  var own = Array.prototype.some.call(el.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  if (!own) { return; }
  var a = luminance(rgb(getComputedStyle(el).color)), b = luminance(background(el));
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  checked++;
  if (!(ratio >= 4.5)) { low.push(el.tagName + " " + el.textContent.trim().slice(0, 20) + " " + ratio.toFixed(2)); }
});
return { overflow: document.documentElement.scrollWidth - window.innerWidth, unlabelled: unlabelled, lowContrast: low, checked: checked };
"""


def check(condition, message):
    print(("  ok   " if condition else "  FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def browser(phone=False):
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 640, "pixelRatio": 2}})
    options.binary_location = shutil.which("chromium")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def wait_for(driver, condition, seconds=5):
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d))


def fill(driver, field_id, text):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(text)


def submit(driver, button_text):
    """Clicks a submit button and waits for the next page to load."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.XPATH, f"//button[normalize-space()='{button_text}']").click()
    WebDriverWait(driver, 10).until(lambda d: is_stale(old) and d.execute_script("return document.readyState") == "complete")


def text_of(driver, element_id):
    """The text of an element that live updates may replace at any moment."""
    try:
        return driver.find_element(By.ID, element_id).text
    except Exception:
        return None


def is_stale(element):
    try:
        element.tag_name
        return False
    except Exception:
        return True


def main():
    workdir = tempfile.mkdtemp(prefix="commission-browser-")
    db = os.path.join(workdir, "book.sqlite")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(workdir, "server.log"), "w")
    server = subprocess.Popen([COMMISSION, "serve", "--db", db, "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    drivers = []
    try:
        deadline = time.time() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/health", timeout=1)
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start; see " + log.name)
                time.sleep(0.1)

        desk = browser()
        drivers.append(desk)

        print("The first visit creates the owner account")
        desk.get(base + "/")
        check(desk.current_url.endswith("/setup"), "a new book sends the first visitor to /setup")
        fill(desk, "username", "ana")
        fill(desk, "password", PASSWORD)
        submit(desk, "Create the owner account")
        check(desk.find_elements(By.ID, "sale-form") != [], "after set-up she is signed in, on quick entry")

        print("Sign out, and sign in again")
        submit(desk, "Sign out")
        check(desk.current_url.endswith("/login"), "signing out leads to the sign-in page")
        fill(desk, "username", "ana")
        fill(desk, "password", PASSWORD)
        submit(desk, "Sign in")
        check(desk.find_elements(By.ID, "sale-form") != [], "signing in leads to quick entry")

        print("Set up a clinic, a product and terms")
        desk.get(base + "/book")
        fill(desk, "c-name", "Glow Aesthetics")
        fill(desk, "c-schedule", "monthly")
        submit(desk, "Add clinic")
        fill(desk, "pr-name", "Serum 30ml")
        fill(desk, "pr-price", "50.00")
        fill(desk, "pr-cost", "20.00")
        submit(desk, "Add product")
        fill(desk, "t-share", "40")
        desk.execute_script("document.getElementById('t-from').value = '2000-01-01'")
        submit(desk, "Add terms")
        page = desk.find_element(By.TAG_NAME, "main").text
        check("Glow Aesthetics" in page and "Serum 30ml" in page and "40.00% of profit from 2000-01-01" in page,
              "the clinic, product and terms are listed")

        print("Enter a sale on a 360×640 phone in at most three taps")
        phone = browser(phone=True)
        drivers.append(phone)
        phone.get(base + "/login")
        for cookie in desk.get_cookies():
            if cookie["name"] == "commission_session":
                phone.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": "/"})
        phone.get(base + "/")
        size = phone.execute_script("return [window.innerWidth, window.innerHeight]")
        check(size == [360, 640], f"the viewport is 360×640 (it is {size[0]}×{size[1]})")
        price = phone.find_element(By.ID, "price")
        check(price.get_attribute("inputmode") == "decimal", "the price field opens a decimal keypad")
        check(price.get_attribute("value") == "50.00", "the price is prefilled from the product: 50.00")
        price.clear()
        price.send_keys("50.00")
        check(price.get_attribute("value") == "50.00", "typing 50.00 keeps 50.00")
        if SCREENSHOTS:
            phone.save_screenshot(os.path.join(SCREENSHOTS, "quick-entry.png"))
        taps = 0
        phone.find_element(By.XPATH, "//label[contains(@class,'product')][contains(.,'Serum 30ml')]").click()
        taps += 1
        old = phone.find_element(By.TAG_NAME, "html")
        phone.find_element(By.ID, "save").click()
        taps += 1
        WebDriverWait(phone, 10).until(lambda d: is_stale(old))
        notice = wait_for(phone, lambda d: d.find_element(By.CSS_SELECTOR, "p.notice").text)
        # 1 × (50.00 − 20.00) × 40% = 12.00
        check("commission 12.00" in notice, f"the sale is saved with its commission ({notice!r})")
        check(taps <= 3, f"saved in {taps} taps")

        print("A second window's dashboard updates within two seconds of a sale added with the CLI")
        desk.get(base + "/dashboard")
        before = wait_for(desk, lambda d: text_of(d, "today-commission"))
        check(before == "12.00", f"the dashboard shows today's 12.00 ({before})")
        time.sleep(0.5)  # let the event stream connect
        started = time.time()
        subprocess.run([COMMISSION, "sale", "add", "Glow Aesthetics", "Serum 30ml", "3", "--db", db], check=True, capture_output=True)
        try:
            # 3 × 30.00 × 40% = 36.00 more: 48.00.
            wait_for(desk, lambda d: text_of(d, "today-commission") == "48.00", seconds=2)
            check(True, f"the dashboard showed 48.00 after {time.time() - started:.2f}s, without a reload")
        except Exception:
            check(False, "the dashboard did not update within 2 seconds")
        if SCREENSHOTS:
            desk.save_screenshot(os.path.join(SCREENSHOTS, "dashboard.png"))

        print("Produce a statement")
        desk.get(base + "/statements")
        commission = desk.find_element(By.ID, "statement-commission").text
        check(commission == "48.00", f"the statement's commission is 48.00 ({commission})")
        check(desk.find_elements(By.LINK_TEXT, "Download CSV") != [], "the statement offers a CSV download")
        if SCREENSHOTS:
            desk.save_screenshot(os.path.join(SCREENSHOTS, "statement.png"))

        print("Record a short payout and see the discrepancy")
        desk.get(base + "/payouts")
        today = desk.find_element(By.ID, "p-received").get_attribute("value")
        desk.execute_script(f"document.getElementById('p-period').value = '{today}'")
        fill(desk, "p-amount", "40.00")
        submit(desk, "Record payout")
        rows = desk.find_elements(By.CSS_SELECTOR, "tr.attention")
        check(len(rows) == 1 and "underpaid" in rows[0].text and "8.00" in rows[0].text,
              f"the period stands out as underpaid by 8.00 ({[r.text for r in rows]})")

        print("Every page: labelled inputs, readable contrast, no sideways scrolling at 360 px")
        for path in ["/", "/dashboard", "/sales", "/statements", "/payouts", "/book", "/transfer", "/settings"]:
            phone.get(base + path)
            audit = phone.execute_script(AUDIT)
            check(audit["overflow"] <= 0, f"{path}: fits 360 px (overflow {audit['overflow']} px)")
            check(audit["unlabelled"] == [], f"{path}: every input is labelled {audit['unlabelled']}")
            check(audit["checked"] >= 10 and audit["lowContrast"] == [],
                  f"{path}: text contrast is at least 4.5:1 ({audit['checked']} elements) {audit['lowContrast'][:3]}")
        phone.get(base + "/")
        reached = False
        for _ in range(60):
            phone.switch_to.active_element.send_keys("\ue004")  # Tab
            if phone.switch_to.active_element.get_attribute("id") == "save":
                reached = True
                break
        check(reached, "the keyboard reaches Save on quick entry")

        print("Without a session, nothing is shown")
        stranger = browser()
        drivers.append(stranger)
        for path in ["/", "/dashboard", "/statements", "/payouts", "/settings"]:
            stranger.get(base + path)
            check(stranger.current_url.endswith("/login"), f"{path} sends a stranger to the sign-in page")
        try:
            urllib.request.urlopen(base + "/api/v1/dashboard", timeout=2)
            check(False, "the API refused a caller without credentials")
        except urllib.error.HTTPError as error:
            body = json.loads(error.read())
            check(error.code == 401 and "detail" in body, "the API answers 401 with a problem detail")
        print("SIGTERM shuts the server down gracefully, even with a live stream open")
        session = next(c["value"] for c in desk.get_cookies() if c["name"] == "commission_session")
        stream = socket.create_connection(("127.0.0.1", port))
        stream.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: commission_session={session}\r\n\r\n".encode())
        first = stream.recv(4096).decode(errors="replace")
        check("text/event-stream" in first, "the event stream is open")
        started = time.time()
        server.terminate()
        try:
            code = server.wait(timeout=10)
            check(code == 0, f"the server exited cleanly (status {code}) in {time.time() - started:.2f}s")
        except subprocess.TimeoutExpired:
            check(False, "the server did not stop within 10 seconds of SIGTERM")
        stream.close()
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    if failures:
        print(f"\n{len(failures)} browser check(s) failed; server log: {log.name}")
        sys.exit(1)
    print("\nEvery browser check passed.")
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()

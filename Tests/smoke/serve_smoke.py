#!/usr/bin/env python3
"""The serve smoke test: the release binary, every documented option on at once, every page walked.

    python3 Tests/smoke/serve_smoke.py PATH/TO/commission --database postgres://USER@HOST:PORT/DB

What an operator runs is what this drives: `commission serve --config FILE` on PostgreSQL with the
settings of docs/deploy.md all set (JSON logs at level notice, secure cookies, X-Forwarded-For, the metrics token
from the environment, scheduled backups, books released when idle, the public address), and then
`commission serve --demo --metrics-token …`, the README's first command with metrics on. For each:
the owner is set up through the pages, a few API calls record a book, every page reachable by a
link from the entry page is loaded (one of each kind), /metrics answers the operator, every log
line is what the log format and level say, and SIGTERM ends the server within 10 s. On PostgreSQL it also
checks that a backup is written and that a live stream opened before the book's app was released
tells the next sale. No answer may be a server error.

`--database` is the server a scratch database is made on (scripts/test passes its throw-away one);
without it only the SQLite run is made. Exits non-zero on any failure.
"""
import argparse
import http.cookies
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

import requests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from ports import free_port  # noqa: E402  (below the ephemeral range: see ports.py)

PASSWORD = "a long enough password"
METRICS_TOKEN = "smoke-metrics-token-" + uuid.uuid4().hex
failures = []


def check(condition, message):
    print(("  ok   " if condition else "  FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


class Browser:
    """A client that keeps its cookies by hand: with secure cookies set they are marked Secure,
    which an HTTP client would not send back over plain HTTP (the TLS proxy's side of it)."""

    def __init__(self, base):
        self.base, self.cookies, self.server_errors = base, {}, []
        self.http = requests.Session()

    def request(self, method, path, **options):
        headers = dict(options.pop("headers", {}))
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        response = self.http.request(method, self.base + path, headers=headers, allow_redirects=False, timeout=30, **options)
        for value in response.raw.headers.getlist("Set-Cookie") if hasattr(response.raw.headers, "getlist") else []:
            cookie = http.cookies.SimpleCookie()
            cookie.load(value)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {path}: {response.status_code} {response.text[:200]}")
        return response

    def get(self, path, **options):
        return self.request("GET", path, **options)

    def follow(self, path):
        """GET, following redirects within the app."""
        response = self.get(path)
        for _ in range(5):
            if response.status_code not in (301, 302, 303, 307, 308):
                break
            response = self.get(urllib.parse.urlparse(response.headers["Location"]).path or "/")
        return response

    def form(self, path, fields, page=None):
        """Posts a form with the CSRF token of `page` (the page the form is on)."""
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text if page is not None else self.get(path).text)
        data = dict(fields)
        if csrf:
            data["csrf"] = csrf.group(1)
        return self.request("POST", path, data=data)


class Server:
    def __init__(self, binary, arguments, workdir, environment=None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(workdir, f"server-{self.port}.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        env.update(environment or {})
        self.arguments = [binary, "serve", *arguments]
        self.process = subprocess.Popen(self.arguments + ["--port", str(self.port)], stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 60
        while True:
            try:
                requests.get(self.base + "/health/live", timeout=2)
                return
            except requests.RequestException:
                if self.process.poll() is not None or time.time() > deadline:
                    raise RuntimeError("the server did not start:\n" + self.tail())
                time.sleep(0.1)

    def tail(self, lines=40):
        self.log.flush()
        with open(self.log_path) as f:
            return "".join(f.readlines()[-lines:])

    def stop(self):
        """SIGTERM, as systemd stops it: whether it ended within 10 s (killed if not)."""
        if self.process.poll() is not None:
            return False
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
            return self.process.returncode == 0
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return False


def set_up_owner(browser):
    page = browser.follow("/")
    check("/setup" in page.url or 'action="/setup"' in page.text, "a new book sends the first visit to /setup")
    answer = browser.form("/setup", {"username": "owner", "password": PASSWORD}, page=page)
    check(answer.status_code == 303, f"the owner is created (status {answer.status_code})")


def api_token(browser):
    settings = browser.follow("/settings")
    page = browser.form("/settings/tokens", {"name": "smoke"}, page=settings)
    token = re.search(r'id="new-token">([^<]+)<', page.text)
    check(token is not None, "an API token is made on the settings page")
    return token.group(1) if token else ""


def record_book(base, token):
    """A clinic, a product, terms and a sale through the API; returns the clinic's and product's ids."""
    api = requests.Session()
    api.headers["Authorization"] = f"Bearer {token}"
    clinic = api.post(base + "/api/v1/clinics", json={"name": "Smoke Clinic", "schedule": "monthly"})
    product = api.post(base + "/api/v1/products", json={"name": "Smoke Serum", "unitPrice": "50.00", "unitCost": "20.00"})
    check(clinic.status_code == 201 and product.status_code == 201, f"a clinic and a product are made through the API ({clinic.status_code}, {product.status_code})")
    clinic_id, product_id = clinic.json().get("id"), product.json().get("id")
    terms = api.post(base + "/api/v1/terms", json={"clinicId": clinic_id, "share": "40", "effectiveFrom": "2000-01-01"})
    check(terms.status_code == 201, f"terms are made through the API ({terms.status_code}: {terms.text[:200]})")
    sale = api.post(base + "/api/v1/sales", json={"clinicId": clinic_id, "productId": product_id, "quantity": 2},
                    headers={"Idempotency-Key": str(uuid.uuid4())})
    check(sale.status_code == 201, f"a sale is recorded through the API ({sale.status_code}: {sale.text[:200]})")
    dashboard = api.get(base + "/api/v1/dashboard")
    check(dashboard.status_code == 200 and dashboard.json()["todayTotals"]["commission"] == "24.00",
          f"the API's dashboard counts it ({dashboard.status_code}: {dashboard.text[:120]})")
    return api, clinic_id, product_id


def walk_pages(browser):
    """Every page a link leads to from the entry page, one of each kind (ids stand for any id)."""
    seen, queue, kinds = set(), ["/"], set()
    while queue and len(seen) < 200:
        path = queue.pop(0)
        kind = re.sub(r"/\d+", "/:id", urllib.parse.urlparse(path).path)
        if kind in kinds:
            continue
        kinds.add(kind)
        seen.add(path)
        response = browser.get(path)
        if response.status_code in (301, 302, 303):
            queue.append(urllib.parse.urlparse(response.headers["Location"]).path)
            continue
        if response.status_code != 200:
            check(False, f"GET {path} answers {response.status_code}")
            continue
        if not response.headers.get("Content-Type", "").startswith("text/html"):
            continue
        for href in re.findall(r'href="([^"#]+)"', response.text):
            url = urllib.parse.urlparse(href)
            if url.netloc or not url.path.startswith("/") or url.path.startswith(("/static/", "/logout", "/events", "/api/")):
                continue
            queue.append(url.path + ("?" + url.query if url.query else ""))
    check(len(kinds) >= 12, f"{len(kinds)} kinds of page walked, each answered: {', '.join(sorted(kinds))}")


def check_metrics(base):
    refused = requests.get(base + "/metrics", timeout=10)
    answered = requests.get(base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10)
    check(refused.status_code == 401 and answered.status_code == 200, f"/metrics answers the operator's token only ({refused.status_code}, {answered.status_code})")
    check("commission_http_requests_total" in answered.text, "/metrics counts the requests")
    return answered.text


REQUEST_LINE = re.compile(r"(GET|POST|PUT|PATCH|DELETE|HEAD) /\S* \d{3} [\d.]+ms")


def check_json_log(server):
    """Every line is a JSON object; at logLevel notice (the configuration's), none is a request's."""
    server.log.flush()
    with open(server.log_path) as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    bad, requests_logged = [], []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            bad.append(line)
            continue
        if REQUEST_LINE.search(entry.get("message", "")) or entry.get("level") in ("trace", "debug", "info"):
            requests_logged.append(line)
    # The first lines are the command's own words to whoever started it (where to open the book).
    bad = [line for line in bad if not line.startswith(("Open ", "Backing up "))]
    check(lines and not bad, f"every log line is a JSON object ({len(lines)} lines{'; not: ' + bad[0][:120] if bad else ''})")
    check(not requests_logged, "at logLevel notice no line is below notice (no line a request)"
          + (f": {requests_logged[0][:120]}" if requests_logged else ""))


def stream_events(base, token, into, stop):
    """Reads /api/v1/events, appending each event's name to `into`, until `stop` is set."""
    try:
        with requests.get(base + "/api/v1/events", headers={"Authorization": f"Bearer {token}"}, stream=True, timeout=(5, 30)) as response:
            into.append(("status", response.status_code))
            for line in response.iter_lines(decode_unicode=True):
                if stop.is_set():
                    return
                if line and line.startswith("event:"):
                    into.append(("event", time.time()))
            into.append(("closed", time.time()))
    except requests.RequestException as error:
        into.append(("error", str(error)))


def postgres_run(binary, server_url, workdir):
    print("serve --config FILE on PostgreSQL, every documented option on")
    database = "commission_smoke_" + uuid.uuid4().hex[:10]
    subprocess.run(["psql", server_url, "-q", "-c", f"CREATE DATABASE {database}"], check=True, capture_output=True)
    url = server_url.rsplit("/", 1)[0] + "/" + database
    backups = os.path.join(workdir, "backups")
    config = os.path.join(workdir, "commission.json")
    with open(config, "w") as f:
        json.dump({"databaseUrl": url, "host": "127.0.0.1", "secureCookies": True, "trustForwardedFor": True, "logFormat": "json",
                   "logLevel": "notice", "backupEvery": "2s", "backupKeep": 2, "backupDirectory": backups, "booksKept": 5, "releaseBooksAfter": "1s",
                   "publicUrl": "https://commission.example"}, f)
    server = Server(binary, ["--config", config], workdir, {"COMMISSION_METRICS_TOKEN": METRICS_TOKEN})
    try:
        browser = Browser(server.base)
        set_up_owner(browser)
        check(all(name in browser.cookies for name in ["commission_session"]), "she is signed in after set-up")
        token = api_token(browser)
        api, clinic_id, product_id = record_book(server.base, token)
        walk_pages(browser)
        invite = browser.form("/settings/invitations", {"role": "member"}, page=browser.follow("/settings"))
        check("https://commission.example/invite/" in invite.text, "an invitation link is made from the public address, not the request's Host")

        # A live stream opened now, then the book's app released (idle for more than a second):
        # the next sale is told on it within 5 s.
        events, stop = [], threading.Event()
        reader = threading.Thread(target=stream_events, args=(server.base, token, events, stop), daemon=True)
        reader.start()
        deadline = time.time() + 10
        while not any(kind == "event" for kind, _ in events) and time.time() < deadline:
            time.sleep(0.05)
        first = sum(1 for kind, _ in events if kind == "event")
        # Past --release-books-after (1 s) and the sweep after it: no book's app is kept.
        check_metrics(server.base)
        deadline, kept = time.time() + 30, None
        while time.time() < deadline:
            metrics = requests.get(server.base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=10).text
            kept = re.search(r"^commission_books_in_memory (\S+)", metrics, re.M)
            if kept and float(kept.group(1)) == 0:
                break
            time.sleep(0.5)
        check(kept is not None and float(kept.group(1)) == 0, f"the idle book's app is released (/metrics: {kept.group(1) if kept else 'absent'} kept)")
        recorded = time.time()
        api.post(server.base + "/api/v1/sales", json={"clinicId": clinic_id, "productId": product_id, "quantity": 1},
                 headers={"Idempotency-Key": str(uuid.uuid4())})
        deadline = recorded + 5
        while time.time() < deadline and sum(1 for kind, _ in events if kind == "event") <= first \
                and not any(kind in ("closed", "error") for kind, _ in events):
            time.sleep(0.05)
        told = sum(1 for kind, _ in events if kind == "event") > first
        check(told, f"a stream opened before the book's app was released tells the next sale within 5 s (events {events[-3:]})")
        stop.set()

        deadline = time.time() + 15
        while time.time() < deadline and not (os.path.isdir(backups) and any(files for _, _, files in os.walk(backups))):
            time.sleep(0.2)
        written = [name for _, _, files in os.walk(backups) for name in files if name.endswith(".jsonl")] if os.path.isdir(backups) else []
        check(written, f"a scheduled backup is written ({len(written)} archives)")
        check(not browser.server_errors, "no page answered a server error" + (": " + "; ".join(browser.server_errors[:3]) if browser.server_errors else ""))
        check_json_log(server)
    finally:
        ended = server.stop()
        check(ended, "SIGTERM ends the server within 10 s")
        if failures:
            print(server.tail())
        subprocess.run(["psql", server_url, "-q", "-c", f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"], capture_output=True)


def demo_run(binary, workdir):
    print("serve --demo --metrics-token (the README's first command, with metrics on)")
    server = Server(binary, ["--demo", "--metrics-token", METRICS_TOKEN], workdir)
    try:
        for path in ["/health", "/health/live", "/health/ready", "/login"]:
            response = requests.get(server.base + path, timeout=10)
            check(response.status_code == 200, f"GET {path} answers 200 ({response.status_code})")
        login = re.search(r"sign in as (\S+) / (\S+)", open(server.log_path).read())
        check(login is not None, "the demo prints its login")
        if login:
            browser = Browser(server.base)
            page = browser.follow("/login")
            answer = browser.form("/login", {"username": login.group(1), "password": login.group(2)}, page=page)
            check(answer.status_code == 303, f"the demo's login signs in ({answer.status_code})")
            walk_pages(browser)
            check(not browser.server_errors, "no page answered a server error" + (": " + "; ".join(browser.server_errors[:3]) if browser.server_errors else ""))
        metrics = check_metrics(server.base)
        check("commission_database_duration_seconds" in metrics, "/metrics times the requests' reads and writes of the database")
        server.log.flush()
        check(re.search(r"GET /health/ready 200 [\d.]+ms", open(server.log_path).read()) is not None,
              "at the default log level each request is a line of the log")
    finally:
        check(server.stop(), "SIGTERM ends the server within 10 s")
        if failures:
            print(server.tail())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--database", default=os.environ.get("COMMISSION_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    workdir = tempfile.mkdtemp(prefix="commission-smoke-")
    try:
        demo_run(binary, workdir)
        if args.database:
            postgres_run(binary, args.database, workdir)
        else:
            print("  (no --database: the PostgreSQL run is skipped)")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"{len(failures)} smoke check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("serve smoke: every check passed")


if __name__ == "__main__":
    main()

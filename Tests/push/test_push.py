#!/usr/bin/env python3
"""Her reminders and her calendar, held to implementations that are not ours.

    python3 Tests/push/test_push.py PATH/TO/commission

The release binary serves a new SQLite book with `--unsafe-push-endpoints` (its push service is on
127.0.0.1). This test is her browser and its push service at once: it makes its own P-256 key
pair and auth secret (`cryptography`), subscribes through the API as a browser's
`PushSubscription.toJSON()` would, and receives the server's POSTs on a push service of its own.
Each body is decrypted with the PyPI package `http_ece` (RFC 8188/8291), the VAPID JWT of its
`Authorization: vapid t=…, k=…` verified (ES256 with the served key; `aud` the push service's
origin, `exp` within 24 hours, `sub` the operator's contact), and `TTL`, `Urgency`, `Topic` read.
A clinic late while the server was down is said once when it starts again — and not again at the
next start. Her pay dates calendar is parsed by the PyPI package `icalendar`: its events are the
book's, a payment recorded changes it (and its ETag), a revoked link answers 404.
Exits non-zero on any failure.
"""
import base64
import datetime
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import http_ece
import icalendar
import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from ports import free_port  # noqa: E402  (below the ephemeral range: see ports.py)

COMMISSION = os.path.abspath(sys.argv[1])
CONTACT = "mailto:ops@example.com"
PASSWORD = "a long enough password"
failures = []


def check(condition, message):
    print(("  ok   " if condition else "  FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1: keeps every request, answers 201 Created."""

    def __init__(self):
        self.requests, self.lock = [], threading.Lock()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with service.lock:
                    service.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def topic(self, prefix):
        with self.lock:
            return [r for r in self.requests if r["headers"].get("Topic", "").startswith(prefix)]


class Server:
    def __init__(self, db, workdir, port):
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = os.path.join(workdir, f"server-{time.time_ns()}.log")
        self.log = open(self.log_path, "w")
        arguments = [COMMISSION, "serve", "--db", db, "--port", str(port), "--unsafe-push-endpoints", "--push-contact", CONTACT]
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT)
        self.wait_for(lambda: requests.get(self.base + "/health/ready", timeout=2).ok, "the server is ready")

    def wait_for(self, condition, what, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                if condition():
                    return True
            except requests.RequestException:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise SystemExit(f"gave up waiting: {what} (log: {self.log_path})")

    def said(self, pattern):
        with open(self.log_path) as f:
            return re.search(pattern, f.read())

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def verify_vapid(request, public_key, push_origin):
    authorization = request["headers"].get("Authorization", "")
    match = re.fullmatch(r"vapid t=([^.]+)\.([^.]+)\.([^,]+), k=(\S+)", authorization)
    check(match is not None, f"the request is signed with VAPID ({authorization[:40]}…)")
    if not match:
        return
    header, claims, signature, key = match.groups()
    check(key == public_key, "its key is the one the server served for subscriptions")
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
    raw = b64url_decode(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        point.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        check(True, "its JWT's ES256 signature verifies with that key")
    except InvalidSignature:
        check(False, "its JWT's ES256 signature verifies with that key")
    check(json.loads(b64url_decode(header)) == {"typ": "JWT", "alg": "ES256"}, "its JWT's header says ES256")
    body = json.loads(b64url_decode(claims))
    left = body.get("exp", 0) - time.time()
    check(body.get("aud") == push_origin and 0 < left <= 24 * 3600 and body.get("sub") == CONTACT,
          f"its claims: aud the push service's origin, exp within 24 hours, sub the contact ({body})")


def main():
    workdir = tempfile.mkdtemp(prefix="commission-push-")
    db = os.path.join(workdir, "book.sqlite")
    push = PushService()
    push_origin = f"http://127.0.0.1:{push.port}"
    port = free_port()
    server = Server(db, workdir, port)
    try:
        print("Set up: her book, an API token, a clinic late by two months")
        web = requests.Session()
        page = web.get(server.base + "/setup")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
        web.post(server.base + "/setup", data={"csrf": csrf, "username": "owner", "password": PASSWORD}, allow_redirects=False)
        token = subprocess.run([COMMISSION, "token", "create", "push test", "--db", db], check=True, capture_output=True, text=True).stdout
        token = re.search(r"cm_\S+", token).group(0)
        api = requests.Session()
        api.headers["Authorization"] = f"Bearer {token}"

        def call(method, path, body=None, status=200):
            response = api.request(method, server.base + "/api/v1" + path, json=body, timeout=30)
            check(response.status_code == status, f"{method} {path} answers {status} ({response.status_code} {response.text[:200]})")
            return response.json() if response.content else None

        # A late clinic is said from 9:00 of the book's day: the book's time zone is one where it is
        # about noon now, whenever the suite runs (the server's clock is the real one).
        offset = 12 - datetime.datetime.now(datetime.timezone.utc).hour
        zone = "Etc/GMT" + ("" if offset == 0 else f"{'-' if offset > 0 else '+'}{abs(offset)}")
        call("POST", "/settings", {"timeZone": zone})
        clinic = call("POST", "/clinics", {"name": "Glow", "schedule": "monthly"}, 201)["id"]
        product = call("POST", "/products", {"name": "Serum", "unitPrice": "50.00", "unitCost": "20.00"}, 201)["id"]
        call("POST", "/terms", {"clinicId": clinic, "share": "40", "effectiveFrom": "2020-01-01"}, 201)
        sold = (datetime.date.today() - datetime.timedelta(days=75)).isoformat()
        call("POST", "/sales", {"clinicId": clinic, "productId": product, "date": sold, "quantity": 2}, 201)
        # Her history, answered: not paid, so the usual rules say it is overdue.
        dashboard = web.get(server.base + "/dashboard")
        csrf = re.search(r'name="csrf" value="([^"]+)"', dashboard.text).group(1)
        web.post(server.base + "/history", data={"csrf": csrf, "action": "later"}, allow_redirects=False)

        print("Her browser subscribes, as a browser does, and a test notification reaches it")
        notifications = call("GET", "/notifications")
        public_key = notifications.get("publicKey") or ""
        check(len(b64url_decode(public_key)) == 65 and notifications["settings"] == {"endOfDay": True, "lateClinics": True, "time": "19:00"},
              f"the server's key (65 bytes) and her default settings ({notifications})")
        private = ec.generate_private_key(ec.SECP256R1())
        p256dh = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        auth = os.urandom(16)
        endpoint = f"{push_origin}/push/{b64url(os.urandom(12))}"
        device = call("POST", "/notifications/devices", {"endpoint": endpoint, "keys": {"p256dh": b64url(p256dh), "auth": b64url(auth)}, "label": "Test phone"}, 201)
        check(device.get("label") == "Test phone", f"the device is hers ({device})")
        result = call("POST", "/notifications/test")
        check(result == {"sent": 1, "failed": []}, f"the test reached her one device ({result})")
        tests = push.topic("test")
        check(len(tests) == 1 and tests[0]["path"] == endpoint[len(push_origin):], f"her push service got one POST at her endpoint ({len(tests)})")

        def read(request):
            plain = http_ece.decrypt(request["body"], private_key=private, auth_secret=auth, version="aes128gcm")
            return json.loads(plain)

        if tests:
            request = tests[0]
            headers = request["headers"]
            check(headers.get("Content-Encoding") == "aes128gcm" and headers.get("TTL") == "600" and headers.get("Urgency") == "normal",
                  f"Content-Encoding, TTL and Urgency ({headers.get('Content-Encoding')}, {headers.get('TTL')}, {headers.get('Urgency')})")
            message = read(request)
            check(message == {"title": "Commission", "body": "This is how your reminders will look.", "url": "/settings/notifications", "tag": "test"},
                  f"http_ece decrypts it to the notification ({message})")
            verify_vapid(request, public_key, push_origin)

        print("A clinic late while the server was down is said when it starts, once")
        server.stop()
        server = Server(db, workdir, port)
        server.wait_for(lambda: server.said(r"reminders: the pass at start sent"), "the pass at start")
        late = push.topic("late-")
        check(len(late) == 1, f"one notification that Glow is late ({len(late)})")
        if late:
            message = read(late[0])
            check(message["title"] == "Glow is late" and "24.00" in message["body"] and message["url"].startswith(f"/payouts?clinic={clinic}&period="),
                  f"it names the clinic and what it owes, its tap opening Payouts prefilled ({message})")
            check(late[0]["headers"].get("Topic") == f"late-{clinic}", "its Topic is the clinic's: a newer one replaces it")
            verify_vapid(late[0], public_key, push_origin)
        server.stop()
        server = Server(db, workdir, port)
        server.wait_for(lambda: server.said(r"reminders: the pass at start sent"), "the pass at start")
        check(len(push.topic("late-")) == 1 and server.said(r"the pass at start sent 0 notifications"),
              "started again, it says nothing twice")

        print("Her pay dates calendar, read by icalendar")
        link = call("POST", "/calendar", status=201)
        check(link["webcal"].startswith("webcal://") and link["url"].endswith(".ics"), f"a private link, and its webcal: form ({link['webcal'][:40]}…)")
        path = "/" + link["url"].split("/", 3)[3]
        feed = requests.get(server.base + path, timeout=30)
        check(feed.status_code == 200 and feed.headers.get("Content-Type", "").startswith("text/calendar"), "the feed answers without a sign-in")
        calendar = icalendar.Calendar.from_ical(feed.content)
        events = [e for e in calendar.walk("VEVENT")]
        uids = [str(e["UID"]) for e in events]
        check(len(events) > 0 and len(set(uids)) == len(uids), f"{len(events)} events, each of its own UID")
        check(all(isinstance(e.decoded("DTSTART"), datetime.date) and not isinstance(e.decoded("DTSTART"), datetime.datetime) and "DTSTAMP" in e for e in events),
              "every event is all-day, with its DTSTAMP")
        period_start = late[0] and re.search(r"period=(\d{4}-\d{2}-\d{2})", read(late[0])["url"]).group(1) if late else sold[:8] + "01"
        summaries = {str(e["UID"]): str(e["SUMMARY"]) for e in events}
        pay = [s for u, s in summaries.items() if u.startswith(f"commission-{clinic}-{period_start}-pay@")]
        check(len(pay) == 1 and pay[0].startswith("Overdue: Glow owes") and "24.00" in pay[0], f"the late period's pay day says overdue ({pay})")
        ends = [s for u, s in summaries.items() if u.endswith("-end@127.0.0.1")]
        check(len(ends) >= 6 and all(s == "Glow: pay period ends" for s in ends), f"each period's end is an event ({len(ends)})")
        call("POST", "/payouts", {"clinicId": clinic, "period": period_start, "amount": "24.00", "receivedOn": datetime.date.today().isoformat()}, 201)
        again = requests.get(server.base + path, headers={"If-None-Match": feed.headers.get("ETag", "")}, timeout=30)
        check(again.status_code == 200 and again.headers.get("ETag") != feed.headers.get("ETag"), "a payment recorded changes the feed and its ETag")
        paid = [str(e["SUMMARY"]) for e in icalendar.Calendar.from_ical(again.content).walk("VEVENT") if str(e["UID"]).startswith(f"commission-{clinic}-{period_start}-pay@")]
        check(paid and paid[0].startswith("Paid: Glow paid"), f"the period's pay day says paid ({paid})")
        same = requests.get(server.base + path, headers={"If-None-Match": again.headers.get("ETag", "")}, timeout=30)
        check(same.status_code == 304, f"unchanged, it answers 304 ({same.status_code})")
        call("POST", "/calendar/revoke", status=204)
        check(requests.get(server.base + path, timeout=30).status_code == 404, "a revoked link answers 404")
    finally:
        server.stop()
        push.server.shutdown()
        if not failures:
            shutil.rmtree(workdir, ignore_errors=True)
    if failures:
        print(f"\n{len(failures)} push check(s) failed; logs in {workdir}")
        sys.exit(1)
    print("\nEvery push and calendar check passed.")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""scripts/check-api-compatibility holds: each kind of break it names, planted in a copy of this
release's document, fails it; the document as it is passes; a new major version may break."""
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
loader = importlib.machinery.SourceFileLoader("check", os.path.join(ROOT, "scripts", "check-api-compatibility"))
spec = importlib.util.spec_from_loader("check", loader)
check = importlib.util.module_from_spec(spec)
loader.exec_module(check)

with open(os.path.join(ROOT, "Sources/CommissionWeb/Resources/openapi.json"), encoding="utf-8") as f:
    DOCUMENT = json.load(f)
failures = []


def planted(name, change, expected):
    document = copy.deepcopy(DOCUMENT)
    change(document)
    breaks, _ = check.compare(DOCUMENT, document)
    found = [line for line in breaks if expected in line]
    print(("ok   " if found else "FAIL ") + name + (f": {found[0]}" if found else f": {breaks}"))
    if not found:
        failures.append(name)


def schema(document, name):
    return document["components"]["schemas"][name]


def sale_input(document):
    body = document["paths"]["/api/v1/sales"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return check.Document(document).resolve(body)


def remove_path(d):
    del d["paths"]["/api/v1/dashboard"]


def remove_answer_member(d):
    del schema(d, "Sale")["properties"]["commission"]
    schema(d, "Sale")["required"] = [n for n in schema(d, "Sale").get("required", []) if n != "commission"]


def rename_answer_member(d):
    members = schema(d, "Sale")["properties"]
    members["commissionAmount"] = members.pop("commission")


def narrow_input(d):
    sale_input(d)["properties"]["quantity"] = {"type": "string"}


def require_input(d):
    body = sale_input(d)
    body["required"] = sorted(set(body.get("required", [])) | {"note"})


def require_parameter(d):
    d["paths"]["/api/v1/sales"]["get"].setdefault("parameters", []).append(
        {"name": "cursor", "in": "query", "required": True, "schema": {"type": "string"}})


def widen_answer_enum(d):
    schema(d, "Sale")["properties"]["basis"]["enum"].append("turnover")


def narrow_input_enum(d):
    schema(d, "TermsInput")["properties"]["basis"]["enum"].remove("revenue")


planted("a path removed", remove_path, "/api/v1/dashboard: no longer served")
planted("a value an answer did not have", widen_answer_enum, '.basis: answers "turnover"')
planted("a value an input no longer takes", narrow_input_enum, 'basis: no longer takes "revenue"')
planted("a member of an answer removed", remove_answer_member, ".commission: no longer in the answer")
planted("a member of an answer renamed", rename_answer_member, ".commission: no longer in the answer")
planted("an input narrowed to another type", narrow_input, "body.quantity: takes ['string']")
planted("an input newly required", require_input, "body.note: newly required")
planted("a parameter newly required", require_parameter, "the query parameter cursor is newly required")

same, _ = check.compare(DOCUMENT, DOCUMENT)
print(("ok   " if not same else "FAIL ") + "the document against itself: nothing breaks")
if same:
    failures.append("itself")
major = copy.deepcopy(DOCUMENT)
remove_path(major)
major["info"]["version"] = "2.0.0"
allowed, _ = check.compare(DOCUMENT, major)
print(("ok   " if not allowed else "FAIL ") + "a new major version may remove a path")
if allowed:
    failures.append("major")

if failures:
    print(f"{len(failures)} check(s) failed: {', '.join(failures)}")
    sys.exit(1)
print("the compatibility check finds every planted break")

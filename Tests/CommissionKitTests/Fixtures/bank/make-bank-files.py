#!/usr/bin/env python3
"""Makes the bank file fixtures, each in its bank format, and reads each back with a reader that
is not ours before it is kept:

- OFX 1.02 (SGML, leaf tags left open: what QFX gives) and OFX 2.2 (XML), written by the PyPI
  package ofxtools from its models, read back by ofxtools' own parser;
- CAMT.053 of two versions (camt.053.001.02 and camt.053.001.08, where the debtor's name moved
  under Pty and the status under Cd), written to ISO 20022's published layout with Python's
  ElementTree, read back by Python's XML parser;
- MT940 with the German banks' ?20-?32 subfields in its :86: lines, written to SWIFT's published
  layout, read back by the PyPI package mt-940.

march-april.* hold the deposits of BankStatementTests' CSV statement (one already recorded, one
paying two periods, one nothing fits, money out, one fitting a balance without the clinic's
name); april-may.* overlap them by one transaction (its bank id the same) and add a deposit of
May, a credit in another currency and (CAMT) an entry not yet booked.

    pip install ofxtools mt-940
    Tests/CommissionKitTests/Fixtures/bank/make-bank-files.py           writes them here
    Tests/CommissionKitTests/Fixtures/bank/make-bank-files.py --check   writes and reads them back
        elsewhere, and fails unless each is byte for byte the one committed (scripts/test runs it)
"""

import datetime
import filecmp
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from decimal import Decimal

import mt940
from ofxtools.Client import OFXClient
from ofxtools.models import (
    BANKACCTFROM, BANKMSGSRSV1, BANKTRANLIST, LEDGERBAL, OFX, SIGNONMSGSRSV1, SONRS, STATUS,
    STMTRS, STMTTRN, STMTTRNRS, CURRENCY,
)
from ofxtools.Parser import OFXTree
from ofxtools.utils import UTC

COMMITTED = os.path.dirname(os.path.abspath(__file__))
CHECK = "--check" in sys.argv
HERE = tempfile.mkdtemp() if CHECK else COMMITTED

# (day, text, amount, bank id, currency)
MARCH_APRIL = [
    ("2026-03-12", "HARBOR DENTAL PAYMENT", "33.00", "20260312-0001", "USD"),
    ("2026-03-20", "GLOW AESTHETICS LTD JAN+FEB", "36.00", "20260320-0002", "USD"),
    ("2026-04-02", "AMAZON REFUND", "19.99", "20260402-0003", "USD"),
    ("2026-04-03", "CARD PAYMENT", "-45.00", "20260403-0004", "USD"),
    ("2026-04-10", "GLWA LTD 7781", "36.00", "20260410-0005", "USD"),
]
APRIL_MAY = [
    MARCH_APRIL[4],
    ("2026-04-28", "TRANSFER FROM SAVINGS", "120.00", "20260428-0006", "EUR"),
    ("2026-05-08", "GLOW AESTHETICS LTD MARCH", "36.00", "20260508-0007", "USD"),
]


def day(text):
    return datetime.date.fromisoformat(text)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as file:
        file.write(data)


# OFX ------------------------------------------------------------------------------------------


def ofx(rows):
    transactions = []
    for date, text, amount, fitid, currency in rows:
        posted = datetime.datetime.combine(day(date), datetime.time(12), tzinfo=UTC)
        transactions.append(
            STMTTRN(
                trntype="CREDIT" if Decimal(amount) > 0 else "DEBIT",
                dtposted=posted,
                trnamt=Decimal(amount),
                fitid=fitid,
                name=text,
                currency=CURRENCY(cursym=currency, currate=Decimal("1.1")) if currency != "USD" else None,
            )
        )
    start, end = day(rows[0][0]), day(rows[-1][0])
    moment = lambda d: datetime.datetime.combine(d, datetime.time(0), tzinfo=UTC)
    statement = STMTRS(
        curdef="USD",
        bankacctfrom=BANKACCTFROM(bankid="121000358", acctid="000123456789", accttype="CHECKING"),
        banktranlist=BANKTRANLIST(*transactions, dtstart=moment(start), dtend=moment(end)),
        ledgerbal=LEDGERBAL(balamt=Decimal("1000.00"), dtasof=moment(end)),
    )
    status = STATUS(code=0, severity="INFO")
    return OFX(
        signonmsgsrsv1=SIGNONMSGSRSV1(
            sonrs=SONRS(status=status, dtserver=moment(end), language="ENG")
        ),
        bankmsgsrsv1=BANKMSGSRSV1(STMTTRNRS(trnuid="1001", status=status, stmtrs=statement)),
    )


def write_ofx(name, rows, version):
    # ofxtools' own serializer: OFX 1 with its leaf elements left open (SGML), OFX 2 as XML.
    client = OFXClient("https://ofx.example.com", version=102 if version == 1 else 220)
    data = client.serialize(ofx(rows), prettyprint=True, close_elements=version != 1)
    write(name, data)
    # Read back by ofxtools' own parser.
    parsed = OFXTree()
    parsed.parse(os.path.join(HERE, name))
    statement = parsed.convert().statements[0]
    got = [(t.dtposted.date().isoformat(), t.name, t.trnamt, t.fitid) for t in statement.transactions]
    assert got == [(d, n, Decimal(a), f) for d, n, a, f, _ in rows], got


# CAMT.053 -------------------------------------------------------------------------------------


def write_camt(name, rows, version, pending=False):
    ns = f"urn:iso:std:iso:20022:tech:xsd:camt.053.001.{version}"
    ET.register_namespace("", ns)

    def sub(parent, tag, text=None, **attributes):
        element = ET.SubElement(parent, f"{{{ns}}}{tag}", attributes)
        if text is not None:
            element.text = text
        return element

    document = ET.Element(f"{{{ns}}}Document")
    root = sub(document, "BkToCstmrStmt")
    header = sub(root, "GrpHdr")
    sub(header, "MsgId", "STMT-" + rows[0][0])
    sub(header, "CreDtTm", rows[-1][0] + "T23:00:00")
    statement = sub(root, "Stmt")
    sub(statement, "Id", "STMT-" + rows[0][0] + "-1")
    sub(statement, "CreDtTm", rows[-1][0] + "T23:00:00")
    account = sub(statement, "Acct")
    sub(sub(account, "Id"), "IBAN", "DE89370400440532013000")
    sub(account, "Ccy", "USD")
    entries = list(rows)
    if pending:
        entries.append(("2026-05-09", "GLOW AESTHETICS LTD APRIL", "12.00", "20260509-0008", "USD"))
    for index, (date, text, amount, reference, currency) in enumerate(entries):
        entry = sub(statement, "Ntry")
        sub(entry, "NtryRef", str(index + 1))
        sub(entry, "Amt", str(abs(Decimal(amount))), Ccy=currency)
        sub(entry, "CdtDbtInd", "CRDT" if Decimal(amount) > 0 else "DBIT")
        state = "PDNG" if pending and index == len(entries) - 1 else "BOOK"
        if version == "02":
            sub(entry, "Sts", state)
        else:
            sub(sub(entry, "Sts"), "Cd", state)
        sub(sub(entry, "BookgDt"), "Dt", date)
        sub(sub(entry, "ValDt"), "Dt", date)
        sub(entry, "AcctSvcrRef", reference)
        code = sub(entry, "BkTxCd")
        domain = sub(code, "Domn")
        sub(domain, "Cd", "PMNT")
        family = sub(domain, "Fmly")
        sub(family, "Cd", "RCDT" if Decimal(amount) > 0 else "ICDT")
        sub(family, "SubFmlyCd", "ESCT")
        transaction = sub(sub(entry, "NtryDtls"), "TxDtls")
        sub(sub(transaction, "Refs"), "EndToEndId", "NOTPROVIDED")
        parties = sub(transaction, "RltdPties")
        party = sub(parties, "Dbtr" if Decimal(amount) > 0 else "Cdtr")
        payer, _, purpose = text.partition(" LTD ")
        if version == "02":
            sub(party, "Nm", payer if purpose else text)
        else:
            sub(sub(party, "Pty"), "Nm", payer if purpose else text)
        if purpose:
            sub(sub(transaction, "RmtInf"), "Ustrd", "LTD " + purpose)
    ET.indent(document)
    data = ET.tostring(document, encoding="utf-8", xml_declaration=True)
    write(name, data)
    # Read back by Python's XML parser.
    parsed = ET.parse(os.path.join(HERE, name)).getroot()
    got = [
        (e.find(f"{{{ns}}}BookgDt/{{{ns}}}Dt").text, e.find(f"{{{ns}}}Amt").text, e.find(f"{{{ns}}}CdtDbtInd").text)
        for e in parsed.iter(f"{{{ns}}}Ntry")
    ]
    assert got == [(d, str(abs(Decimal(a))), "CRDT" if Decimal(a) > 0 else "DBIT") for d, _, a, _, _ in entries], got


# MT940 ----------------------------------------------------------------------------------------


def write_mt940(name, rows):
    lines = [":20:STARTUMS", ":25:37040044/0532013000", ":28C:00001/001", ":60F:C" + day(rows[0][0]).strftime("%y%m%d") + "USD1000,00"]
    for date, text, amount, reference, currency in rows:
        if currency != "USD":
            continue  # an MT940 statement is of one account in one currency
        value = Decimal(amount)
        when = day(date)
        lines.append(
            ":61:" + when.strftime("%y%m%d") + when.strftime("%m%d") + ("C" if value > 0 else "D")
            + str(abs(value)).replace(".", ",") + "NTRFNONREF//" + reference
        )
        payer, _, purpose = text.partition(" LTD ")
        subfields = "?00" + ("GUTSCHRIFT" if value > 0 else "KARTENZAHLUNG") + "?10931"
        subfields += "?20" + ("LTD " + purpose if purpose else text) + "?3037040044?310532013000"
        subfields += "?32" + (payer if purpose else text)
        field = ("166" if value > 0 else "106") + subfields
        # :86: lines are at most 65 characters; the rest goes on the next lines.
        lines.append(":86:" + field[:61])
        rest = field[61:]
        while rest:
            lines.append(rest[:65])
            rest = rest[65:]
    lines.append(":62F:C" + day(rows[-1][0]).strftime("%y%m%d") + "USD1000,00")
    lines.append("-")
    write(name, ("\r\n".join(lines) + "\r\n").encode("latin-1"))
    # Read back by the PyPI package mt-940.
    parsed = mt940.parse(os.path.join(HERE, name))
    got = [(t.data["date"].isoformat(), t.data["amount"].amount, t.data["bank_reference"]) for t in parsed]
    want = [(d, Decimal(a), r) for d, _, a, r, c in rows if c == "USD"]
    assert got == want, got


write_ofx("march-april.qfx", MARCH_APRIL, 1)
write_ofx("march-april.ofx", MARCH_APRIL, 2)
write_ofx("april-may.qfx", APRIL_MAY, 1)
write_camt("march-april.camt053.001.02.xml", MARCH_APRIL, "02")
write_camt("march-april.camt053.001.08.xml", MARCH_APRIL, "08")
write_camt("april-may.camt053.001.08.xml", APRIL_MAY, "08", pending=True)
write_mt940("march-april.sta", MARCH_APRIL)
write_mt940("april-may.sta", APRIL_MAY)
if CHECK:
    names = sorted(n for n in os.listdir(HERE))
    differ = [n for n in names if not filecmp.cmp(os.path.join(HERE, n), os.path.join(COMMITTED, n), shallow=False)]
    assert not differ, f"the committed bank fixtures are not what this script writes: {differ}"
    print(f"{len(names)} bank fixtures written again and read back by ofxtools, Python's XML parser and mt-940: each the one committed")
else:
    print("bank fixtures written and read back")

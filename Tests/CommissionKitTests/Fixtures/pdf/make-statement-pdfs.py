#!/usr/bin/env python3
"""Makes the clinic statement PDFs as a clinic's spreadsheet prints them: each statement sheet
(written here as a flat OpenDocument spreadsheet, .fods, committed beside its PDF) printed to PDF by
LibreOffice (`soffice --convert-to pdf`), its header row repeated on every page.

- glow-march.fods/.pdf: ComparisonTests' statement of Glow's March, under a title and above a
  totals row;
- glow-long.fods/.pdf: 3,000 lines over many pages (the benchmark's), a product name long enough
  to wrap in its column, and a totals row;
- scan.pdf: a page with no text at all, as a scanner makes it (written by hand: no text layer).

    apt-get install libreoffice-calc-nogui
    Tests/CommissionKitTests/Fixtures/pdf/make-statement-pdfs.py
"""

import os
import subprocess
import tempfile
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))

GLOW_MARCH = [
    ("2026-03-05", "Serum", "3", "50.00", "36.00"),
    ("2026-03-10", "Serum", "1", "50.00", "12.00"),
    ("2026-03-12", "PEEL KIT (RETAIL)", "1", "70.00", "24.00"),
    ("2026-03-20", "Serum", "2", "45.00", "8.00"),
    ("2026-03-28", "Serum", "1", "50.00", "12.00"),
]


def cell(text, style=None):
    attribute = f' table:style-name="{style}"' if style else ""
    return f'<table:table-cell office:value-type="string"{attribute}><text:p>{escape(text)}</text:p></table:table-cell>'


def sheet(name, title, rows, total):
    header = ["Date", "Item", "Qty", "Price", "Your commission"]
    body = "".join("<table:table-row>" + "".join(cell(v, "wrap" if i == 1 else None) for i, v in enumerate(row)) + "</table:table-row>" for row in rows)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  <style:style style:name="narrow" style:family="table-column"><style:table-column-properties style:column-width="1.1in"/></style:style>
  <style:style style:name="wide" style:family="table-column"><style:table-column-properties style:column-width="1.6in"/></style:style>
  <style:style style:name="wrap" style:family="table-cell"><style:table-cell-properties fo:wrap-option="wrap"/></style:style>
 </office:automatic-styles>
 <office:body><office:spreadsheet><table:table table:name="{name}">
  <table:table-column table:style-name="narrow"/><table:table-column table:style-name="wide"/><table:table-column table:style-name="narrow" table:number-columns-repeated="3"/>
  <table:table-row>{cell(title)}</table:table-row>
  <table:table-row/>
  <table:table-header-rows><table:table-row>{"".join(cell(h) for h in header)}</table:table-row></table:table-header-rows>
  {body}
  <table:table-row>{cell("Total")}{cell("")}{cell("")}{cell("")}{cell(total)}</table:table-row>
 </table:table></office:spreadsheet></office:body>
</office:document>
"""


def print_to_pdf(name, text):
    fods = os.path.join(HERE, name + ".fods")
    with open(fods, "w", encoding="utf-8") as file:
        file.write(text)
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf", "--outdir", HERE, fods],
                       check=True, capture_output=True)


print_to_pdf("glow-march", sheet("Glow", "Glow Aesthetics — commission statement, March 2026", GLOW_MARCH, "92.00"))

long_rows, total = [], 0
for index in range(3000):
    day = 1 + index % 28
    name = "Hydrating Serum with Hyaluronic Acid, 30 ml" if index == 7 else ("Serum" if index % 3 else "Peel kit")
    commission = 1200 if name != "Peel kit" else 2400
    total += commission
    long_rows.append((f"2026-03-{day:02d}", name, "1", "50.00" if name != "Peel kit" else "70.00", f"{commission // 100}.{commission % 100:02d}"))
print_to_pdf("glow-long", sheet("Glow", "Glow Aesthetics — commission statement, March 2026", long_rows, f"{total // 100}.{total % 100:02d}"))

# A scan: one page whose only content is a grey rectangle, no text layer.
content = b"0.5 g 72 72 451 698 re f"
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << >> >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
]
pdf, offsets = b"%PDF-1.4\n", []
for number, body in enumerate(objects, 1):
    offsets.append(len(pdf))
    pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
xref = len(pdf)
pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
with open(os.path.join(HERE, "scan.pdf"), "wb") as file:
    file.write(pdf)
print("statement PDFs printed by LibreOffice")

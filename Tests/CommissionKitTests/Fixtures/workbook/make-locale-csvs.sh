#!/usr/bin/env bash
# Makes the locale CSV fixtures with LibreOffice: one sheet of sales as a US spreadsheet, a German
# one and an ISO one export it ("save cell contents as shown"): sales-us.csv (m/d/yyyy, $1,065.90),
# sales-de.csv (dd.mm.yyyy, 1.065,90 €, `;` between fields) and sales-iso.csv (yyyy-mm-dd, 1065.90).
# All three must import into the same figures. Debian's libreoffice-calc-nogui; the CSV files are
# committed, and this script is how they were made. Beside them, written by hand in those programs'
# manner (neither runs here): sales-excel-de.csv (Excel with German settings, "CSV UTF-8": a BOM,
# CRLF, `;`) and sales-google-sheets.csv (Google Sheets' download: CRLF, grouped amounts quoted).
#
#   Tests/CommissionKitTests/Fixtures/workbook/make-locale-csvs.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v soffice >/dev/null || { echo "needs LibreOffice: apt-get install libreoffice-calc-nogui" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# $1 language, $2 country, $3 date style body, $4 currency style body, $5 output
write() {
  cat > "$5" <<FODS
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:styles>
  <number:date-style style:name="d" number:language="$1" number:country="$2">$3</number:date-style>
  <number:currency-style style:name="m" number:language="$1" number:country="$2">$4</number:currency-style>
  <number:number-style style:name="n" number:language="$1" number:country="$2"><number:number number:decimal-places="2" number:min-integer-digits="1"/></number:number-style>
 </office:styles>
 <office:automatic-styles>
  <style:style style:name="cd" style:family="table-cell" style:data-style-name="d"/>
  <style:style style:name="cm" style:family="table-cell" style:data-style-name="m"/>
  <style:style style:name="cn" style:family="table-cell" style:data-style-name="n"/>
 </office:automatic-styles>
 <office:body><office:spreadsheet><table:table table:name="Sales">
  <table:table-row>$(for h in Date Clinic Product Qty "Unit price" Discount Note; do echo "<table:table-cell office:value-type=\"string\"><text:p>$h</text:p></table:table-cell>"; done)</table:table-row>
$(row 2026-03-02 "Glow Aesthetics" "Serum 30ml" 2 "" "" "")
$(row 2026-03-02 "Harbor Dental" "PEEL" 1 "" "5.25" "after the peel")
$(row 2026-03-16 "Harbor Dental" "Serum 30ml" 3 "" "" "")
$(row 2026-03-17 "Glow Aesthetics" "Peel kit" 4 "1065.9" "" "price typed over")
$(row 2026-03-31 "Glow Aesthetics" "Serum 30ml" -1 "" "" "a return")
$(row 2026-04-01 "Harbor Dental" "Peel kit" 2 "" "0.5" "")
 </table:table></office:spreadsheet></office:body>
</office:document>
FODS
}
row() {
  echo "<table:table-row><table:table-cell table:style-name=\"cd\" office:value-type=\"date\" office:date-value=\"$1\"><text:p>$1</text:p></table:table-cell>"
  echo "<table:table-cell office:value-type=\"string\"><text:p>$2</text:p></table:table-cell><table:table-cell office:value-type=\"string\"><text:p>$3</text:p></table:table-cell>"
  echo "<table:table-cell office:value-type=\"float\" office:value=\"$4\"><text:p>$4</text:p></table:table-cell>"
  if [ -n "$5" ]; then echo "<table:table-cell table:style-name=\"cm\" office:value-type=\"currency\" office:value=\"$5\"><text:p>$5</text:p></table:table-cell>"; else echo "<table:table-cell/>"; fi
  if [ -n "$6" ]; then echo "<table:table-cell table:style-name=\"cm\" office:value-type=\"currency\" office:value=\"$6\"><text:p>$6</text:p></table:table-cell>"; else echo "<table:table-cell/>"; fi
  if [ -n "$7" ]; then echo "<table:table-cell office:value-type=\"string\"><text:p>$7</text:p></table:table-cell>"; fi
  echo "</table:table-row>"
}

write en US '<number:month/><number:text>/</number:text><number:day/><number:text>/</number:text><number:year number:style="long"/>' \
  '<number:currency-symbol number:language="en" number:country="US">$</number:currency-symbol><number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>' \
  "$work/sales-us.fods"
write de DE '<number:day number:style="long"/><number:text>.</number:text><number:month number:style="long"/><number:text>.</number:text><number:year number:style="long"/>' \
  '<number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/><number:text> </number:text><number:currency-symbol number:language="de" number:country="DE">€</number:currency-symbol>' \
  "$work/sales-de.fods"
write en GB '<number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/>' \
  '<number:number number:decimal-places="2" number:min-integer-digits="1"/>' \
  "$work/sales-iso.fods"
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true' --outdir "$work/us" "$work/sales-us.fods" >/dev/null
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,2057,false,true,true' --outdir "$work/iso" "$work/sales-iso.fods" >/dev/null
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1,,1031,false,true,true' --outdir "$work/de" "$work/sales-de.fods" >/dev/null
cp "$work/us/sales-us.csv" "$work/de/sales-de.csv" "$work/iso/sales-iso.csv" .
echo "wrote sales-us.csv, sales-de.csv and sales-iso.csv ($(soffice --version | head -1))"

#!/usr/bin/env bash
# Makes the workbook fixtures with LibreOffice, as a person's spreadsheet program writes them:
# her-book.fods (a flat OpenDocument spreadsheet, written by hand below: typed cells — dates,
# percentages, currency, a formula, text) is converted by LibreOffice Calc into her-book.xlsx and
# LibreOffice's own her-book.ods, and the same book with the 1904 date system into
# her-book-1904.xlsx and her-book-1904.ods. The .xlsx and .ods files are committed;
# this script is how they were made (Debian's libreoffice-calc-nogui), run again only to remake them.
# The CSV files beside them hold the same book as ISO CSV, the reading it must equal.
#
#   Tests/CommissionKitTests/Fixtures/workbook/make-workbooks.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v soffice >/dev/null || { echo "needs LibreOffice: apt-get install libreoffice-calc-nogui" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One spreadsheet, its null date (day 0) given: 1899-12-30 is LibreOffice's default (Excel's 1900
# system), 1904-01-01 the 1904 system.
write() {
  local null_date=$1 out=$2
  cat > "$out" <<FODS
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:styles>
  <number:date-style style:name="isodate"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>
  <number:date-style style:name="usdate"><number:month/><number:text>/</number:text><number:day/><number:text>/</number:text><number:year number:style="long"/></number:date-style>
  <number:percentage-style style:name="pct"><number:number number:decimal-places="1" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>
  <number:currency-style style:name="usd"><number:currency-symbol>\$</number:currency-symbol><number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:currency-style>
 </office:styles>
 <office:automatic-styles>
  <style:style style:name="cdate" style:family="table-cell" style:data-style-name="isodate"/>
  <style:style style:name="cus" style:family="table-cell" style:data-style-name="usdate"/>
  <style:style style:name="cpct" style:family="table-cell" style:data-style-name="pct"/>
  <style:style style:name="cusd" style:family="table-cell" style:data-style-name="usd"/>
 </office:automatic-styles>
 <office:body>
  <office:spreadsheet>
   <table:calculation-settings><table:null-date table:date-value="$null_date"/></table:calculation-settings>
   <table:table table:name="Notes">
    <table:table-row><table:table-cell office:value-type="string"><text:p>Maya's book, as she keeps it</text:p></table:table-cell></table:table-row>
   </table:table>
   <table:table table:name="Sales">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Date</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Clinic</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Product</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Qty</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Unit price</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Discount</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Note</text:p></table:table-cell>
    </table:table-row>
$(sales_rows)
   </table:table>
   <table:table table:name="Clinics">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Schedule</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Glow Aesthetics</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>monthly</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Harbor Dental</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>weekly:monday</text:p></table:table-cell>
    </table:table-row>
   </table:table>
   <table:table table:name="Products">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>SKU</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Unit price</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Unit cost</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Serum 30ml</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>SER-30</text:p></table:table-cell>
     <table:table-cell table:style-name="cusd" office:value-type="currency" office:currency="USD" office:value="1234.5"><text:p>\$1,234.50</text:p></table:table-cell>
     <table:table-cell table:style-name="cusd" office:value-type="currency" office:currency="USD" office:value="20"><text:p>\$20.00</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Peel kit</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>PEEL</text:p></table:table-cell>
     <table:table-cell table:formula="of:=ROUND(35.1*2;2)" office:value-type="float" office:value="70.2"><text:p>70.2</text:p></table:table-cell>
     <table:table-cell office:value-type="float" office:value="0.3"><text:p>0.3</text:p></table:table-cell>
    </table:table-row>
   </table:table>
   <table:table table:name="Terms">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Clinic</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Share</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Effective from</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Glow Aesthetics</text:p></table:table-cell>
     <table:table-cell table:style-name="cpct" office:value-type="percentage" office:value="0.375"><text:p>37.5%</text:p></table:table-cell>
     <table:table-cell table:style-name="cus" office:value-type="date" office:date-value="2026-01-01"><text:p>1/1/2026</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Harbor Dental</text:p></table:table-cell>
     <table:table-cell table:style-name="cpct" office:value-type="percentage" office:value="0.4"><text:p>40.0%</text:p></table:table-cell>
     <table:table-cell table:style-name="cdate" office:value-type="date" office:date-value="2026-01-01"><text:p>2026-01-01</text:p></table:table-cell>
    </table:table-row>
   </table:table>
   <table:table table:name="Price list">
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Clinic</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Product</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Price</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Effective from</text:p></table:table-cell>
    </table:table-row>
    <table:table-row>
     <table:table-cell office:value-type="string"><text:p>Harbor Dental</text:p></table:table-cell>
     <table:table-cell office:value-type="string"><text:p>Serum 30ml</text:p></table:table-cell>
     <table:table-cell table:style-name="cusd" office:value-type="currency" office:currency="USD" office:value="1199"><text:p>\$1,199.00</text:p></table:table-cell>
     <table:table-cell table:style-name="cdate" office:value-type="date" office:date-value="2026-03-15"><text:p>2026-03-15</text:p></table:table-cell>
    </table:table-row>
   </table:table>
  </office:spreadsheet>
 </office:body>
</office:document>
FODS
}

# The sales: a date cell (one with a time of day), clinic, product, quantity, an optional price
# (a return with a negative quantity, a price typed over), a discount, a note.
sales_rows() {
  row() {  # date [time] clinic product qty price discount note
    local date=$1 clinic=$2 product=$3 qty=$4 price=$5 discount=$6 note=$7
    echo '    <table:table-row>'
    echo "     <table:table-cell table:style-name=\"cdate\" office:value-type=\"date\" office:date-value=\"$date\"><text:p>${date%%T*}</text:p></table:table-cell>"
    echo "     <table:table-cell office:value-type=\"string\"><text:p>$clinic</text:p></table:table-cell>"
    echo "     <table:table-cell office:value-type=\"string\"><text:p>$product</text:p></table:table-cell>"
    echo "     <table:table-cell office:value-type=\"float\" office:value=\"$qty\"><text:p>$qty</text:p></table:table-cell>"
    if [ -n "$price" ]; then echo "     <table:table-cell table:style-name=\"cusd\" office:value-type=\"currency\" office:currency=\"USD\" office:value=\"$price\"><text:p>$price</text:p></table:table-cell>"; else echo '     <table:table-cell/>'; fi
    if [ -n "$discount" ]; then echo "     <table:table-cell office:value-type=\"float\" office:value=\"$discount\"><text:p>$discount</text:p></table:table-cell>"; else echo '     <table:table-cell/>'; fi
    if [ -n "$note" ]; then echo "     <table:table-cell office:value-type=\"string\"><text:p>$note</text:p></table:table-cell>"; fi
    echo '    </table:table-row>'
  }
  row 2026-03-02 "Glow Aesthetics" "Serum 30ml" 2 "" "" ""
  row 2026-03-02T14:30:00 "Harbor Dental" "PEEL" 1 "" "5.25" "after the peel"
  row 2026-03-16 "Harbor Dental" "Serum 30ml" 3 "" "" ""
  row 2026-03-17 "Glow Aesthetics" "Peel kit" 4 "65.9" "" "price typed over"
  row 2026-03-31 "Glow Aesthetics" "Serum 30ml" -1 "" "" "a return"
  row 2026-04-01 "Harbor Dental" "Peel kit" 2 "" "" ""
}

write 1899-12-30 "$work/her-book.fods"
write 1904-01-01 "$work/her-book-1904.fods"
soffice --headless --calc --convert-to xlsx --outdir "$work" "$work/her-book.fods" "$work/her-book-1904.fods" >/dev/null
soffice --headless --calc --convert-to ods --outdir "$work" "$work/her-book.fods" "$work/her-book-1904.fods" >/dev/null
cp "$work/her-book.xlsx" "$work/her-book-1904.xlsx" "$work/her-book.ods" "$work/her-book-1904.ods" .
echo "wrote her-book.xlsx, her-book-1904.xlsx, her-book.ods and her-book-1904.ods ($(soffice --version | head -1))"

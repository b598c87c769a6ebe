#!/usr/bin/env bash
# Makes the fixtures of her sheet "whatever its shape" with LibreOffice, from the same six sales as
# sales-iso.csv (which each must import to, to the cent):
#   sales-titled.xlsx, sales-titled.ods  a title and a date line above the header, a blank row, and a
#                                        totals row below the sales (SUM formulas under "Total")
#   sales-text-dates.xlsx                dates and amounts typed as text (3/16/2026, $1,065.90)
#   sales-de-headers.ods                 German headers, and a column no field reads (Lieferant)
#   sales-fr.csv, sales-es.csv           French and Spanish headers, exported as LibreOffice's CSV in
#                                        those locales (day/month/year, a decimal comma, `;`)
#   sales-partial.csv                    German headers but one no language has (Wann, the date): a
#                                        --map for it alone, the others still read by themselves
# Debian's libreoffice-calc-nogui; the files are committed, and this script is how they were made.
#
#   Tests/CommissionKitTests/Fixtures/workbook/make-shapes.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v soffice >/dev/null || { echo "needs LibreOffice: apt-get install libreoffice-calc-nogui" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cell() { echo "<table:table-cell office:value-type=\"string\"><text:p>$1</text:p></table:table-cell>"; }
number() { echo "<table:table-cell office:value-type=\"float\" office:value=\"$1\"><text:p>$1</text:p></table:table-cell>"; }
money() { if [ -n "$1" ]; then echo "<table:table-cell table:style-name=\"cm\" office:value-type=\"currency\" office:value=\"$1\"><text:p>$1</text:p></table:table-cell>"; else echo "<table:table-cell/>"; fi; }
day() { echo "<table:table-cell table:style-name=\"cd\" office:value-type=\"date\" office:date-value=\"$1\"><text:p>$1</text:p></table:table-cell>"; }
text_or_empty() { if [ -n "$1" ]; then cell "$1"; else echo "<table:table-cell/>"; fi; }

# $1 language, $2 country, $3 headers (|-separated), $4 how a row is written (cells|text), $5 extra
# column's value ("" for none), $6 rows above the header (|-separated, "" for none), $7 a totals row
# (yes|no), $8 date style body, $9 currency style body, $10 output.
write() {
  local language=$1 country=$2 headers=$3 kind=$4 extra=$5 above=$6 totals=$7 date_style=$8 money_style=$9 out=${10}
  {
    cat <<HEAD
<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:styles>
  <number:date-style style:name="d" number:language="$language" number:country="$country">$date_style</number:date-style>
  <number:currency-style style:name="m" number:language="$language" number:country="$country">$money_style</number:currency-style>
 </office:styles>
 <office:automatic-styles>
  <style:style style:name="cd" style:family="table-cell" style:data-style-name="d"/>
  <style:style style:name="cm" style:family="table-cell" style:data-style-name="m"/>
 </office:automatic-styles>
 <office:body><office:spreadsheet><table:table table:name="Sales">
HEAD
    local first=1
    if [ -n "$above" ]; then
      IFS='|' read -ra lines <<< "$above"
      for line in "${lines[@]}"; do echo "<table:table-row>$(cell "$line")</table:table-row>"; first=$((first + 1)); done
      echo "<table:table-row><table:table-cell/></table:table-row>"; first=$((first + 1))
    fi
    echo "<table:table-row>"
    IFS='|' read -ra names <<< "$headers"
    for name in "${names[@]}"; do cell "$name"; done
    echo "</table:table-row>"
    local header_row=$first
    row() {  # date clinic product qty price discount note; text dates as m/d/yyyy, amounts as $1,065.90
      echo "<table:table-row>"
      if [ "$kind" = text ]; then
        local y=${1%%-*} rest=${1#*-}; local m=${rest%%-*} d=${rest#*-}
        cell "$((10#$m))/$((10#$d))/$y"
      else
        day "$1"
      fi
      cell "$2"; cell "$3"; number "$4"
      if [ "$kind" = text ]; then
        if [ -n "$5" ]; then cell "\$1,065.90"; else echo "<table:table-cell/>"; fi
        if [ -n "$6" ]; then cell "\$$6"; else echo "<table:table-cell/>"; fi
      else
        money "$5"; money "$6"
      fi
      text_or_empty "$7"
      if [ -n "$extra" ]; then cell "$extra"; fi
      echo "</table:table-row>"
    }
    row 2026-03-02 "Glow Aesthetics" "Serum 30ml" 2 "" "" ""
    row 2026-03-02 "Harbor Dental" "PEEL" 1 "" "5.25" "after the peel"
    row 2026-03-16 "Harbor Dental" "Serum 30ml" 3 "" "" ""
    row 2026-03-17 "Glow Aesthetics" "Peel kit" 4 "1065.9" "" "price typed over"
    row 2026-03-31 "Glow Aesthetics" "Serum 30ml" -1 "" "" "a return"
    row 2026-04-01 "Harbor Dental" "Peel kit" 2 "" "0.5" ""
    if [ "$totals" = yes ]; then
      local from=$((header_row + 1)) to=$((header_row + 6))
      echo "<table:table-row>$(cell Total)<table:table-cell/><table:table-cell/>"
      echo "<table:table-cell table:formula=\"of:=SUM([.D$from:.D$to])\" office:value-type=\"float\" office:value=\"11\"><text:p>11</text:p></table:table-cell><table:table-cell/>"
      echo "<table:table-cell table:style-name=\"cm\" table:formula=\"of:=SUM([.F$from:.F$to])\" office:value-type=\"currency\" office:value=\"5.75\"><text:p>5.75</text:p></table:table-cell>"
      echo "</table:table-row>"
    fi
    echo " </table:table></office:spreadsheet></office:body>"
    echo "</office:document>"
  } > "$out"
}

us_date='<number:month/><number:text>/</number:text><number:day/><number:text>/</number:text><number:year number:style="long"/>'
us_money='<number:currency-symbol number:language="en" number:country="US">$</number:currency-symbol><number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>'
eu_date='<number:day number:style="long"/><number:text>/</number:text><number:month number:style="long"/><number:text>/</number:text><number:year number:style="long"/>'
eu_money='<number:number number:decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>'
english='Date|Clinic|Product|Qty|Unit price|Discount|Note'

write en US "$english" cells "" "Maya's sales 2026|as of 2026-04-02" yes "$us_date" "$us_money" "$work/sales-titled.fods"
write en US "$english" text "" "" no "$us_date" "$us_money" "$work/sales-text-dates.fods"
write de DE 'Datum|Klinik|Produkt|Menge|Preis|Rabatt|Bemerkung|Lieferant' cells "Lab Co" "" no "$eu_date" "$eu_money" "$work/sales-de-headers.fods"
write fr FR 'Date|Clinique|Produit|Quantité|Prix unitaire|Remise|Remarque' cells "" "" no "$eu_date" "$eu_money" "$work/sales-fr.fods"
write es ES 'Fecha|Clínica|Producto|Cantidad|Precio|Descuento|Nota' cells "" "" no "$eu_date" "$eu_money" "$work/sales-es.fods"
write de DE 'Wann|Klinik|Produkt|Menge|Preis|Rabatt|Bemerkung' cells "" "" no "$eu_date" "$eu_money" "$work/sales-partial.fods"

soffice --headless --calc --convert-to xlsx --outdir "$work" "$work/sales-titled.fods" "$work/sales-text-dates.fods" >/dev/null
soffice --headless --calc --convert-to ods --outdir "$work" "$work/sales-titled.fods" "$work/sales-de-headers.fods" >/dev/null
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1,,1036,false,true,true' --outdir "$work/fr" "$work/sales-fr.fods" >/dev/null
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1,,3082,false,true,true' --outdir "$work/es" "$work/sales-es.fods" >/dev/null
soffice --headless --calc --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1,,1031,false,true,true' --outdir "$work/de" "$work/sales-partial.fods" >/dev/null
cp "$work/sales-titled.xlsx" "$work/sales-titled.ods" "$work/sales-text-dates.xlsx" "$work/sales-de-headers.ods" "$work/fr/sales-fr.csv" "$work/es/sales-es.csv" "$work/de/sales-partial.csv" .
echo "wrote sales-titled.xlsx, sales-titled.ods, sales-text-dates.xlsx, sales-de-headers.ods, sales-fr.csv, sales-es.csv and sales-partial.csv ($(soffice --version | head -1))"

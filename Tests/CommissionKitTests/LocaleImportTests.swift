import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// Her spreadsheet as her locale writes it: dates in any common order (told from the whole file,
/// or asked for), amounts with signs, grouping and parentheses. The fixtures are LibreOffice's own
/// US, German and ISO exports of one sheet (`Fixtures/workbook/make-locale-csvs.sh`).
@Suite struct LocaleImportTests {
    static func fixture(_ name: String) -> String { WorkbookTests.fixture(name) }

    @Test func datesInEachOrderWorkedByHand() throws {
        #expect(try LocaleText.day("2/25/2026", order: .mdy) == day("2026-02-25"))
        #expect(try LocaleText.day("25/2/2026", order: .dmy) == day("2026-02-25"))
        #expect(try LocaleText.day("25.02.2026", order: .dmy) == day("2026-02-25"))
        #expect(try LocaleText.day("25.02.26", order: .dmy) == day("2026-02-25"))
        #expect(try LocaleText.day("2026/2/25", order: .ymd) == day("2026-02-25"))
        #expect(try LocaleText.day("2/25/26 2:30 PM", order: .mdy) == day("2026-02-25"))
        #expect(try LocaleText.day("1/2/31", order: .mdy) == day("1931-01-02"))  // 30–99: the 1900s
        #expect(try LocaleText.day("1/2/29", order: .mdy) == day("2029-01-02"))  // 00–29: the 2000s
        #expect(try LocaleText.day("2026-02-25 14:30:00", order: nil) == day("2026-02-25"))
        // ISO is ISO, whatever the order
        #expect(try LocaleText.day("2026-02-25T14:30", order: .dmy) == day("2026-02-25"))
        #expect(throws: ReadingError.self) { try LocaleText.day("2/30/2026", order: .mdy) }
        #expect(throws: ReadingError.self) { try LocaleText.day("2/25/2026", order: nil) }
        #expect(throws: (any Error).self) { try LocaleText.day("yesterday", order: .mdy) }

        // What each date says of the order.
        #expect(LocaleText.orders("2/25/2026") == [.mdy])
        #expect(LocaleText.orders("25/2/2026") == [.dmy])
        #expect(LocaleText.orders("2/3/2026") == [.mdy, .dmy])
        #expect(LocaleText.orders("02.03.2026") == [.dmy])  // dots are day.month.year
        #expect(LocaleText.orders("2026/2/25") == [.ymd])
        #expect(LocaleText.orders("2026-02-25") == nil)
    }

    @Test func amountsAsSpreadsheetsWriteThemWorkedByHand() throws {
        let usd = Currency.usd, eur = try Currency(code: "EUR", minorDigits: 2),
            chf = try Currency(code: "CHF", minorDigits: 2)
        #expect(try LocaleText.plainAmount("$1,234.50", currency: usd, decimalComma: false) == "1234.50")
        #expect(try LocaleText.plainAmount("USD 1,234.50", currency: usd, decimalComma: false) == "1234.50")
        #expect(try LocaleText.plainAmount("(12.50)", currency: usd, decimalComma: false) == "-12.50")
        #expect(try LocaleText.plainAmount("($12.50)", currency: usd, decimalComma: false) == "-12.50")
        #expect(try LocaleText.plainAmount("-$5.00", currency: usd, decimalComma: false) == "-5.00")
        #expect(try LocaleText.plainAmount("12.50-", currency: usd, decimalComma: false) == "-12.50")
        #expect(try LocaleText.plainAmount("1.234,50 €", currency: eur, decimalComma: true) == "1234.50")
        #expect(try LocaleText.plainAmount("1 234,50", currency: eur, decimalComma: true) == "1234.50")
        #expect(try LocaleText.plainAmount("1\u{202F}234,50\u{A0}€", currency: eur, decimalComma: true) == "1234.50")
        #expect(try LocaleText.plainAmount("1'234.50", currency: chf, decimalComma: false) == "1234.50")
        #expect(try LocaleText.plainAmount("CHF 1'234.50", currency: chf, decimalComma: false) == "1234.50")
        #expect(throws: ReadingError.self) {
            try LocaleText.plainAmount("1,23,456.00", currency: usd, decimalComma: false)
        }
        // Another currency's sign is left on, so the amount is refused rather than read as dollars.
        #expect(try LocaleText.plainAmount("12,50 €", currency: usd, decimalComma: true) == "12.50€")

        #expect(LocaleText.decimalComma(of: "12,50") == true && LocaleText.decimalComma(of: "1.234,50 €") == true)
        #expect(LocaleText.decimalComma(of: "12.50") == false && LocaleText.decimalComma(of: "$1,234.50") == false)
        #expect(LocaleText.decimalComma(of: "1,234") == nil && LocaleText.decimalComma(of: "12") == nil)
        #expect(LocaleText.decimalComma(of: "1.234.567") == true && LocaleText.decimalComma(of: "1,234,567") == false)
    }

    /// Imports `sales` into a new book with her clinics, products and terms (from the workbook
    /// fixture's CSVs) kept in `currency`; returns the book, or the run when it failed.
    static func book(
        _ sales: String,
        currency: String,
        _ extra: [String] = [],
        in directory: URL
    ) throws -> (path: String, run: Run) {
        let path = directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
        let made = try commission(["init", "--currency", currency, "--time-zone", "UTC", "--db", path])
        #expect(made.status == 0, "\(made.stderr)")
        let setup = try commission(
            ["import"] + ["clinics", "products", "terms"].map { fixture("\($0).csv") } + ["--db", path]
        )
        #expect(setup.status == 0, "\(setup.stderr)")
        return (path, try commission(["import", sales.hasPrefix("/") ? sales : fixture(sales), "--db", path] + extra))
    }

    @Test("US and German exports import into the same figures as the ISO one") func localeExports() async throws {
        let directory = temporaryDirectory()
        // LibreOffice's US and German exports; and, written by hand in their programs' manner, what Excel with German
        // settings saves as "CSV UTF-8" (a BOM, CRLF, `;`) and what Google Sheets downloads (CRLF, quoted grouped amounts).
        for (file, currency, said) in [
            ("sales-us.csv", "USD", "dates read as month/day/year: 3/16/2026 can only be read so"),
            ("sales-de.csv", "EUR", "amounts read with a decimal comma: 5,25 € can only be read so"),
            ("sales-excel-de.csv", "EUR", "dates read as day/month/year"),
            ("sales-google-sheets.csv", "USD", "dates read as month/day/year: 3/16/2026 can only be read so"),
        ] {
            let iso = try Self.book("sales-iso.csv", currency: currency, in: directory)
            #expect(iso.run.status == 0, "\(iso.run.stderr)")
            let local = try Self.book(file, currency: currency, in: directory)
            #expect(local.run.status == 0, "\(local.run.stderr)")
            #expect(local.run.stdout.contains(said), "\(local.run.stdout)")
            let checked = try await BookComparison(
                source: try SQLiteStore(.file(iso.path)),
                target: try SQLiteStore(.file(local.path))
            ).run(auditLog: false)
            #expect(checked.statements >= 4)
            // To the cent: the grouped price and the discounts.
            let sales = try await SQLiteStore(.file(local.path)).sales(SaleQuery())
            #expect(sales.map(\.line.unitPrice).contains(cents(106_590)))
            #expect(Set(sales.map(\.line.discount)) == [.zero, cents(525), cents(50)])
        }
        // German dates are day.month.year by their dots, whatever the days.
        let german = try Self.book("sales-de.csv", currency: "EUR", in: directory)
        #expect(german.run.stdout.contains("dates read as day/month/year"), "\(german.run.stdout)")
        // Euros are not dollars: a book kept in USD refuses the German file's amounts, naming them.
        let dollars = try Self.book("sales-de.csv", currency: "USD", in: directory)
        #expect(dollars.run.status == 1 && dollars.run.stderr.contains("5,25 €"), "\(dollars.run.stderr)")
    }

    /// Her clinics' own headers: the ISO sheet with its header in German, French, Spanish, Italian,
    /// Dutch and Portuguese (accents, case and a unit cost column as they write them) imports to the
    /// same figures — quantities and prices read, not taken as 1 × the product's price — and a
    /// column no field reads is named as passed over, never dropped without a word.
    @Test(arguments: [
        ("Datum;Klinik;Produkt;Menge;Preis;Rabatt;Bemerkung;Kosten;Lieferant", ";"),
        ("Date,Clinique,Produit,Quantité,Prix unitaire,Remise,Remarque,Coût,Fournisseur", ","),
        ("Fecha,Clínica,Producto,Cantidad,Precio,Descuento,Nota,Coste,Proveedor", ","),
        ("Data,Clinica,Prodotto,Quantità,Prezzo,Sconto,Nota,Costo,Fornitore", ","),
        ("Datum;Kliniek;Product;Aantal;Prijs;Korting;Opmerking;Kostprijs;Leverancier", ";"),
        ("Data,Clínica,Produto,Quantidade,Preço,Desconto,Nota,Custo,Fornecedor", ","),
    ])
    func headersInHerClinicsLanguagesAreReadAndAnUnknownColumnIsSaid(header: String, delimiter: String) async throws {
        let directory = temporaryDirectory()
        // The ISO sheet, with a cost of 20.00 each (as the product's) and a supplier no field reads.
        let iso = try String(contentsOfFile: Self.fixture("sales-iso.csv"), encoding: .utf8).split(separator: "\n")
            .dropFirst()
        let body = iso.map { line -> String in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if delimiter == ";" { cells = cells.map { $0.replacingOccurrences(of: ".", with: ",") } }
            return (cells + [delimiter == ";" ? "20,00" : "20.00", "Lab Co"]).joined(separator: delimiter)
        }
        let text = ([header] + body).joined(separator: "\n") + "\n"
        let translated = file("sales-\(UUID().uuidString).csv", text, in: directory)
        let plain = file(
            "sales-plain.csv",
            "Date,Clinic,Product,Qty,Unit price,Discount,Note,Unit cost\n"
                + iso.map { $0 + ",20.00" }.joined(separator: "\n") + "\n",
            in: directory
        )
        let reference = try Self.book(plain, currency: "EUR", in: directory)
        #expect(reference.run.status == 0, "\(reference.run.stderr)")
        let theirs = try Self.book(translated, currency: "EUR", in: directory)
        #expect(theirs.run.status == 0, "\(header): \(theirs.run.stderr)")
        let supplier = String(header.split(separator: Character(delimiter)).last!)
        #expect(theirs.run.stdout.contains("passed over: \(supplier)"), "\(header): \(theirs.run.stdout)")
        let sales = try await SQLiteStore(.file(theirs.path)).sales(SaleQuery())
        #expect(Set(sales.map(\.quantity)) == [2, 1, 3, 4, -1], "\(header): every quantity read")
        #expect(
            sales.map(\.line.unitPrice).contains(cents(106_590)) && Set(sales.map(\.line.unitCost)) == [cents(2000)],
            "\(header): prices and costs read"
        )
        let checked = try await BookComparison(
            source: try SQLiteStore(.file(reference.path)),
            target: try SQLiteStore(.file(theirs.path))
        ).run(auditLog: false)
        #expect(checked.statements >= 4)
    }

    /// A partial mapping keeps the other headers Commission knows, and names what it passes over.
    @Test func aPartialMappingKeepsRecognisingTheOtherColumns() async throws {
        let directory = temporaryDirectory()
        let sheet = file(
            "mapped.csv",
            "Wann,Bei,Produkt,Menge,Preis,Notiz intern\n2026-03-02,Glow Aesthetics,Serum 30ml,3,45.00,x\n",
            in: directory
        )
        let run = try Self.book(sheet, currency: "EUR", ["--map", "Wann=date", "--map", "Bei=clinic"], in: directory)
        #expect(
            run.run.status == 0 && run.run.stdout.contains("passed over: Notiz intern"),
            "\(run.run.stderr)\(run.run.stdout)"
        )
        // A dry run shows the first sales as read.
        let dry = try commission([
            "import", sheet, "--map", "Wann=date", "--map", "Bei=clinic", "--dry-run", "--again", "--db", run.path,
        ])
        #expect(
            dry.status == 0
                && dry.stdout.contains(
                    "as read:\n  line 2  2026-03-02  Glow Aesthetics  3 × Serum 30ml at 45.00, cost the product's\n"
                ),
            "\(dry.stdout)\(dry.stderr)"
        )
        let sale = try #require(try await SQLiteStore(.file(run.path)).sales(SaleQuery()).first)
        #expect(
            sale.quantity == 3 && sale.line.unitPrice == cents(4500),
            "Menge and Preis read beside the mapped columns"
        )
    }

    /// Her sheet as she keeps it: a title and a blank row above the header, and a totals row (a
    /// "Total" label, or a SUM row with no date, clinic or product) below the sales. The header is
    /// found, the totals row passed over and said, and the figures are the plain sheet's — in a
    /// CSV (LibreOffice's German manner too: `;`, the title without one) and in a workbook.
    @Test func aTitleAboveTheHeaderAndATotalsRowBelowTheSales() async throws {
        let directory = temporaryDirectory()
        let iso = try String(contentsOfFile: Self.fixture("sales-iso.csv"), encoding: .utf8).split(separator: "\n")
        let reference = try Self.book("sales-iso.csv", currency: "USD", in: directory)
        #expect(reference.run.status == 0, "\(reference.run.stderr)")
        let titled = file(
            "titled.csv",
            (["Maya's sales 2026", ""] + iso + ["Total,,,11,,5.75,"]).joined(separator: "\n") + "\n",
            in: directory
        )
        let german = file(
            "titled-de.csv",
            (["Verkäufe 2026", "Stand: 31.03.2026", ""] + iso.map { $0.replacingOccurrences(of: ",", with: ";") }
                + [";;;11;;5.75;", "Summe;;;11;;;"]).joined(separator: "\n") + "\n",
            in: directory
        )
        for (sheet, said) in [
            (titled, "passed over the totals row on line 10"),
            (german, "passed over the 2 totals rows on lines 11, 12"),
        ] {
            let run = try Self.book(sheet, currency: "USD", in: directory)
            #expect(run.run.status == 0 && run.run.stdout.contains(said), "\(run.run.stdout)\(run.run.stderr)")
            let checked = try await BookComparison(
                source: try SQLiteStore(.file(reference.path)),
                target: try SQLiteStore(.file(run.path))
            ).run(auditLog: false)
            #expect(checked.statements >= 4)
        }
        // The same in a workbook: a title cell, a blank row, the header on row 3, a SUM row at the end.
        func cell(_ reference: String, _ text: String) -> String {
            #"<c r="\#(reference)" t="inlineStr"><is><t>\#(text)</t></is></c>"#
        }
        let columns = ["A", "B", "C", "D", "E", "F", "G"]
        var rows = #"<row r="1">"# + cell("A1", "Maya&apos;s sales 2026") + "</row>"
        for (offset, line) in iso.enumerated() {
            let row = offset + 3
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter {
                !$0.element.isEmpty
            }
            rows +=
                #"<row r="\#(row)">"# + cells.map { cell("\(columns[$0.offset])\(row)", String($0.element)) }.joined()
                + "</row>"
        }
        rows += #"<row r="10">"# + cell("A10", "Total") + #"<c r="D10"><f>SUM(D4:D9)</f><v>11</v></c></row>"#
        let workbook = directory.appendingPathComponent("titled.xlsx")
        try WorkbookTests.workbook(at: workbook, sheet: "Sales", rows: rows)
        let run = try Self.book(workbook.path, currency: "USD", in: directory)
        #expect(
            run.run.status == 0 && run.run.stdout.contains("passed over the totals row on line 10"),
            "\(run.run.stdout)\(run.run.stderr)"
        )
        let checked = try await BookComparison(
            source: try SQLiteStore(.file(reference.path)),
            target: try SQLiteStore(.file(run.path))
        ).run(auditLog: false)
        #expect(checked.statements >= 4)
    }

    /// Dates and amounts typed as text in a workbook ("3/16/2026", "$1,065.90") are told from the
    /// sheet as a CSV's are: no --dates needed, the figures the plain sheet's.
    @Test func textDatesAndAmountsInAWorkbookAreToldFromTheSheet() async throws {
        let directory = temporaryDirectory()
        let reference = try Self.book("sales-iso.csv", currency: "USD", in: directory)
        let us = try String(contentsOfFile: Self.fixture("sales-us.csv"), encoding: .utf8).split(separator: "\n")
        func cell(_ reference: String, _ text: String) -> String {
            #"<c r="\#(reference)" t="inlineStr"><is><t>\#(text)</t></is></c>"#
        }
        let columns = ["A", "B", "C", "D", "E", "F", "G"]
        var rows = ""
        for (offset, line) in us.enumerated() {
            // LibreOffice's US export: quoted grouped amounts ("$1,065.90") hold a comma.
            var cells: [String] = [], quoted = false, current = ""
            for character in line {
                if character == "\"" {
                    quoted.toggle()
                } else if character == "," && !quoted {
                    cells.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            cells.append(current)
            rows +=
                #"<row r="\#(offset + 1)">"#
                + cells.enumerated().filter { !$0.element.isEmpty }.map {
                    cell("\(columns[$0.offset])\(offset + 1)", $0.element)
                }.joined() + "</row>"
        }
        let workbook = directory.appendingPathComponent("text-dates.xlsx")
        try WorkbookTests.workbook(at: workbook, sheet: "Sales", rows: rows)
        let run = try Self.book(workbook.path, currency: "USD", in: directory)
        #expect(run.run.status == 0, "\(run.run.stdout)\(run.run.stderr)")
        let checked = try await BookComparison(
            source: try SQLiteStore(.file(reference.path)),
            target: try SQLiteStore(.file(run.path))
        ).run(auditLog: false)
        #expect(checked.statements >= 4)
    }

    /// Her sheet as LibreOffice writes it, whatever its shape (`make-shapes.sh`: a title and a
    /// totals row, in .xlsx and .ods; dates and amounts typed as text; German headers with a column
    /// no field reads; French and Spanish exports; German headers but a date column mapped alone):
    /// each imports to the plain sheet's statements, saying what it passed over.
    @Test(arguments: [
        ("sales-titled.xlsx", "passed over the totals row on line 11"),
        ("sales-titled.ods", "passed over the totals row on line 11"),
        ("sales-text-dates.xlsx", "imported 6 sales"), ("sales-de-headers.ods", "passed over: Lieferant"),
        ("sales-fr.csv", "dates read as day/month/year"), ("sales-es.csv", "dates read as day/month/year"),
        ("sales-partial.csv", "columns as mapped in “--map”"),
    ])
    func herSheetAsLibreOfficeWritesItImportsToThePlainSheetsFigures(_ file: String, _ said: String) async throws {
        let directory = temporaryDirectory()
        let reference = try Self.book("sales-iso.csv", currency: "USD", in: directory)
        #expect(reference.run.status == 0, "\(reference.run.stderr)")
        // A header no language has is mapped alone; the others are still read by themselves.
        let theirs = try Self.book(
            file,
            currency: "USD",
            file == "sales-partial.csv" ? ["--map", "Wann=date"] : [],
            in: directory
        )
        #expect(
            theirs.run.status == 0 && theirs.run.stdout.contains(said),
            "\(file): \(theirs.run.stdout)\(theirs.run.stderr)"
        )
        let checked = try await BookComparison(
            source: try SQLiteStore(.file(reference.path)),
            target: try SQLiteStore(.file(theirs.path))
        ).run(auditLog: false)
        #expect(checked.statements >= 4)
    }

    @Test func aFileThatCannotTellAsksAndAForcedReadingIsTaken() async throws {
        let directory = temporaryDirectory()
        // Every day 12 or less: 3/2/2026 is the 2nd of March or the 3rd of February.
        let ambiguous = file(
            "ambiguous.csv",
            "date,clinic,product\n3/2/2026,Glow Aesthetics,Serum 30ml\n4/1/2026,Glow Aesthetics,Serum 30ml\n",
            in: directory
        )
        let path = directory.appendingPathComponent("book.sqlite").path
        _ = try commission(
            ["import"] + ["clinics", "products", "terms"].map { Self.fixture("\($0).csv") } + ["--db", path]
        )
        let asked = try commission(["import", ambiguous, "--db", path])
        #expect(
            asked.status == 1 && asked.stderr.contains("every day in it is 12 or less")
                && asked.stderr.contains("--dates"),
            "\(asked.stderr)"
        )
        #expect(try await SQLiteStore(.file(path)).countSales(SaleQuery()) == 0)
        let forced = try commission(["import", ambiguous, "--dates", "dmy", "--db", path])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            try await SQLiteStore(.file(path)).sales(SaleQuery()).map(\.date).sorted() == [
                day("2026-01-04"), day("2026-02-03"),
            ]
        )

        // Two orders in one file: refused, with the dates that disagree.
        let mixed = file(
            "mixed.csv",
            "date,clinic,product\n2/25/2026,Glow Aesthetics,Serum 30ml\n25/2/2026,Glow Aesthetics,Serum 30ml\n",
            in: directory
        )
        let refused = try commission(["import", mixed, "--db", path])
        #expect(refused.status == 1 && refused.stderr.contains("more than one order"), "\(refused.stderr)")
        // Ten thousand ISO rows say how the file is written: a date written otherwise after them is its row's error.
        var late = "date,clinic,product\n"
        for _ in 0..<10_000 { late += "2026-03-02,Glow Aesthetics,Serum 30ml\n" }
        late += "3/2/2026,Glow Aesthetics,Serum 30ml\n"
        let lateRun = try commission(["import", file("late.csv", late, in: directory), "--db", path])
        #expect(
            lateRun.status == 1 && lateRun.stderr.contains("line 10002") && lateRun.stderr.contains("pass --dates"),
            "\(lateRun.stderr.prefix(600))"
        )
        // Both decimal marks in one file: refused too.
        let marks = file(
            "marks.csv",
            "date,clinic,product,unit price\n2026-03-02,Glow Aesthetics,Serum 30ml,12.50\n2026-03-03,Glow Aesthetics,Serum 30ml,\"12,50\"\n",
            in: directory
        )
        let both = try commission(["import", marks, "--db", path])
        #expect(both.status == 1 && both.stderr.contains("both decimal marks"), "\(both.stderr)")
    }
}

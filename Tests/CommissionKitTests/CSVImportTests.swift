import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// A book with Glow (monthly, 40% of profit from 2026-01-01) and a serum (50.00, cost 20.00).
func glowBook() async throws -> SQLiteStore {
    let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
    let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
    _ = try await store.createProduct(
        ProductDraft(name: "Serum 30ml", sku: "SER-30", unitPrice: cents(5000), unitCost: cents(2000))
    )
    _ = try await store.createTerms(
        TermsDraft(clinicID: glow.id, share: try Share(parsing: "40"), effectiveFrom: day("2026-01-01"))
    )
    return store
}

func importCSV(
    _ text: [UInt8],
    into store: SQLiteStore,
    format: CSVFormat = CSVFormat(),
    dryRun: Bool = false
) async throws -> ImportSummary {
    let path = file("import.csv", text, in: temporaryDirectory())
    let source = try CSVImportSource(path: path, format: format, currency: .usd)
    return try await store.importRows(from: source, options: ImportOptions(dryRun: dryRun))
}

@Suite struct CSVImportTests {
    @Test func readsWhatSpreadsheetsExport() async throws {
        let store = try await glowBook()
        // A BOM, CRLF line ends, loose headers ("Unit_Price", "QTY", " Clinic "), a quoted product name
        // with a comma, and a note with an embedded newline.
        let csv =
            "\u{FEFF}Date, Clinic ,Product,QTY,Unit_Price,Note\r\n"
            + "2026-03-02,Glow,Serum 30ml,2,,\"first, then\r\nsecond line\"\r\n"
            + "2026-03-03,glow,SER-30,1,45.00,\r\n"
        let summary = try await importCSV(Array(csv.utf8), into: store)
        #expect(summary.sales == 2)
        let sales = try await store.sales(SaleQuery(order: .oldestFirst))
        #expect(sales.map(\.quantity) == [2, 1])
        #expect(sales[0].note == "first, then\r\nsecond line")
        // 2 × (50.00 − 20.00) × 40% = 24.00; 1 × (45.00 − 20.00) × 40% = 10.00.
        #expect(sales.map(\.figures.commission) == [cents(2400), cents(1000)])
    }

    @Test func readsSemicolonsAndDecimalCommas() async throws {
        let store = try await glowBook()
        let csv = "date;clinic;product;quantity;unit price;discount\n2026-03-02;Glow;Serum 30ml;1;\"48,50\";1,50\n"
        let summary = try await importCSV(Array(csv.utf8), into: store, format: CSVFormat(decimalComma: true))
        #expect(summary.sales == 1)
        // 48.50 − 1.50 = 47.00 revenue, 27.00 profit, 40% → 10.80.
        #expect(try await store.sales(SaleQuery()).first?.figures.commission == cents(1080))
    }

    @Test("One bad row means nothing is imported, and every bad row is reported") func oneBadRowImportsNothing()
        async throws
    {
        let store = try await glowBook()
        let csv = """
            date,clinic,product,quantity,unit price
            2026-03-02,Glow,Serum 30ml,1,
            2026-02-30,Glow,Serum 30ml,1,
            2026-03-04,Nowhere,Serum 30ml,1,
            "2026-03-05","Glow","Serum 30ml",0,
            2026-03-06,Glow,Serum 30ml,1,1e5
            2026-03-07,Glow,Serum 30ml,1

            """
        do {
            _ = try await importCSV(Array(csv.utf8), into: store)
            Issue.record("a file with bad rows was imported")
        } catch let StoreError.importRejected(problems, total) {
            #expect(total == 5)
            #expect(problems.map(\.line) == [3, 4, 5, 6, 7])
            #expect(problems.map(\.column) == ["date", "clinic", "quantity", "unit price", nil])
            #expect(problems[0].reason.contains("2026-02-30"))
            #expect(problems[4].reason.contains("5 fields but the header has 5") == false)
        }
        #expect(try await store.countSales(SaleQuery(includeVoided: true)) == 0)
    }

    @Test func lineNumbersCountEmbeddedNewlines() async throws {
        let store = try await glowBook()
        let csv = "date,clinic,product,note\n2026-03-02,Glow,Serum 30ml,\"two\nlines\"\n2026-03-03,Glow,Nothing,\n"
        do {
            _ = try await importCSV(Array(csv.utf8), into: store)
            Issue.record("an unknown product was imported")
        } catch let StoreError.importRejected(problems, _) {
            // Header line 1, first row lines 2–3, the bad row on line 4.
            #expect(problems.map(\.line) == [4])
            #expect(problems.first?.column == "product")
        }
    }

    @Test func dryRunWritesNothing() async throws {
        let store = try await glowBook()
        let summary = try await importCSV(
            Array("date,clinic,product\n2026-03-02,Glow,Serum 30ml\n".utf8),
            into: store,
            dryRun: true
        )
        #expect(summary.sales == 1 && summary.dryRun)
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test func importsClinicsProductsAndTermsToo() async throws {
        let store = try SQLiteStore(.inMemory)
        _ = try await importCSV(
            Array("Name,Pay schedule\nLumen,biweekly:2026-01-02\nNorthside,weekly:monday\n".utf8),
            into: store
        )
        _ = try await importCSV(Array("Product Name,SKU,Price,Cost\nMask,MSK-5,42.00,16.00\n".utf8), into: store)
        let terms = try await importCSV(
            Array(
                "Clinic,Product,Split,Basis,Effective From\nLumen,,12%,revenue,2026-01-01\nLumen,MSK-5,20,,2026-01-01\n"
                    .utf8
            ),
            into: store
        )
        #expect(terms.terms == 2)
        let lumen = try await store.clinic(named: "lumen")
        #expect(lumen.schedule == .biweekly(anchor: day("2026-01-02")))
        let all = try await store.terms(TermsQuery(clinicID: lumen.id))
        #expect(all.map(\.share.basisPoints) == [1200, 2000])
        #expect(all.map(\.basis) == [.revenue, .profit])
    }

    /// Price lists, schedule changes, deductions and tiers in files of their own (kinds told from
    /// the headers), and their exports import again into another book as they were.
    @Test("Her real terms import from CSV, and their exports import again") func realTermsRoundTrip() async throws {
        let store = try await glowBook()
        let files: [(csv: String, kind: ImportKind)] = [
            (
                "Clinic,Product,Unit price,Unit cost,Effective from\nGlow,SER-30,45.00,,2026-03-15\nglow,Serum 30ml,47.00,21.00,2026-05-01\n",
                .prices
            ),
            ("Clinic,Schedule,Effective from\nGlow,weekly:tuesday,2026-04-07\n", .schedules),
            (
                "Clinic,Name,Amount,Share,Effective from,Last day\nGlow,Room,10.00,,2026-03-01,2026-06-30\nGlow,Card fees,,2.5%,2026-03-01,\n",
                .deductions
            ),
            ("Clinic,Share,Effective from,Tiers\nGlow,40,2026-03-01,50.00:50% 100.00:60%\n", .terms),
        ]
        for (csv, kind) in files {
            let source = try CSVImportSource(
                path: file("\(kind).csv", Array(csv.utf8), in: temporaryDirectory()),
                currency: .usd
            )
            #expect(source.kind == kind)
            _ = try await store.importRows(from: source, options: ImportOptions())
        }
        let glow = try await store.clinic(named: "Glow")
        #expect(
            glow.scheduleChanges == [
                ScheduleChange(effectiveFrom: day("2026-04-07"), schedule: .weekly(startingOn: .tuesday))
            ]
        )
        #expect(
            try await store.prices(PriceQuery()).map { [$0.unitPrice, $0.unitCost] } == [
                [cents(4500), nil], [cents(4700), cents(2100)],
            ]
        )
        #expect(
            try await store.deductions(clinic: nil).map(\.amount) == [
                .fixed(cents(1000)), .shareOfRevenue(try Share(parsing: "2.5")),
            ]
        )
        #expect(
            try await store.terms(TermsQuery()).last?.tiers == [
                Tier(threshold: cents(5000), share: try Share(parsing: "50")),
                Tier(threshold: cents(10_000), share: try Share(parsing: "60")),
            ]
        )

        // Exported as CSV, each imports into another book with Glow and the serum, unchanged.
        let other = try await glowBook()
        let renderer = Renderer(currency: .usd)
        for kind in [ExportKind.terms, .prices, .schedules, .deductions] {
            let csv = renderer.render(try await renderer.export(kind, from: store), as: .csv)
            let source = try CSVImportSource(
                path: file("export-\(kind).csv", Array(csv.utf8), in: temporaryDirectory()),
                currency: .usd
            )
            #expect(source.kind.rawValue == kind.rawValue, "\(csv)")
            if kind == .terms {
                // The other book has Glow's first terms already: only the tiered ones are new.
                let rows =
                    csv.components(separatedBy: "\r\n").filter { $0.hasPrefix("id") || $0.contains(":") }.joined(
                        separator: "\r\n"
                    ) + "\r\n"
                _ = try await other.importRows(
                    from: try CSVImportSource(
                        path: file("tiered.csv", Array(rows.utf8), in: temporaryDirectory()),
                        currency: .usd
                    ),
                    options: ImportOptions()
                )
            } else {
                _ = try await other.importRows(from: source, options: ImportOptions())
            }
        }
        #expect(try await other.clinic(named: "Glow").scheduleChanges == glow.scheduleChanges)
        #expect(
            try await other.prices(PriceQuery()).map { [$0.unitPrice, $0.unitCost] } == [
                [cents(4500), nil], [cents(4700), cents(2100)],
            ]
        )
        #expect(
            try await other.deductions(clinic: nil).map {
                "\($0.name) \($0.amount) \($0.effectiveFrom) \($0.lastDay.map(\.description) ?? "-")"
            }
                == (try await store.deductions(clinic: nil)).map {
                    "\($0.name) \($0.amount) \($0.effectiveFrom) \($0.lastDay.map(\.description) ?? "-")"
                }
        )
        #expect(try await other.terms(TermsQuery()).last?.tiers == (try await store.terms(TermsQuery())).last?.tiers)

        // The March statement's CSV ends with what its lines do not say: the accelerator, each
        // deduction, the net payable. Two serums at 45.00: profit 50.00, 40% = 20.00, nothing beyond 50.00.
        _ = try await importCSV(Array("date,clinic,product,quantity\n2026-03-20,Glow,SER-30,3\n".utf8), into: store)
        let statement = try await store.statement(
            clinic: glow.id,
            period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        )
        let rows = renderer.render(statement, as: .csv).components(separatedBy: "\r\n").dropLast()
        // 3 × 25.00 = 75.00 profit: 30.00 on the line, 25.00 beyond 50.00 at +10% = 2.50; room 10.00,
        // card fees 2.5% of 135.00 = 3.375 → 3.38; net 32.50 − 13.38 = 19.12.
        #expect(
            Array(rows.suffix(6)) == [
                ",,Commission on the lines,,,,,,,30.00",
                ",,\"Accelerator (terms 2, 50.00:50.00%, 100.00:60.00% on 75.00)\",,,,,,,2.50",
                ",,Commission,,,,,,,32.50", ",,Less Room,,,,,,,10.00", ",,Less Card fees,,,,,,,3.38",
                ",,Net payable,,,,,,,19.12",
            ]
        )
        // The dashboard's JSON says what March is expected to bring and what Glow owes in all.
        let dashboard = try JSONSerialization.jsonObject(
            with: Data(renderer.render(try await store.dashboard(today: day("2026-03-25")), as: .json).utf8)
        )
        let clinic = try #require(((dashboard as? [String: Any])?["clinics"] as? [[String: Any]])?.first)
        #expect(
            clinic["expected"] as? String == "19.12" && clinic["balance"] as? String == "19.12"
                && clinic["owed"] as? String == "19.12"
                && clinic["overdue"] as? String == "0.00",
            "\(clinic)"
        )
    }

    @Test func aDeductionIsAnAmountOrAShareNotBoth() async throws {
        let store = try await glowBook()
        let error = await #expect(throws: StoreError.self) {
            try await importCSV(
                Array(
                    "clinic,name,amount,share,effective from\nGlow,Fee,5.00,2%,2026-03-01\nGlow,Tiers,,,2026-03-01\n"
                        .utf8
                ),
                into: store
            )
        }
        let text = error?.description ?? ""
        #expect(
            // The same problem on two rows: said once, with both lines.
            text.contains("lines 2, 3, column \"amount\"") && text.contains("either an amount per period or a share"),
            "\(text)"
        )
        #expect(try await store.deductions(clinic: nil).isEmpty)
        // A tier that is not one says so, with its column.
        let tiers = await #expect(throws: StoreError.self) {
            try await importCSV(Array("clinic,share,effective from,tiers\nGlow,40,2026-03-01,5000\n".utf8), into: store)
        }
        #expect(
            tiers?.description.contains("column \"tiers\"") == true
                && tiers?.description.contains("\"5000\" is not a tier") == true,
            "\(tiers?.description ?? "")"
        )
    }

    static let unreadableFiles: [(name: String, bytes: [UInt8], expected: String)] = [
        ("empty", [], "is empty"),
        ("blank lines", Array("\n\r\n\n".utf8), "is empty"),
        ("binary", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D], "binary"),
        (
            "not UTF-8",
            Array("date,clinic,product\n2026-03-02,Gl".utf8) + [0xFF, 0xFE, 0xFA] + Array("ow,Serum\n".utf8), "UTF-8"
        ),
        ("missing columns", Array("date,clinic,quantity\n2026-03-02,Glow,1\n".utf8), "lacks the required column"),
        (
            "duplicate headers", Array("date,clinic,product,Product\n2026-03-02,Glow,Serum 30ml,Serum 30ml\n".utf8),
            "same column more than once"
        ),
        ("header only", Array("date,clinic,product\n".utf8), "no rows"),
        ("unknown kind", Array("colour,size\nred,1\n".utf8), "Cannot tell what"),
    ]

    @Test(arguments: unreadableFiles)
    func unreadableFilesAreRefusedWithAReason(_ file: (name: String, bytes: [UInt8], expected: String)) async throws {
        let store = try await glowBook()
        do {
            _ = try await importCSV(file.bytes, into: store)
            Issue.record("\(file.name) was accepted")
        } catch let error as CSVFileError {
            #expect(error.description.contains(file.expected), "\(error)")
        } catch let error as StoreError {
            #expect(error.description.contains(file.expected), "\(error)")
        }
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test func raggedRowsAreReportedWithTheirLine() async throws {
        let store = try await glowBook()
        do {
            _ = try await importCSV(
                Array("date,clinic,product\n2026-03-02,Glow\n2026-03-02,Glow,Serum 30ml,extra\n".utf8),
                into: store
            )
            Issue.record("ragged rows were accepted")
        } catch let StoreError.importRejected(problems, _) {
            #expect(problems.map(\.line) == [2, 3])
            #expect(problems.allSatisfy { $0.reason.contains("but the header has 3") })
        }
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpens() async throws {
        let store = try await glowBook()
        do {
            _ = try await importCSV(
                Array(
                    "date,clinic,product,note\n2026-03-02,Glow,Serum 30ml,ok\n2026-03-03,Glow,Serum 30ml,\"oops\n2026-03-04,Glow,Serum 30ml,\n"
                        .utf8
                ),
                into: store
            )
            Issue.record("a file with an unclosed quote was imported")
        } catch let StoreError.importRejected(problems, _) {
            #expect(problems.map(\.line) == [3])
            #expect(problems.first?.reason.contains("never closed") == true)
        }
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test func oldMacLineEndsAndNonASCIITextAreRead() async throws {
        let store = try await glowBook()
        let summary = try await importCSV(
            Array("date,clinic,product,note\r2026-03-02,Glow,Serum 30ml,Crème ✓\r2026-03-03,Glow,Serum 30ml,\r".utf8),
            into: store
        )
        #expect(summary.sales == 2)
        #expect(try await store.sales(SaleQuery(order: .oldestFirst)).first?.note == "Crème ✓")
    }

    /// Rows with quoted, doubled quotes and line breaks, in a file of several read chunks: whichever
    /// rows straddle a chunk's end must come out whole, and line numbers must still count true.
    @Test func recordsAcrossReadChunksComeOutWhole() async throws {
        let store = try await glowBook()
        let rows = 40_000
        func note(_ index: Int) -> String { "row \(index) says \"hi\"\r\nline two" }
        var csv = "date,clinic,product,quantity,note\r\n"
        for index in 0..<rows {
            let quoted = "\"" + note(index).replacingOccurrences(of: "\"", with: "\"\"") + "\""
            csv += "2026-03-\(String(format: "%02d", index % 28 + 1)),Glow,Serum 30ml,\(index % 5 + 1),\(quoted)\r\n"
        }
        #expect(csv.utf8.count > 2 * (1 << 20))
        // First, with one bad row at the end: its line is 1 + 2 per row + 1.
        do {
            _ = try await importCSV(Array((csv + "2026-03-02,Nowhere,Serum 30ml,1,\r\n").utf8), into: store)
            Issue.record("an unknown clinic was imported")
        } catch let StoreError.importRejected(problems, _) {
            #expect(problems.map(\.line) == [1 + 2 * rows + 1])
        }
        let summary = try await importCSV(Array(csv.utf8), into: store)
        #expect(summary.sales == rows)
        let sales = try await store.sales(SaleQuery(order: .oldestFirst))
        let byID = sales.sorted { $0.id.rawValue < $1.id.rawValue }
        #expect(byID.map(\.note) == (0..<rows).map(note))
        #expect(byID.map(\.quantity) == (0..<rows).map { Int64($0 % 5 + 1) })
    }
}

@Suite struct ExportSafetyTests {
    /// Every cell of a CSV export.
    func cells(_ csv: String) throws -> [[String]] {
        var scanner = CSVScanner(data: Data(csv.utf8), delimiter: UInt8(ascii: ","))
        var rows: [[String]] = []
        while let record = try scanner.next() { rows.append(record.fields) }
        return rows
    }

    @Test func formulaCellsAreMadeInertAndImportBackAsTheyWere() async throws {
        let store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        let hostile = [
            "=HYPERLINK(\"http://evil.example\",\"pay\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "=1+1 in a note", "-Minus Clinic",
        ]
        let clinic = try await store.createClinic(ClinicDraft(name: hostile[0], schedule: .monthly))
        _ = try await store.createClinic(ClinicDraft(name: hostile[5], schedule: .monthly))
        let product = try await store.createProduct(
            ProductDraft(name: hostile[3], sku: hostile[1], unitPrice: cents(5000), unitCost: cents(2000))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, share: try Share(parsing: "40"), effectiveFrom: day("2026-01-01"))
        )
        // A return: its amounts are negative numbers, which stay numbers.
        _ = try await store.createSale(
            SaleDraft(
                clinicID: clinic.id,
                productID: product.id,
                date: day("2026-03-02"),
                quantity: -1,
                note: hostile[2]
            ),
            idempotencyKey: nil
        )
        _ = try await store.createSale(
            SaleDraft(
                clinicID: clinic.id,
                productID: product.id,
                date: day("2026-03-03"),
                quantity: 1,
                note: hostile[4]
            ),
            idempotencyKey: nil
        )

        let renderer = Renderer(currency: .usd)
        var exported: [ExportKind: String] = [:]
        for kind in ExportKind.allCases {
            let csv = renderer.render(try await renderer.export(kind, from: store), as: .csv)
            exported[kind] = csv
            for cell in try cells(csv).joined() {
                guard let first = cell.first, "=+-@\t\r".contains(first) else { continue }
                // What a spreadsheet would run: only plain numbers may start so.
                #expect(
                    cell.wholeMatch(of: /-[0-9]+(\.[0-9]+)?/) != nil,
                    "\(kind): \(cell.debugDescription) would be a formula"
                )
            }
        }
        let sales = try cells(try #require(exported[.sales]))
        let header = try #require(sales.first)
        let column = { (name: String) in try #require(header.firstIndex(of: name)) }
        #expect(sales[1][try column("clinic")] == "'" + hostile[0])
        #expect(sales[1][try column("product")] == "'" + hostile[3])
        #expect(sales[1][try column("note")] == "'" + hostile[2])
        #expect(sales[1][try column("revenue")] == "-50.00")
        #expect(sales[2][try column("note")] == "'" + hostile[4])

        // The exported clinics and products import into a new book with their names as they were.
        let copy = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        for kind in [ExportKind.clinics, .products] {
            let source = try CSVImportSource(
                origin: .data(Data(try #require(exported[kind]).utf8), name: "\(kind).csv"),
                kind: ImportKind(rawValue: kind.rawValue),
                currency: .usd
            )
            _ = try await copy.importRows(from: source, options: ImportOptions())
        }
        #expect(Set(try await copy.clinics(ClinicQuery()).map(\.name)) == [hostile[0], hostile[5]])
        #expect(try await copy.products(ProductQuery()).map(\.name) == [hostile[3]])
        #expect(try await copy.products(ProductQuery()).map(\.sku) == [hostile[1]])
    }
}

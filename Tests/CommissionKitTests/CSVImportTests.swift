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
    _ = try await store.createProduct(ProductDraft(name: "Serum 30ml", sku: "SER-30", unitPrice: cents(5000), unitCost: cents(2000)))
    _ = try await store.createTerms(TermsDraft(clinicID: glow.id, share: try Share(parsing: "40"), effectiveFrom: day("2026-01-01")))
    return store
}

func importCSV(_ text: [UInt8], into store: SQLiteStore, format: CSVFormat = CSVFormat(), dryRun: Bool = false) async throws -> ImportSummary {
    let path = file("import.csv", text, in: temporaryDirectory())
    let source = try CSVImportSource(path: path, format: format, currency: .usd)
    return try await store.importRows(from: source, options: ImportOptions(dryRun: dryRun))
}

@Suite struct CSVImportTests {
    @Test func readsWhatSpreadsheetsExport() async throws {
        let store = try await glowBook()
        // A BOM, CRLF line ends, loose headers ("Unit_Price", "QTY", " Clinic "), a quoted product name
        // with a comma, and a note with an embedded newline.
        let csv = "\u{FEFF}Date, Clinic ,Product,QTY,Unit_Price,Note\r\n"
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

    @Test func oneBadRowMeansNothingIsImportedAndEveryBadRowIsReported() async throws {
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
        let summary = try await importCSV(Array("date,clinic,product\n2026-03-02,Glow,Serum 30ml\n".utf8), into: store, dryRun: true)
        #expect(summary.sales == 1 && summary.dryRun)
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test func importsClinicsProductsAndTermsToo() async throws {
        let store = try SQLiteStore(.inMemory)
        _ = try await importCSV(Array("Name,Pay schedule\nLumen,biweekly:2026-01-02\nNorthside,weekly:monday\n".utf8), into: store)
        _ = try await importCSV(Array("Product Name,SKU,Price,Cost\nMask,MSK-5,42.00,16.00\n".utf8), into: store)
        let terms = try await importCSV(Array("Clinic,Product,Split,Basis,Effective From\nLumen,,12%,revenue,2026-01-01\nLumen,MSK-5,20,,2026-01-01\n".utf8), into: store)
        #expect(terms.terms == 2)
        let lumen = try await store.clinic(named: "lumen")
        #expect(lumen.schedule == .biweekly(anchor: day("2026-01-02")))
        let all = try await store.terms(TermsQuery(clinicID: lumen.id))
        #expect(all.map(\.share.basisPoints) == [1200, 2000])
        #expect(all.map(\.basis) == [.revenue, .profit])
    }

    static let unreadableFiles: [(name: String, bytes: [UInt8], expected: String)] = [
        ("empty", [], "is empty"),
        ("blank lines", Array("\n\r\n\n".utf8), "is empty"),
        ("binary", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D], "binary"),
        ("not UTF-8", Array("date,clinic,product\n2026-03-02,Gl".utf8) + [0xFF, 0xFE, 0xFA] + Array("ow,Serum\n".utf8), "UTF-8"),
        ("missing columns", Array("date,clinic,quantity\n2026-03-02,Glow,1\n".utf8), "lacks the required column"),
        ("duplicate headers", Array("date,clinic,product,Product\n2026-03-02,Glow,Serum 30ml,Serum 30ml\n".utf8), "same column more than once"),
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
            _ = try await importCSV(Array("date,clinic,product\n2026-03-02,Glow\n2026-03-02,Glow,Serum 30ml,extra\n".utf8), into: store)
            Issue.record("ragged rows were accepted")
        } catch let StoreError.importRejected(problems, _) {
            #expect(problems.map(\.line) == [2, 3])
            #expect(problems.allSatisfy { $0.reason.contains("but the header has 3") })
        }
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpens() async throws {
        let store = try await glowBook()
        do {
            _ = try await importCSV(Array("date,clinic,product,note\n2026-03-02,Glow,Serum 30ml,ok\n2026-03-03,Glow,Serum 30ml,\"oops\n2026-03-04,Glow,Serum 30ml,\n".utf8),
                                    into: store)
            Issue.record("a file with an unclosed quote was imported")
        } catch let StoreError.importRejected(problems, _) {
            #expect(problems.map(\.line) == [3])
            #expect(problems.first?.reason.contains("never closed") == true)
        }
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test func oldMacLineEndsAndNonASCIITextAreRead() async throws {
        let store = try await glowBook()
        let summary = try await importCSV(Array("date,clinic,product,note\r2026-03-02,Glow,Serum 30ml,Crème ✓\r2026-03-03,Glow,Serum 30ml,\r".utf8), into: store)
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
        let hostile = ["=HYPERLINK(\"http://evil.example\",\"pay\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "=1+1 in a note", "-Minus Clinic"]
        let clinic = try await store.createClinic(ClinicDraft(name: hostile[0], schedule: .monthly))
        _ = try await store.createClinic(ClinicDraft(name: hostile[5], schedule: .monthly))
        let product = try await store.createProduct(ProductDraft(name: hostile[3], sku: hostile[1], unitPrice: cents(5000), unitCost: cents(2000)))
        _ = try await store.createTerms(TermsDraft(clinicID: clinic.id, share: try Share(parsing: "40"), effectiveFrom: day("2026-01-01")))
        // A return: its amounts are negative numbers, which stay numbers.
        _ = try await store.createSale(SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-03-02"), quantity: -1, note: hostile[2]),
                                       idempotencyKey: nil)
        _ = try await store.createSale(SaleDraft(clinicID: clinic.id, productID: product.id, date: day("2026-03-03"), quantity: 1, note: hostile[4]),
                                       idempotencyKey: nil)

        let renderer = Renderer(currency: .usd)
        var exported: [ExportKind: String] = [:]
        for kind in ExportKind.allCases {
            let csv = renderer.render(try await renderer.export(kind, from: store), as: .csv)
            exported[kind] = csv
            for cell in try cells(csv).joined() {
                guard let first = cell.first, "=+-@\t\r".contains(first) else { continue }
                // What a spreadsheet would run: only plain numbers may start so.
                #expect(cell.wholeMatch(of: /-[0-9]+(\.[0-9]+)?/) != nil, "\(kind): \(cell.debugDescription) would be a formula")
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
            let source = try CSVImportSource(origin: .data(Data(try #require(exported[kind]).utf8), name: "\(kind).csv"), kind: ImportKind(rawValue: kind.rawValue),
                                             currency: .usd)
            _ = try await copy.importRows(from: source, options: ImportOptions())
        }
        #expect(Set(try await copy.clinics(ClinicQuery()).map(\.name)) == [hostile[0], hostile[5]])
        #expect(try await copy.products(ProductQuery()).map(\.name) == [hostile[3]])
        #expect(try await copy.products(ProductQuery()).map(\.sku) == [hostile[1]])
    }
}

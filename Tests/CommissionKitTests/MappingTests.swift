import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// A file whose headers Commission does not know: the error says what it has, what is accepted
/// and the flag that would help; a mapping made once is kept in the book and read again for the
/// next file with the same headers.
@Suite struct MappingTests {
    static let headers = "Place,Item,Booked,Units,Retail\n"

    @Test("A mapping saved once reads the next file with the same headers") func savedMapping() async throws {
        let directory = temporaryDirectory()
        let path = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["init", "--currency", "USD", "--time-zone", "UTC", "--db", path]).status == 0)
        #expect(
            try commission(
                ["import"] + ["clinics", "products", "terms"].map { WorkbookTests.fixture("\($0).csv") } + [
                    "--db", path,
                ]
            ).status == 0
        )
        let clinic = try String(contentsOfFile: WorkbookTests.fixture("clinics.csv"), encoding: .utf8).split(
            separator: "\n"
        )[1].split(separator: ",")[0]
        let product = try String(contentsOfFile: WorkbookTests.fixture("products.csv"), encoding: .utf8).split(
            separator: "\n"
        )[1].split(separator: ",")[0]
        let january = directory.appendingPathComponent("clinic-jan.csv")
        try (Self.headers + "\(clinic),\(product),2026-01-05,2,\n\(clinic),\(product),2026-01-06,1,\n").write(
            to: january,
            atomically: true,
            encoding: .utf8
        )

        // Unknown headers: what the file has, what is accepted, and the flag, with its own column in the example.
        let refused = try commission(["import", january.path, "--kind", "sales", "--db", path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("lacks the required columns \"date\", \"clinic\". Its"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("Its columns are \"Place\", \"Item\", \"Booked\", \"Units\", \"Retail\""),
            "\(refused.stderr)"
        )
        #expect(
            refused.stderr.contains("headers accepted for date: Booking date, Buchungstag, Date, Datum, Day"),
            "\(refused.stderr)"
        )
        #expect(refused.stderr.contains("--map \"Place=date\""), "\(refused.stderr)")

        // A field that is not one, or a column the file lacks: said, nothing saved.
        let badField = try commission([
            "import", january.path, "--map", "Place=where", "--save-mapping", "Clinic A", "--db", path,
        ])
        #expect(
            badField.status != 0 && badField.stderr.contains("\"where\" is not a field Commission reads"),
            "\(badField.stderr)"
        )
        #expect(try commission(["mapping", "list", "--db", path]).stdout == "No saved column mappings.\n")

        let mapped = try commission([
            "import", january.path, "--map", "Place=clinic", "--map", "Item=product", "--map", "Booked=date",
            "--map", "Units=quantity", "--map", "Retail=ignore", "--save-mapping", "Clinic A", "--db", path,
        ])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stdout.contains("sales; columns as mapped in “Clinic A”"), "\(mapped.stdout)")
        #expect(mapped.stdout.contains("imported 2 sales"), "\(mapped.stdout)")
        let list = try commission(["mapping", "list", "--db", path]).stdout
        #expect(
            list.contains("Clinic A (sales)") && list.contains("Booked → date") && list.contains("Retail → (ignored)"),
            "\(list)"
        )

        // February's file, its columns in another order: read with the saved mapping by itself, and said.
        let february = directory.appendingPathComponent("clinic-feb.csv")
        try "Booked,Units,Place,Item,Retail\n2026-02-03,3,\(clinic),\(product),\n".write(
            to: february,
            atomically: true,
            encoding: .utf8
        )
        let again = try commission(["import", february.path, "--db", path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.contains("columns as mapped in “Clinic A”") && again.stdout.contains("imported 1 sale"),
            "\(again.stdout)"
        )
        let store = try SQLiteStore(.file(path))
        let sales = try await store.sales(SaleQuery(order: .oldestFirst))
        #expect(sales.map(\.date.description) == ["2026-01-05", "2026-01-06", "2026-02-03"])
        #expect(sales.map(\.quantity) == [2, 1, 3])

        // --mapping on a file without the mapped columns: said, nothing imported.
        let other = directory.appendingPathComponent("other.csv")
        try "Date,Clinic,Product\n2026-03-01,\(clinic),\(product)\n".write(to: other, atomically: true, encoding: .utf8)
        let wrong = try commission(["import", other.path, "--mapping", "clinic a", "--db", path])
        #expect(
            wrong.status != 0 && wrong.stderr.contains("has no column \"Booked\", which the mapping “Clinic A” reads"),
            "\(wrong.stderr)"
        )
        #expect(try await store.countSales(SaleQuery()) == 3)
        let unknown = try commission(["import", other.path, "--mapping", "Nope", "--db", path])
        #expect(
            unknown.status != 0 && unknown.stderr.contains("There is no saved column mapping named \"Nope\""),
            "\(unknown.stderr)"
        )

        #expect(try commission(["mapping", "remove", "Clinic A", "--db", path]).status == 0)
        // unknown headers again
        #expect(try commission(["import", february.path, "--again", "--db", path]).status != 0)
    }

    @Test func mappedColumnsComeBeforeTheHeadersCommissionKnows() throws {
        // "Price" would be read as the unit price; she says the unit price is "Retail", and "Price" is the clinic's cost.
        let csv = "Date,Clinic,Product,Price,Retail\n2026-01-05,Glow,Serum,12.00,50.00\n"
        let mapping = try ImportMapping.forImport(
            name: "Glow",
            kind: .sales,
            headers: ["Date", "Clinic", "Product", "Price", "Retail"],
            pairs: [("Retail", "unit price"), ("price", "Unit cost")]
        )
        #expect(mapping.fields == ["Retail": "unit price", "Price": "unit cost"])
        let source = try CSVImportSource(
            origin: .data(Data(csv.utf8), name: "the file"),
            format: CSVFormat(mapping: mapping),
            currency: .usd
        )
        #expect(source.column(for: "unit price") == "Retail" && source.column(for: "unit cost") == "Price")
        // Without it, the same file reads Price as the unit price, Retail not at all.
        let plain = try CSVImportSource(origin: .data(Data(csv.utf8), name: "the file"), currency: .usd)
        #expect(plain.column(for: "unit price") == "Price" && plain.column(for: "unit cost") == nil)
        #expect(throws: MappingError.noSuchColumn("Cost", has: ["Date", "Clinic", "Product", "Price", "Retail"])) {
            _ = try ImportMapping.forImport(
                name: "x",
                kind: nil,
                headers: ["Date", "Clinic", "Product", "Price", "Retail"],
                pairs: [("Cost", "unit cost")]
            )
        }
    }
}

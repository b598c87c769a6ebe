import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Testing

/// Her history in one pass: what a file of sales names that the book lacks is found by the store
/// itself, proposed with what the file says of it, and made with the file in one import.
@Suite struct MissingRecordsTests {
    /// A book with Glow, whose split (40% of profit) starts on 2026-11-01, and its serum.
    static func book(_ kind: StoreKind) async throws -> any CommissionStore {
        let store = try await kind.makeStore()
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        _ = try await store.createProduct(
            ProductDraft(name: "Serum 30ml", sku: "SER-30", unitPrice: cents(5000), unitCost: cents(2000))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: glow.id, share: share("40"), effectiveFrom: day("2026-11-01"))
        )
        return store
    }

    /// Two months of her history: two clinics and two products the book does not have (one clinic
    /// spelt two ways, one product by the book's SKU), and Glow's sales before its split began.
    static let history = """
        date,clinic,product,quantity,unit price,unit cost
        2026-09-02,Praxis Mitte,Hyaluron Serum,2,89.00,31.00
        2026-09-03,praxis mitte,SER-30,1,,
        2026-09-05,Glow,Serum 30ml,1,,
        2026-09-07,Haut & Co,Hyaluron Serum,1,,
        2026-10-01,Haut & Co,Peeling Set,3,45.50,12.00
        2026-10-14,Glow,Peeling Set,1,,

        """

    static func source(_ text: String) throws -> CSVImportSource {
        try CSVImportSource(origin: .data(Data(text.utf8), name: "history.csv"), currency: .usd)
    }

    @Test(arguments: StoreKind.local)
    func whatTheFileLacksIsFoundWithWhatItSaysOfIt(_ kind: StoreKind) async throws {
        let store = try await Self.book(kind)
        let found = try #require(try await MissingRecords.find(importing: Self.source(Self.history), into: store))
        #expect(
            found.clinics == [
                .init(name: "Praxis Mitte", firstSale: day("2026-09-02"), firstLine: "line 2"),
                .init(name: "Haut & Co", firstSale: day("2026-09-07"), firstLine: "line 5"),
            ]
        )
        #expect(
            found.products == [
                .init(name: "Hyaluron Serum", unitPrice: cents(8900), unitCost: cents(3100), firstLine: "line 2"),
                .init(name: "Peeling Set", unitPrice: cents(4550), unitCost: cents(1200), firstLine: "line 6"),
            ]
        )
        // Glow's split proposed from its own terms, back to the file's first sale there.
        #expect(found.terms == [.init(clinic: "Glow", from: day("2026-09-05"), share: share("40"), basis: .profit)])
        #expect(found.otherProblems.isEmpty)
        #expect(found.sales == 6)
        // Looking changed nothing.
        #expect(try await store.clinics(ClinicQuery()).map(\.name) == ["Glow"])
        #expect(try await store.countSales(SaleQuery()) == 0)
    }

    @Test(arguments: StoreKind.local)
    func herAnswersAndTheFileLandTogether(_ kind: StoreKind) async throws {
        let store = try await Self.book(kind)
        let source = try Self.source(Self.history)
        let found = try #require(try await MissingRecords.find(importing: source, into: store))
        var additions = try Additions(found, schedule: .monthly, share: share("50"), basis: .profit)
        additions.clinics[1].schedule = .semimonthly
        let summary = try await store.importRows(from: additions.importing(source), options: ImportOptions())
        #expect(summary.clinics == 2 && summary.products == 2 && summary.terms == 3 && summary.sales == 6)

        let clinics = try await store.clinics(ClinicQuery())
        let praxis = try #require(clinics.first { $0.name == "Praxis Mitte" })
        #expect(clinics.first { $0.name == "Haut & Co" }?.schedule == .semimonthly)
        let sales = try await store.sales(SaleQuery())
        // 2 × 89.00 − 2 × 31.00 = 116.00 profit, half of it hers; her split starts at the first sale.
        let first = try #require(sales.first { $0.clinicID == praxis.id && $0.date == day("2026-09-02") })
        #expect(first.figures.commission == cents(5800))
        // Glow's September serum: (50.00 − 20.00) × 40% (Glow's own split, proposed) — the answer
        // of 50% is only for the clinics without one.
        let glowSale = try #require(sales.first { $0.date == day("2026-09-05") })
        #expect(glowSale.figures.commission == cents(1200))
    }

    @Test(arguments: StoreKind.local)
    func aRowToCorrectInTheFileIsLeftForHer(_ kind: StoreKind) async throws {
        let store = try await Self.book(kind)
        let text = Self.history + "2026-10-20,Haut & Co,Peeling Set,zwei,,\n"
        let found = try #require(try await MissingRecords.find(importing: Self.source(text), into: store))
        #expect(found.clinics.count == 2)
        #expect(found.otherProblems.map(\.line) == [8])
        // All or nothing: her answers and the file are refused together while the row is there.
        let additions = try Additions(found, schedule: .monthly, share: share("50"), basis: .profit)
        await #expect(throws: StoreError.self) {
            try await store.importRows(from: additions.importing(try Self.source(text)), options: ImportOptions())
        }
        #expect(try await store.clinics(ClinicQuery()).map(\.name) == ["Glow"])
    }

    @Test func aFileThatImportsAsItIsLacksNothing() async throws {
        let store = try await Self.book(.sqliteMemory)
        let text = "date,clinic,product,quantity\n2026-11-02,Glow,SER-30,1\n"
        #expect(try await MissingRecords.find(importing: Self.source(text), into: store) == nil)
    }

    @Test func aProductWithoutAPriceInTheFileAsksForOne() async throws {
        let store = try await Self.book(.sqliteMemory)
        let text = "date,clinic,product,quantity\n2026-11-02,Glow,Night Cream,1\n"
        let found = try #require(try await MissingRecords.find(importing: Self.source(text), into: store))
        #expect(found.products == [.init(name: "Night Cream", unitPrice: nil, unitCost: nil, firstLine: "line 2")])
        #expect(throws: StoreError.self) { try Additions(found, schedule: .monthly, share: nil, basis: .profit) }
    }
}

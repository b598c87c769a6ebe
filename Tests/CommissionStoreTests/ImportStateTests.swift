import CommissionCore
import CommissionStore
import Foundation
import Testing

/// An import's session as both stores run it, without a database: what a row needs read, what it
/// writes, and what that changes of what later rows read.
@Suite struct ImportStateTests {
    let glow = Clinic(id: Clinic.ID(1), name: "Glow", schedule: .monthly)
    let serum = Product(
        id: Product.ID(1),
        name: "Serum",
        sku: nil,
        unitPrice: Money(minorUnits: 5000),
        unitCost: Money(minorUnits: 2000)
    )

    func day(_ text: String) throws -> Day { try Day(parsing: text) }

    @Test(
        "A sale reads its clinic first, then the clinic's records and its product; names folded as the book folds them"
    )
    func aSaleReadsWhatItNeeds() throws {
        var state = ImportState(
            rules: EntryRules(
                BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
                now: Date(timeIntervalSince1970: 1_790_000_000)
            ),
            fold: { $0.lowercased() }
        )
        let sale = ImportRecord.sale(
            NamedSaleDraft(clinic: "GLOW", product: "serum", date: try day("2026-03-02"), quantity: 2)
        )
        #expect(state.missing(for: sale) == .clinic("GLOW"))
        #expect(
            try state.sale(
                for: NamedSaleDraft(clinic: "GLOW", product: "serum", date: try day("2026-03-02"), quantity: 2)
            ) == nil
        )
        state.learn(.clinic(name: "GLOW", glow))
        #expect(state.missing(for: sale) == .terms(glow.id))
        let terms = Terms(
            id: Terms.ID(1),
            clinicID: glow.id,
            share: try Share(parsing: "40"),
            effectiveFrom: try day("2026-01-01")
        )
        state.learn(.terms(glow.id, [terms]))
        #expect(state.missing(for: sale) == .closedPeriods(glow.id))
        state.learn(.closedPeriods(glow.id, ClosedPeriods()))
        #expect(state.missing(for: sale) == .prices(glow.id))
        state.learn(.prices(glow.id, []))
        #expect(state.missing(for: sale) == .product("serum"))
        state.learn(.product(name: "serum", serum))
        #expect(state.missing(for: sale) == nil)
        // The ledger computes it: 2 × (50 − 20) × 40%.
        guard case .sale(let made) = try state.write(for: sale) else {
            Issue.record("not a sale")
            return
        }
        #expect(made.figures.commission == Money(minorUnits: 2400))
        state.wrote(.sale(made.date))
        #expect(state.summary.lastSaleDate == made.date)
        // Another spelling of the same names reads nothing again.
        #expect(
            state.missing(
                for: .sale(NamedSaleDraft(clinic: "glow", product: "SERUM", date: try day("2026-03-03"), quantity: 1))
            ) == nil
        )
        #expect(state.summary.sales == 1)
    }

    @Test("A sale naming no product has it looked up, and refused as an unknown product")
    func aSaleWithoutAProduct() throws {
        var state = ImportState(
            rules: EntryRules(
                BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
                now: Date(timeIntervalSince1970: 1_790_000_000)
            ),
            fold: { $0.lowercased() }
        )
        state.learn(.clinic(name: "Glow", glow))
        state.learn(.terms(glow.id, []))
        state.learn(.closedPeriods(glow.id, ClosedPeriods()))
        state.learn(.prices(glow.id, []))
        #expect(
            state.missing(
                for: .sale(NamedSaleDraft(clinic: "Glow", product: "", date: try day("2026-03-02"), quantity: 1))
            ) == .product("")
        )
    }

    @Test("Terms recompute their clinic from their first day; a price has the price list read again")
    func writesChangeWhatFollowingRowsRead() throws {
        var state = ImportState(
            rules: EntryRules(
                BookSettings(currency: .usd, timeZoneIdentifier: "UTC"),
                now: Date(timeIntervalSince1970: 1_790_000_000)
            ),
            fold: { $0.lowercased() }
        )
        state.learn(.clinic(name: "Glow", glow))
        state.learn(.terms(glow.id, []))
        state.learn(.product(name: "Serum", serum))
        let terms = ImportRecord.terms(
            NamedTermsDraft(
                clinic: "Glow",
                product: nil,
                basis: .profit,
                share: try Share(parsing: "50"),
                effectiveFrom: try day("2026-02-01")
            )
        )
        guard case .terms(let draft) = try state.write(for: terms) else {
            Issue.record("not terms")
            return
        }
        state.wrote(
            .terms(
                Terms(id: Terms.ID(9), clinicID: draft.clinicID, share: draft.share, effectiveFrom: draft.effectiveFrom)
            )
        )
        #expect(state.recomputeFrom == [glow.id: try day("2026-02-01")])
        state.learn(.prices(glow.id, []))
        state.wrote(.price(glow.id))
        state.learn(.closedPeriods(glow.id, ClosedPeriods()))
        #expect(
            state.missing(
                for: .sale(NamedSaleDraft(clinic: "Glow", product: "Serum", date: try day("2026-03-02"), quantity: 1))
            ) == .prices(glow.id)
        )
        #expect(state.summary.terms == 1 && state.summary.prices == 1)
        // A refusal of the ledger is thrown, for the store to report as the row's problem.
        #expect(throws: (any Error).self) {
            try state.write(
                for: .terms(
                    NamedTermsDraft(
                        clinic: "Glow",
                        product: nil,
                        basis: .profit,
                        share: try Share(parsing: "50"),
                        effectiveFrom: try day("1800-01-01")
                    )
                )
            )
        }
    }
}

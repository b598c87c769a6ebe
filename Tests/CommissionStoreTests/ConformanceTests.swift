import CommissionCore
import CommissionPostgres
import CommissionStore
import Foundation
import Logging
import Observation
import PostgresNIO
import Synchronization
import Testing

/// The store contract, written once and run against every implementation.
@Suite struct EntityConformanceTests {
    /// Names are listed in one order on every store, SQLite's `COLLATE NOCASE`: ASCII letters
    /// folded, then byte by byte, so accented capitals come after the whole alphabet. (PostgreSQL's
    /// collation put "åb" before "Ångström", and "École" beside "eagle" under a locale.)
    @Test(arguments: StoreKind.allCases)
    func namesAreListedInOneOrderOnEveryStore(_ kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        let names = ["åb", "Zeta", "École", "eagle", "Ångström", "zz"]
        var clinics: [Clinic] = []
        for name in names {
            clinics.append(try await store.createClinic(ClinicDraft(name: name, schedule: .monthly)))
            let product = try await store.createProduct(
                ProductDraft(name: name, unitPrice: cents(1000), unitCost: cents(400))
            )
            _ = try await store.createSale(
                SaleDraft(
                    clinicID: clinics.last!.id,
                    productID: product.id,
                    date: day("2026-03-02"),
                    noCommission: true
                ),
                idempotencyKey: nil
            )
        }
        let expected = ["eagle", "Zeta", "zz", "Ångström", "École", "åb"]
        #expect(try await store.clinics(ClinicQuery()).map(\.name) == expected)
        #expect(try await store.products(ProductQuery()).map(\.name) == expected)
        #expect(try await store.dashboard(today: day("2026-03-02")).clinics.map(\.clinic.name) == expected)
    }

    @Test(arguments: StoreKind.allCases)
    func createdRecordsReadBackAndNamesAreUnique(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        #expect(try await book.store.clinic(book.glow.id) == book.glow)
        #expect(try await book.store.clinic(named: "  glow ") == book.glow)
        #expect(try await book.store.product(named: "ser-30") == book.serum)  // by SKU, any case
        await #expect(throws: StoreError.duplicateName(.clinics, "GLOW")) {
            _ = try await book.store.createClinic(ClinicDraft(name: "GLOW", schedule: .monthly))
        }
        await #expect(throws: StoreError.duplicateSKU("ser-30")) {
            _ = try await book.store.createProduct(
                ProductDraft(name: "Other", sku: "ser-30", unitPrice: .zero, unitCost: .zero)
            )
        }
        await #expect(throws: StoreError.unknownClinic("Nowhere")) { _ = try await book.store.clinic(named: "Nowhere") }
        await #expect(throws: StoreError.notFound(.sales, id: 999)) { _ = try await book.store.sale(Sale.ID(999)) }
    }

    @Test("Archiving a clinic with sales keeps them, and deleting it is refused", arguments: StoreKind.allCases)
    func archivingKeepsSales(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        await #expect(throws: StoreError.hasHistory(.clinics, name: "Glow", sales: 1)) {
            try await book.store.deleteClinic(book.glow.id)
        }
        await #expect(throws: StoreError.hasHistory(.products, name: "Serum 30ml", sales: 1)) {
            try await book.store.deleteProduct(book.serum.id)
        }

        var archived = book.glow
        archived.isArchived = true
        _ = try await book.store.updateClinic(archived)
        #expect(try await book.store.clinics(ClinicQuery()).map(\.name) == ["Harbor"])
        #expect(try await book.store.clinics(ClinicQuery(includeArchived: true)).map(\.name) == ["Glow", "Harbor"])
        #expect(try await book.store.countSales(SaleQuery(clinicID: book.glow.id)) == 1)
        await #expect(throws: StoreError.archived(.clinics, "Glow")) {
            try await book.sell(book.serum, at: book.glow, on: "2026-03-03")
        }

        // A clinic that never sold goes away whole.
        let empty = try await book.store.createClinic(ClinicDraft(name: "Empty", schedule: .monthly))
        try await book.store.deleteClinic(empty.id)
        await #expect(throws: StoreError.notFound(.clinics, id: empty.id.rawValue)) {
            _ = try await book.store.clinic(empty.id)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func listsFilterOrderAndPage(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        for (index, date) in ["2026-03-01", "2026-03-05", "2026-03-03", "2026-04-01"].enumerated() {
            try await book.sell(index.isMultiple(of: 2) ? book.serum : book.cream, at: book.glow, on: date)
        }
        try await book.sell(book.serum, at: book.harbor, on: "2026-03-02")
        let march = SaleQuery(
            clinicID: book.glow.id,
            from: day("2026-03-01"),
            through: day("2026-03-31"),
            order: .oldestFirst
        )
        #expect(
            try await book.store.sales(march).map(\.date.description) == ["2026-03-01", "2026-03-03", "2026-03-05"]
        )
        var paged = march
        paged.order = .newestFirst
        paged.page = Page(limit: 2, offset: 1)
        #expect(try await book.store.sales(paged).map(\.date.description) == ["2026-03-03", "2026-03-01"])
        #expect(try await book.store.countSales(paged) == 3)
        #expect(
            try await book.store.sales(SaleQuery(text: "cream")).map(\.date.description) == [
                "2026-04-01", "2026-03-05",
            ]
        )
        #expect(try await book.store.sales(SaleQuery(productID: book.serum.id)).count == 3)
        // Products most sold first: serum 3 units, cream 2.
        #expect(try await book.store.products(ProductQuery(order: .mostSold)).map(\.name) == ["Serum 30ml", "Cream"])
        #expect(try await book.store.products(ProductQuery(text: "30")).map(\.name) == ["Serum 30ml"])
        // A LIKE wildcard in the text is matched literally.
        #expect(try await book.store.products(ProductQuery(text: "%")).isEmpty)
    }
}

@Suite struct SaleConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func saleTakesProductDefaultsAndKeepsItsSnapshot(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        // 2 × 50.00, cost 2 × 20.00, profit 60.00, 40% → 24.00.
        let sale = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2)
        #expect(sale.figures.commission == cents(2400))
        var repriced = book.serum
        repriced.unitPrice = cents(9900)
        _ = try await book.store.updateProduct(repriced)
        let reread = try await book.store.sale(sale.id)
        #expect(reread.line.unitPrice == cents(5000))
        #expect(reread.figures.commission == cents(2400))
        // A new sale takes the new price: 99.00 − 20.00 = 79.00 × 40% = 31.60.
        #expect(try await book.sell(repriced, at: book.glow, on: "2026-03-02").figures.commission == cents(3160))
    }

    @Test(arguments: StoreKind.allCases)
    func sameIdempotencyKeyRecordsOneSale(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let first = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", key: "phone-42")
        let again = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", key: "phone-42")
        #expect(first.id == again.id)
        #expect(try await book.store.countSales(SaleQuery()) == 1)
        _ = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", key: "phone-43")
        #expect(try await book.store.countSales(SaleQuery()) == 2)
    }

    /// A key is the same key whether its sale went alone or in a batch, whatever characters it has
    /// (a sync sends a sale alone, and again in a batch after the first answer was lost).
    @Test(arguments: StoreKind.allCases)
    func aKeyIsKnownAgainInABatch(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let key = "sync:7F3A-device:2:sale/14?x=1&y=%41"
        let first = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", key: key)
        let draft = SaleDraft(clinicID: book.glow.id, productID: book.serum.id, date: day("2026-03-02"))
        let written = try await book.store.apply([.createSale(draft, idempotencyKey: key)])
        guard case .sale(let again) = written.first else {
            Issue.record("the batch wrote \(written)")
            return
        }
        #expect(again.id == first.id)
        #expect(try await book.store.countSales(SaleQuery()) == 1)
    }

    /// A key reused for another sale is refused, saying so; it never answers with the first sale.
    @Test(arguments: StoreKind.allCases)
    func anIdempotencyKeyReusedForAnotherSaleIsRefused(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let first = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2, key: "tap-1")
        do {
            _ = try await book.sell(book.serum, at: book.glow, on: "2026-03-03", quantity: 3, key: "tap-1")
            Issue.record("a different sale under the same key was accepted")
        } catch StoreError.invalid(let field, let reason) {
            #expect(field == "idempotency key")
            #expect(
                reason.contains("already recorded sale \(first.id)")
                    && reason.contains("date 2026-03-03 instead of 2026-03-02")
                    && reason.contains("quantity 3 instead of 2"),
                "\(reason)"
            )
        }
        // The same sale again, its price now given as the one it was computed with, is still the retry.
        let retry = try await book.store.createSale(
            SaleDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                date: day("2026-03-02"),
                quantity: 2,
                unitPrice: cents(5000)
            ),
            idempotencyKey: "tap-1"
        )
        #expect(retry.id == first.id)
        #expect(try await book.store.countSales(SaleQuery()) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func saleWithoutTermsIsRefusedUnlessNoCommission(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        await #expect(throws: StoreError.noTermsInForce(clinic: "Glow", product: "Serum 30ml", on: day("2025-12-31"))) {
            try await book.sell(book.serum, at: book.glow, on: "2025-12-31")
        }
        let sample = try await book.sell(book.serum, at: book.glow, on: "2025-12-31", noCommission: true)
        #expect(sample.figures.commission == .zero)
        #expect(sample.figures.profit == cents(3000))
        #expect(sample.termsID == nil)
        let message = StoreError.noTermsInForce(clinic: "Glow", product: "Serum 30ml", on: day("2025-12-31"))
            .description
        #expect(message.contains("Glow") && message.contains("2025-12-31"))
    }

    @Test(arguments: StoreKind.allCases)
    func failedWritesChangeNothing(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        await #expect(throws: SaleLineError.zeroQuantity) {
            try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 0)
        }
        await #expect(throws: SaleLineError.self) {
            try await book.sell(book.serum, at: book.glow, on: "2026-03-02", discount: 10_001)
        }
        await #expect(throws: SaleLineError.self) {
            _ = try await book.store.createSale(
                SaleDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    date: day("2026-03-02"),
                    quantity: 3,
                    unitPrice: cents(Int64.max / 2)
                ),
                idempotencyKey: nil
            )
        }
        #expect(try await book.store.countSales(SaleQuery(includeVoided: true)) == 0)
        let dashboard = try await book.store.dashboard(today: day("2026-03-02"))
        #expect(dashboard.yearTotals == .zero)
    }

    @Test(arguments: StoreKind.allCases)
    func editingAndVoidingMoveTheTotals(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let sale = try await book.sell(book.serum, at: book.glow, on: "2026-03-02")  // 30.00 profit → 12.00
        // Edited to 3 creams at Harbor: 3 × (30.00 − 12.00) = 54.00 × 55% = 29.70.
        let edited = try await book.store.updateSale(
            sale.id,
            with: SaleDraft(
                clinicID: book.harbor.id,
                productID: book.cream.id,
                date: day("2026-03-02"),
                quantity: 3,
                unitPrice: cents(3000),
                unitCost: cents(1200)
            )
        )
        #expect(edited.figures.commission == cents(2970))
        var dashboard = try await book.store.dashboard(today: day("2026-03-02"))
        #expect(dashboard.monthTotals.commission == cents(2970))
        #expect(dashboard.clinics.first { $0.clinic.id == book.glow.id }?.monthTotals == .zero)
        _ = try await book.store.voidSale(sale.id)
        dashboard = try await book.store.dashboard(today: day("2026-03-02"))
        #expect(dashboard.monthTotals == .zero)
        #expect(try await book.store.sale(sale.id).isVoided)
        #expect(try await book.store.countSales(SaleQuery()) == 0)
        #expect(try await book.store.countSales(SaleQuery(includeVoided: true)) == 1)
    }
}

@Suite struct TermsConformanceTests {
    @Test("Backdated terms recompute open periods only, and say how many", arguments: StoreKind.allCases)
    func backdatedTerms(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let january = try await book.sell(book.serum, at: book.glow, on: "2026-01-20")  // 30.00 × 40% = 12.00
        let february = try await book.sell(book.serum, at: book.glow, on: "2026-02-10")
        let march = try await book.sell(book.serum, at: book.glow, on: "2026-03-10")
        let january2026 = PayPeriod(start: day("2026-01-01"), end: day("2026-01-31"))
        try await book.store.closePeriod(clinic: book.glow.id, period: january2026)

        // 50% from 2026-01-15: January's sale would change but its period is closed; Feb and March change.
        let change = try await book.store.createTerms(
            TermsDraft(clinicID: book.glow.id, share: share("50%"), effectiveFrom: day("2026-01-15"))
        )
        #expect(change.recomputedSales == 2)
        #expect(change.salesInClosedPeriods == 1)
        #expect(try await book.store.sale(january.id).figures.commission == cents(1200))
        #expect(try await book.store.sale(february.id).figures.commission == cents(1500))  // 30.00 × 50%
        #expect(try await book.store.sale(march.id).termsID == change.terms.id)

        // A closed period refuses changes until reopened.
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: january2026)) {
            _ = try await book.store.voidSale(january.id)
        }
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: january2026)) {
            try await book.sell(book.serum, at: book.glow, on: "2026-01-05")
        }
        try await book.store.reopenPeriod(clinic: book.glow.id, period: january2026)
        _ = try await book.store.voidSale(january.id)

        // Product terms for the serum from March beat the clinic-wide ones: 30.00 × 60% = 18.00.
        let serumTerms = try await book.store.createTerms(
            TermsDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                share: share("60%"),
                effectiveFrom: day("2026-03-01")
            )
        )
        #expect(serumTerms.recomputedSales == 1)
        #expect(try await book.store.sale(march.id).figures.commission == cents(1800))
    }

    @Test(arguments: StoreKind.allCases)
    func archivingTheOnlyTermsOfSoldSalesIsRefusedWhole(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-10")
        var terms = try #require(try await book.store.terms(TermsQuery(clinicID: book.glow.id)).first)
        terms.isArchived = true
        await #expect(throws: StoreError.noTermsInForce(clinic: "Glow", product: "Serum 30ml", on: day("2026-03-10"))) {
            _ = try await book.store.updateTerms(terms)
        }
        #expect(try await book.store.terms(TermsQuery(clinicID: book.glow.id)).count == 1)  // rolled back
    }

    @Test(arguments: StoreKind.allCases)
    func changingTheRoundingRuleRecomputesOpenSales(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let half = try await book.store.createClinic(ClinicDraft(name: "Half", schedule: .monthly))
        _ = try await book.store.createTerms(
            TermsDraft(clinicID: half.id, basis: .revenue, share: share("50%"), effectiveFrom: day("2026-01-01"))
        )
        let odd = try await book.store.createProduct(ProductDraft(name: "Odd", unitPrice: cents(1001), unitCost: .zero))
        // 10.01 × 50% of revenue = 500.5 cents: 5.01 half away from zero, 5.00 half to even.
        let sale = try await book.sell(odd, at: half, on: "2026-03-10")
        #expect(sale.figures.commission == cents(501))
        var settings = try await book.store.settings()
        settings.rounding.rule = .halfToEven
        try await book.store.updateSettings(settings)
        #expect(try await book.store.sale(sale.id).figures.commission == cents(500))
        // Per statement: two such lines sum to exactly 1001 cents.
        try await book.sell(odd, at: half, on: "2026-03-11")
        settings.rounding.scope = .perStatement
        try await book.store.updateSettings(settings)
        let statement = try await book.store.statement(
            clinic: half.id,
            period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        )
        #expect(statement.totals.commission == cents(1001))
        // The currency cannot change once amounts are recorded.
        settings.currency = try Currency(code: "EUR")
        await #expect(throws: StoreError.currencyLocked(current: "USD")) {
            try await book.store.updateSettings(settings)
        }
    }
}

@Suite struct ReportConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func statementAndReconciliationOfAClinic(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        // Harbor, semimonthly, 55% of profit.
        // 1–15 March: 2 serums (profit 60.00 → 33.00) and a returned cream (−18.00 → −9.90): 23.10 due.
        try await book.sell(book.serum, at: book.harbor, on: "2026-03-02", quantity: 2)
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-15", quantity: -1)
        // 16–31 March: a cream (18.00 → 9.90).
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-16")
        let first = PayPeriod(start: day("2026-03-01"), end: day("2026-03-15"))
        let second = PayPeriod(start: day("2026-03-16"), end: day("2026-03-31"))
        _ = try await book.store.createPayout(
            PayoutDraft(clinicID: book.harbor.id, period: first, amount: cents(2000), receivedOn: day("2026-03-20"))
        )

        let statement = try await book.store.statement(clinic: book.harbor.id, period: first)
        #expect(statement.lines.count == 2)
        #expect(statement.totals.revenue == cents(7000))  // 100.00 − 30.00
        #expect(statement.totals.commission == cents(2310))
        #expect(statement.received == cents(2000))
        #expect(statement.balance == cents(310))

        let reconciliation = try await book.store.reconciliation(clinic: book.harbor.id, today: day("2026-04-02"))
        #expect(reconciliation.periods.map(\.period) == [first, second])
        #expect(reconciliation.periods.map(\.status) == [.underpaid, .unpaid])
        #expect(reconciliation.balance == cents(310 + 990))
        // Read together (a page of every clinic), each clinic's is the one it has alone, in the order asked.
        try await book.sell(book.serum, at: book.glow, on: "2026-03-03")
        let clinics = [book.harbor.id, book.glow.id, book.harbor.id]
        var alone: [Reconciliation] = []
        for clinic in clinics {
            alone.append(try await book.store.reconciliation(clinic: clinic, today: day("2026-04-02")))
        }
        #expect(try await book.store.reconciliations(clinics: clinics, today: day("2026-04-02")) == alone)
        #expect(alone[0] == reconciliation && alone[1] != reconciliation)

        // A payout for a range that is not one of Harbor's periods is refused.
        await #expect(throws: StoreError.self) {
            _ = try await book.store.createPayout(
                PayoutDraft(
                    clinicID: book.harbor.id,
                    period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31")),
                    amount: cents(1),
                    receivedOn: day("2026-04-01")
                )
            )
        }
    }

    @Test(arguments: StoreKind.allCases)
    func dashboardAgreesWithARecountOfTheSales(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        var random = SeededRandom(seed: 2026)
        let clinics = [book.glow, book.harbor], products = [book.serum, book.cream]
        var sales: [Sale] = []
        for _ in 0..<150 {
            let date = Day(ordinal: day("2026-01-01").ordinal + Int.random(in: 0...120, using: &random))
            let quantity = Int64.random(in: -2...4, using: &random)
            guard quantity != 0 else { continue }
            let sale = try await book.store.createSale(
                SaleDraft(
                    clinicID: clinics.randomElement(using: &random)!.id,
                    productID: products.randomElement(using: &random)!.id,
                    date: date,
                    quantity: quantity,
                    discount: cents(Int64.random(in: 0...500, using: &random)),
                    noCommission: Int.random(in: 0..<10, using: &random) == 0
                ),
                idempotencyKey: nil
            )
            sales.append(sale)
        }
        for sale in sales.shuffled(using: &random).prefix(20) { _ = try await book.store.voidSale(sale.id) }
        for sale in sales.shuffled(using: &random).prefix(10) where !(try await book.store.sale(sale.id).isVoided) {
            _ = try await book.store.updateSale(
                sale.id,
                with: SaleDraft(
                    clinicID: sale.clinicID,
                    productID: sale.productID,
                    date: sale.date,
                    quantity: sale.quantity + 5
                )
            )
        }
        _ = try await book.store.createTerms(
            TermsDraft(clinicID: book.glow.id, share: share("45.5%"), effectiveFrom: day("2026-02-14"))
        )

        let today = day("2026-03-20")
        let glowPeriod = book.glow.schedule.period(containing: today)
        for amount in [cents(1000), cents(234)] {
            _ = try await book.store.createPayout(
                PayoutDraft(clinicID: book.glow.id, period: glowPeriod, amount: amount, receivedOn: today)
            )
        }
        let dashboard = try await book.store.dashboard(today: today)
        let all = try await book.store.sales(SaleQuery())
        func recount(_ filter: (Sale) -> Bool) -> (Int64, Int64, Int) {
            let chosen = all.filter(filter)
            return (
                chosen.reduce(0) { $0 + $1.figures.revenue.minorUnits },
                chosen.reduce(0) { $0 + $1.figures.commission.minorUnits }, chosen.count
            )
        }
        func check(_ totals: Totals, _ expected: (Int64, Int64, Int)) {
            #expect(totals.revenue.minorUnits == expected.0)
            #expect(totals.commission.minorUnits == expected.1)
            #expect(totals.saleCount == expected.2)
        }
        check(dashboard.todayTotals, recount { $0.date == today })
        check(dashboard.monthTotals, recount { $0.date.month == 3 })
        check(dashboard.yearTotals, recount { _ in true })
        // The headline a live update reads on its own has the same figures, whatever the day.
        let headline = try await book.store.headline(today: today)
        #expect(headline == Headline(dashboard))
        check(headline.todayTotals, recount { $0.date == today })
        check(headline.yearTotals, recount { _ in true })
        for other in [day("2026-02-14"), day("2026-04-30"), day("2025-12-31")] {
            #expect(
                try await book.store.headline(today: other) == Headline(try await book.store.dashboard(today: other))
            )
        }
        for standing in dashboard.clinics {
            check(
                standing.periodTotals,
                recount { $0.clinicID == standing.clinic.id && standing.period.contains($0.date) }
            )
            check(standing.yearTotals, recount { $0.clinicID == standing.clinic.id })
            check(standing.monthTotals, recount { $0.clinicID == standing.clinic.id && $0.date.month == 3 })
            let received = standing.clinic.id == book.glow.id ? cents(1234) : .zero
            #expect(standing.periodReceived == received)
            #expect(standing.periodBalance == (try standing.periodTotals.commission.subtracting(received)))
        }
        for standing in dashboard.products {
            check(standing.yearTotals, recount { $0.productID == standing.product.id })
            check(standing.monthTotals, recount { $0.productID == standing.product.id && $0.date.month == 3 })
        }
        #expect(dashboard.products.count == 2)
        #expect(
            dashboard.products.map(\.yearTotals.commission)
                == dashboard.products.map(\.yearTotals.commission).sorted(by: >)
        )
    }
}

@Suite struct ClinicMonthConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func monthlyTotalsPerClinic(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        // Glow (40% of profit): a serum in January (30.00 → 12.00) and two in March (24.00).
        // Harbor (55%): a cream in March (18.00 → 9.90); one in April falls outside the range.
        try await book.sell(book.serum, at: book.glow, on: "2026-01-20")
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2)
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-31")
        try await book.sell(book.cream, at: book.harbor, on: "2026-04-01")
        let months = try await book.store.clinicMonths(from: day("2026-01-15"), through: day("2026-03-31"))
        #expect(months.map(\.month) == [day("2026-01-01"), day("2026-03-01"), day("2026-03-01")])
        #expect(months.map(\.clinicID) == [book.glow.id, book.glow.id, book.harbor.id])
        #expect(months.map(\.totals.commission) == [cents(1200), cents(2400), cents(990)])
    }
}

@Suite struct ImportConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func importIsAllOrNothing(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let good = ImportRow(
            line: 2,
            record: .sale(NamedSaleDraft(clinic: "Glow", product: "Serum 30ml", date: day("2026-03-02"), quantity: 1))
        )
        let unknown = ImportRow(
            line: 3,
            record: .sale(
                NamedSaleDraft(clinic: "Nowhere", product: "Serum 30ml", date: day("2026-03-02"), quantity: 1)
            )
        )
        let noTerms = ImportRow(
            line: 4,
            record: .sale(NamedSaleDraft(clinic: "glow", product: "cream", date: day("2025-03-02"), quantity: 1))
        )
        do {
            _ = try await book.store.importRows(
                from: RowsSource(rows: [good, unknown, noTerms]),
                options: ImportOptions()
            )
            Issue.record("an import with bad rows was accepted")
        } catch let StoreError.importRejected(problems, total) {
            #expect(total == 2)
            #expect(problems.map(\.line) == [3, 4])
            #expect(problems.map(\.column) == ["clinic", "date"])
        }
        #expect(try await book.store.countSales(SaleQuery()) == 0)

        let dry = try await book.store.importRows(from: RowsSource(rows: [good]), options: ImportOptions(dryRun: true))
        #expect(dry.sales == 1 && dry.dryRun)
        #expect(try await book.store.countSales(SaleQuery()) == 0)

        let clinic = ImportRow(
            line: 2,
            record: .clinic(ClinicDraft(name: "Lumen", schedule: .weekly(startingOn: .friday)))
        )
        let terms = ImportRow(
            line: 3,
            record: .terms(
                NamedTermsDraft(
                    clinic: "lumen",
                    product: nil,
                    basis: .revenue,
                    share: share("10%"),
                    effectiveFrom: day("2026-01-01")
                )
            )
        )
        let sale = ImportRow(
            line: 4,
            record: .sale(
                NamedSaleDraft(
                    clinic: "Lumen",
                    product: "SER-30",
                    date: day("2026-03-02"),
                    quantity: 2,
                    unitPrice: cents(4500)
                )
            )
        )
        let summary = try await book.store.importRows(
            from: RowsSource(rows: [clinic, terms, sale, good]),
            options: ImportOptions()
        )
        #expect(summary.tallies == ImportSummary(clinics: 1, terms: 1, sales: 2))
        // Its last sale's day (what the history question starts from; a remote store's says none).
        let lastDay = try Day(parsing: "2026-03-02")
        #expect(summary.lastSaleDate == nil || summary.lastSaleDate == lastDay)
        let lumen = try await book.store.clinic(named: "Lumen")
        // 2 × 45.00 = 90.00 revenue × 10% = 9.00.
        #expect(try await book.store.sales(SaleQuery(clinicID: lumen.id)).map(\.figures.commission) == [cents(900)])
    }
}

@Suite struct LiveQueryConformanceTests {
    struct GlowSales: StoreRequest {
        let clinic: Clinic.ID
        var tables: Set<StoreTable> { [.sales] }
        func fetch(from store: any CommissionStore) async throws -> Int {
            try await store.countSales(SaleQuery(clinicID: clinic))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func observedRequestYieldsAfterEveryRelevantCommit(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        var values = book.store.observe(GlowSales(clinic: book.glow.id)).makeAsyncIterator()
        #expect(try await values.next() == 0)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        #expect(try await values.next() == 1)
        // A write to a table the request does not read yields nothing; the next sale does.
        _ = try await book.store.createClinic(ClinicDraft(name: "Unrelated", schedule: .monthly))
        try await book.sell(book.serum, at: book.glow, on: "2026-03-03")
        #expect(try await values.next() == 2)
    }

    /// Counts its fetches, to show that observation fetches at the consumer's pace.
    struct CountedSales: StoreRequest {
        let fetches: Counter
        var tables: Set<StoreTable> { [.sales] }
        func fetch(from store: any CommissionStore) async throws -> Int {
            fetches.increment()
            return try await store.countSales(SaleQuery())
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test(arguments: StoreKind.allCases)
    func observationFetchesOnlyWhenTheConsumerAsks(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let fetches = Counter()
        var values = book.store.observe(CountedSales(fetches: fetches)).makeAsyncIterator()
        #expect(try await values.next() == 0)
        // Twenty commits while the consumer is busy elsewhere: no fetch until it asks, then one.
        for day in 1...20 {
            try await book.sell(book.serum, at: book.glow, on: "2026-03-\(String(format: "%02d", day))")
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(fetches.value == 1)
        #expect(try await values.next() == 20)
        #expect(fetches.value == 2)
    }

    @Test(.hangLimit, arguments: StoreKind.local)
    @MainActor
    func liveValueRefreshesAnObservableModel(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let live = LiveValue(store: book.store, request: GlowSales(clinic: book.glow.id))
        live.start()
        try await waitUntil { live.value == 0 || live.error != nil }
        #expect(live.value == 0 && live.error == nil)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        try await waitUntil { live.value == 1 || live.error != nil }
        #expect(live.value == 1 && live.error == nil)
        live.stop()
    }

    /// On PostgreSQL a book's changes end when the connection that listens for them is lost (what
    /// changed meanwhile is unknown): a live value observes again, and a sale made while nothing
    /// listened reaches it.
    @Test(.hangLimit)
    @MainActor
    func aLiveValueOutlivesTheLossOfTheConnectionThatListens() async throws {
        // A database of its own: losing its listening connection ends the streams of all its books.
        let database = try await ConformanceDatabase.make(prefix: "commission_live_value")
        defer { database.shutdown() }
        let book = try await Book(
            store: try await PostgresStore.createBook(in: database, name: "Live", settings: .test)
        )
        let live = LiveValue(store: book.store, request: GlowSales(clinic: book.glow.id))
        live.start()
        try await waitUntil { live.value == 0 || live.error != nil }
        #expect(live.value == 0 && live.error == nil)
        // The listening connection cut, as a network or a proxy would (waited for until its
        // session is gone), then a sale: nothing listens for it.
        let cut = try await database.withConnection { connection in
            try await connection.query(
                PostgresQuery(
                    stringLiteral: """
                        SELECT pg_terminate_backend(pid, 600000) FROM pg_stat_activity
                        WHERE datname = current_database() AND query LIKE 'LISTEN%'
                        """
                ),
                logger: Logger(label: "test")
            ).decode(Bool.self).all()
        }
        #expect(cut == [true])
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        try await waitUntil { live.value == 1 }
        #expect(live.error == nil)
        live.stop()
    }

    /// Fails its fetches while `away` is set: the database (or the network) away.
    struct FailingWhileAway: StoreRequest {
        let away: Flag
        var tables: Set<StoreTable> { [.sales] }
        func fetch(from store: any CommissionStore) async throws -> Int {
            if away.isSet { throw StoreError.unavailable("the test's database is away") }
            return try await store.countSales(SaleQuery())
        }
    }

    final class Flag: Sendable {
        private let state: Mutex<Bool>
        init(_ value: Bool) { state = Mutex(value) }
        var isSet: Bool { state.withLock { $0 } }
        func clear() { state.withLock { $0 = false } }
    }

    /// A fetch that fails is said (`error`) and tried again until one succeeds: a live value never
    /// ends on a moment's outage, which would leave a view showing an old figure for good.
    @Test(.hangLimit, arguments: StoreKind.local)
    @MainActor
    func aLiveValueSaysAFailedFetchAndTriesAgainUntilOneSucceeds(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let away = Flag(true)
        let live = LiveValue(store: book.store, request: FailingWhileAway(away: away))
        live.start()
        try await waitUntil { live.error != nil }
        #expect((live.error as? StoreError)?.isUnavailable == true)
        #expect(live.value == nil)
        // Back: the next try fetches, and the error is gone.
        away.clear()
        try await waitUntil { live.value == 0 }
        #expect(live.error == nil)
        // And it observes on: a sale still reaches it.
        try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        try await waitUntil { live.value == 1 }
        live.stop()
    }

    @Test func aWriteByAnotherProcessReachesObservers() async throws {
        // Two stores on one file stand for two processes: the second sees nothing in-process.
        let path = temporaryDatabasePath()
        let watcher = try SQLiteStoreFactory.open(path)
        let writer = try SQLiteStoreFactory.open(path)
        let glow = try await writer.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        var values = watcher.observe(GlowSales(clinic: glow.id)).makeAsyncIterator()
        #expect(try await values.next() == 0)
        _ = try await writer.createSale(
            SaleDraft(
                clinicID: glow.id,
                productID: try await writer.createProduct(
                    ProductDraft(name: "Serum", unitPrice: cents(100), unitCost: .zero)
                ).id,
                date: day("2026-03-02"),
                noCommission: true
            ),
            idempotencyKey: nil
        )
        #expect(try await values.next() == 1)
    }
}

/// Returns once `condition` holds, woken by the observed values it reads (Observation), never by
/// a clock: however busy the machine, it waits as long as the values take to arrive. A test that
/// uses it carries ``hangLimit``: a value that never comes fails it (the limit cancels the wait).
@MainActor
func waitUntil(_ condition: @MainActor () -> Bool) async throws {
    while !condition() {
        try Task.checkCancellation()
        let wake = Wake()
        // The body runs on the main actor without a suspension after the check above, and the
        // values change on the main actor: no change can fall between the check and the tracking.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
                wake.set(changed)
                withObservationTracking {
                    _ = condition()
                } onChange: {
                    wake.resume()
                }
            }
        } onCancel: {
            wake.resume()
        }
    }
}

/// Resumes a waiter once, whichever comes first: a change, or the cancellation (which may come
/// before the waiter is there).
final class Wake: Sendable {
    private let state = Mutex<(waiter: CheckedContinuation<Void, Never>?, woken: Bool)>((nil, false))

    func set(_ waiter: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            if state.woken { return true }
            state.waiter = waiter
            return false
        }
        if resumeNow { waiter.resume() }
    }

    func resume() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.woken else { return nil }
            state.woken = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

/// A deterministic generator (SplitMix64), so that random tests repeat.
typealias SeededRandom = SplitMix64

@Suite struct TeamConformanceTests {
    typealias TeamBook = any CommissionStore & AccountStore & TeamStore

    func makeTeam(_ kind: StoreKind) async throws -> (store: TeamBook, owner: Account) {
        let store = try #require(try await kind.makeStore() as? TeamBook)
        // User names are unique per server on PostgreSQL, whose books share one database.
        let owner = try await store.createOwner(
            username: "owner-\(UUID().uuidString.prefix(8))",
            passwordHash: "hash-o"
        )
        return (store, owner)
    }

    @Test(arguments: StoreKind.local)
    func anInvitationAddsOneMemberOnce(_ kind: StoreKind) async throws {
        let (store, owner) = try await makeTeam(kind)
        let now = Date()
        let digest = "invitation-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: digest,
            role: .member,
            invitedBy: owner.id,
            expiresAt: now.addingTimeInterval(3600)
        )
        let invitation = try #require(try await store.invitation(tokenDigest: digest, now: now))
        #expect(invitation.role == .member && invitation.invitedBy == owner.username)

        let name = "member-\(UUID().uuidString.prefix(8))".lowercased()
        let member = try await store.acceptInvitation(
            tokenDigest: digest,
            username: name,
            passwordHash: "hash-m",
            now: now
        )
        #expect(try await store.role(of: member.id) == .member)
        #expect(try await store.role(of: owner.id) == .owner)
        #expect(try await store.members().map(\.account.username) == [owner.username, name])
        #expect(try await store.credentials(username: name)?.passwordHash == "hash-m")

        // Used: gone, and a second acceptance adds nobody.
        #expect(try await store.invitation(tokenDigest: digest, now: now) == nil)
        await #expect(throws: StoreError.self) {
            _ = try await store.acceptInvitation(
                tokenDigest: digest,
                username: name + "-again",
                passwordHash: "x",
                now: now
            )
        }
        #expect(try await store.members().count == 2)

        // A member may not invite; an owner may invite another owner.
        await #expect(throws: StoreError.self) {
            try await store.createInvitation(
                tokenDigest: digest + "-m",
                role: .member,
                invitedBy: member.id,
                expiresAt: now.addingTimeInterval(3600)
            )
        }
        #expect(try await store.invitation(tokenDigest: digest + "-m", now: now) == nil)
        try await store.createInvitation(
            tokenDigest: digest + "-o",
            role: .owner,
            invitedBy: owner.id,
            expiresAt: now.addingTimeInterval(3600)
        )
        let second = try await store.acceptInvitation(
            tokenDigest: digest + "-o",
            username: name + "-o",
            passwordHash: "x",
            now: now
        )
        #expect(try await store.role(of: second.id) == .owner)
    }

    @Test(arguments: StoreKind.local)
    func expiredInvitationsAndTakenNamesAreRefusedWhole(_ kind: StoreKind) async throws {
        let (store, owner) = try await makeTeam(kind)
        let now = Date()
        let expired = "expired-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: expired,
            role: .member,
            invitedBy: owner.id,
            expiresAt: now.addingTimeInterval(-1)
        )
        #expect(try await store.invitation(tokenDigest: expired, now: now) == nil)
        await #expect(throws: StoreError.self) {
            _ = try await store.acceptInvitation(
                tokenDigest: expired,
                username: "late-\(UUID().uuidString.prefix(8))",
                passwordHash: "x",
                now: now
            )
        }
        #expect(try await store.invitation(tokenDigest: "never-made", now: now) == nil)

        // The owner's name (in another case) is taken: refused, and the link still works afterwards.
        let fresh = "fresh-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: fresh,
            role: .member,
            invitedBy: owner.id,
            expiresAt: now.addingTimeInterval(3600)
        )
        await #expect(throws: StoreError.self) {
            _ = try await store.acceptInvitation(
                tokenDigest: fresh,
                username: owner.username.uppercased(),
                passwordHash: "x",
                now: now
            )
        }
        #expect(try await store.members().count == 1)
        #expect(try await store.invitation(tokenDigest: fresh, now: now) != nil)
        _ = try await store.acceptInvitation(
            tokenDigest: fresh,
            username: "ok-\(UUID().uuidString.prefix(8))",
            passwordHash: "x",
            now: now
        )
        #expect(try await store.members().count == 2)
    }

    @Test(arguments: StoreKind.local)
    func twoPeopleRacingForOneLinkMakeOneAccount(_ kind: StoreKind) async throws {
        let (store, owner) = try await makeTeam(kind)
        let digest = "race-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: digest,
            role: .member,
            invitedBy: owner.id,
            expiresAt: Date().addingTimeInterval(3600)
        )
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<6 {
                group.addTask {
                    (try? await store.acceptInvitation(
                        tokenDigest: digest,
                        username: "racer-\(index)-\(UUID().uuidString.prefix(6))",
                        passwordHash: "x",
                        now: Date()
                    )) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
        #expect(try await store.members().count == 2)
    }
}

extension TeamConformanceTests {
    /// What `commission books add` makes: a book claimed through its owner's one-time link alone.
    /// Set-up (the `/setup` page) must never give it to whoever comes first.
    @Test(arguments: StoreKind.local)
    func aBookMadeForItsOwnersLinkCannotBeSetUpByAnyoneElse(_ kind: StoreKind) async throws {
        let store = try #require(try await kind.makeStore() as? TeamBook)
        let now = Date()
        #expect(try await store.awaitsSetup())
        let link = "owners-link-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: link,
            role: .owner,
            invitedBy: nil,
            expiresAt: now.addingTimeInterval(3600)
        )
        #expect(try await !store.awaitsSetup())

        // A stranger at /setup gets nothing.
        await #expect(throws: StoreError.self) {
            _ = try await store.createOwner(username: "stranger-\(UUID().uuidString.prefix(8))", passwordHash: "x")
        }
        #expect(try await store.members().isEmpty)

        // The link makes its owner, once.
        let invitation = try #require(try await store.invitation(tokenDigest: link, now: now))
        #expect(invitation.isOwnersLink && !invitation.isSpent)
        let owner = try await store.acceptInvitation(
            tokenDigest: link,
            username: "maya-\(UUID().uuidString.prefix(8))",
            passwordHash: "x",
            now: now
        )
        #expect(try await store.members() == [Member(account: owner, role: .owner)])
        #expect(try await !store.awaitsSetup())
    }

    /// A book's owner link claimed after the book has its owner (a book taken at `/setup` by an
    /// earlier version, or a second link made for it) says it is spent and adds no second owner.
    @Test(arguments: StoreKind.local)
    func anOwnersLinkClaimedAfterTheBookHasAnOwnerIsSpent(_ kind: StoreKind) async throws {
        let (store, owner) = try await makeTeam(kind)
        let now = Date()
        #expect(try await !store.awaitsSetup())
        let link = "late-link-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: link,
            role: .owner,
            invitedBy: nil,
            expiresAt: now.addingTimeInterval(3600)
        )
        let invitation = try #require(try await store.invitation(tokenDigest: link, now: now))
        #expect(invitation.isSpent)
        await #expect(throws: StoreError.invalid(field: "invitation", reason: Invitation.spentReason)) {
            _ = try await store.acceptInvitation(
                tokenDigest: link,
                username: "late-\(UUID().uuidString.prefix(8))",
                passwordHash: "x",
                now: now
            )
        }
        #expect(try await store.members() == [Member(account: owner, role: .owner)])

        // An owner's own invitation of another owner is not such a link: it still works.
        let invited = "co-owner-\(UUID().uuidString)"
        try await store.createInvitation(
            tokenDigest: invited,
            role: .owner,
            invitedBy: owner.id,
            expiresAt: now.addingTimeInterval(3600)
        )
        #expect(try await store.invitation(tokenDigest: invited, now: now)?.isSpent == false)
        let second = try await store.acceptInvitation(
            tokenDigest: invited,
            username: "co-\(UUID().uuidString.prefix(8))",
            passwordHash: "x",
            now: now
        )
        #expect(try await store.role(of: second.id) == .owner)
    }
}

/// What each clinic owes her now, on the dashboard: every unpaid or short period, not only the
/// current one, and the part past the clinic's usual payment.
@Suite struct ArrearsConformanceTests {
    @Test("A skipped payment shows in what the clinic owes, and is overdue", arguments: StoreKind.allCases)
    func skippedPayment(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        // Glow (monthly, 40% of profit; a serum's profit is 30.00, so 12.00 a sale).
        // August and September paid on the 10th of the next month; October skipped; November running.
        for date in ["2026-08-05", "2026-09-05", "2026-10-05", "2026-10-06", "2026-11-03"] {
            try await book.sell(book.serum, at: book.glow, on: date)
        }
        for (period, received) in [("2026-08-01", "2026-09-10"), ("2026-09-01", "2026-10-10")] {
            _ = try await store.createPayout(
                PayoutDraft(
                    clinicID: book.glow.id,
                    period: PaySchedule.monthly.period(containing: day(period)),
                    amount: cents(1200),
                    receivedOn: day(received)
                )
            )
        }
        let today = day("2026-11-23")
        let glow = try #require(try await store.dashboard(today: today).clinics.first { $0.clinic.id == book.glow.id })
        // Owed: October's 24.00 and November's 12.00; the current period alone would say 12.00.
        #expect(glow.periodBalance == cents(1200))
        #expect(glow.arrears.owed == cents(3600))
        // Glow pays 10 days after a period ends: October was due on 2026-11-10, so its 24.00 is overdue.
        #expect(glow.arrears.dueAfterDays == 10)
        #expect(glow.arrears.overdue == cents(2400))
        // Ten days after October ended it was not overdue yet.
        let early = try #require(
            try await store.dashboard(today: day("2026-11-09")).clinics.first { $0.clinic.id == book.glow.id }
        )
        #expect(early.arrears.owed == cents(3600) && early.arrears.overdue == .zero)

        // Harbor has never paid: it is given 14 days, and overpaying its current period leaves nothing overdue.
        try await book.sell(book.serum, at: book.harbor, on: "2026-11-02")  // 30.00 × 55% = 16.50, period 1–15 November
        let harbor = try #require(
            try await store.dashboard(today: today).clinics.first { $0.clinic.id == book.harbor.id }
        )
        #expect(
            harbor.arrears.dueAfterDays == Arrears.defaultDueAfterDays && harbor.arrears.owed == cents(1650)
                && harbor.arrears.overdue == .zero
        )
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: book.harbor.id,
                period: PaySchedule.semimonthly.period(containing: day("2026-11-02")),
                amount: cents(2000),
                receivedOn: today
            )
        )
        let paid = try #require(
            try await store.dashboard(today: today).clinics.first { $0.clinic.id == book.harbor.id }
        )
        #expect(paid.arrears.owed == cents(-350) && paid.arrears.overdue == .zero && paid.arrears.dueAfterDays == 8)

        // A sale on the current period's last day is owed with it; one dated after it (entered
        // ahead) belongs to a period not begun, and is not owed yet.
        try await book.sell(book.serum, at: book.glow, on: "2026-11-30")
        try await book.sell(book.serum, at: book.glow, on: "2026-12-01")
        let ahead = try #require(try await store.dashboard(today: today).clinics.first { $0.clinic.id == book.glow.id })
        #expect(ahead.arrears.owed == cents(4800) && ahead.arrears.overdue == cents(2400))
        #expect(ahead.periodTotals.saleCount == 2 && ahead.periodPayable == cents(2400))
    }

    /// With rounding once per statement the figures come period by period, and agree with the reconciliation.
    @Test(arguments: StoreKind.allCases)
    func perStatementRoundingGivesTheReconciliationsBalance(_ kind: StoreKind) async throws {
        var settings = BookSettings.test
        settings.rounding = RoundingPolicy(rule: .halfAwayFromZero, scope: .perStatement)
        let book = try await Book(kind, settings: settings)
        for date in ["2026-09-05", "2026-10-05", "2026-11-03"] {
            try await book.sell(book.cream, at: book.harbor, on: date, discount: 1)
        }
        let today = day("2026-11-23")
        let harbor = try #require(
            try await book.store.dashboard(today: today).clinics.first { $0.clinic.id == book.harbor.id }
        )
        let reconciliation = try await book.store.reconciliation(clinic: book.harbor.id, today: today)
        #expect(harbor.arrears.owed == reconciliation.balance && !harbor.arrears.owed.isZero)
        #expect(harbor.arrears == Arrears(reconciliation, today: today, dueAfterDays: Arrears.defaultDueAfterDays))
    }

    /// The top products are ranked by their commission of the year as the book rounds it, a tie
    /// going to the product made first: the last place goes to a product whose exact commission
    /// (999.5667 cents) is below another's (1000.2333) that rounds to the same 10.00, once per
    /// statement or line by line. A store that ranked the exact figures would list the other.
    @Test(arguments: StoreKind.allCases, [RoundingScope.perStatement, .perLine])
    func topProductsAreRankedByTheRoundedCommission(_ kind: StoreKind, scope: RoundingScope) async throws {
        var settings = BookSettings.test
        settings.rounding = RoundingPolicy(rule: .halfAwayFromZero, scope: scope)
        let store = try await kind.makeStore(settings: settings)
        let studio = try await store.createClinic(ClinicDraft(name: "Studio", schedule: .monthly))
        _ = try await store.createTerms(
            TermsDraft(clinicID: studio.id, share: share("33.33%"), effectiveFrom: day("2026-01-01"))
        )
        func product(_ name: String, price: Int64) async throws -> Product {
            let product = try await store.createProduct(
                ProductDraft(name: name, unitPrice: cents(price), unitCost: .zero)
            )
            _ = try await store.createSale(
                SaleDraft(clinicID: studio.id, productID: product.id, date: day("2026-03-02")),
                idempotencyKey: nil
            )
            return product
        }
        var high: [Product] = []
        for index in 1...19 { high.append(try await product("High \(index)", price: 20_000 + Int64(index) * 100)) }
        let first = try await product("Made first", price: 2999)  // 999.5667 cents: 10.00
        _ = try await product("Made second", price: 3001)  // 1000.2333 cents: 10.00
        for index in 1...3 { _ = try await product("Low \(index)", price: 500) }

        let products = try await store.dashboard(today: day("2026-03-20")).products
        #expect(products.count == 20)
        #expect(products.prefix(19).map(\.product.id) == high.reversed().map(\.id))
        #expect(products.last?.product.id == first.id)
        #expect(products.last?.yearTotals.commission == cents(1000))
    }
}

/// The entry assistant: what the quick entry form starts from, on every store.
@Suite struct EntryConformanceTests {
    @Test(
        "The form starts at the last clinic, with products most sold first and the latest recorded sales",
        arguments: StoreKind.allCases
    )
    func entryForm(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        try await book.sell(book.cream, at: book.glow, on: "2026-03-02", quantity: 3)
        try await book.sell(book.serum, at: book.glow, on: "2026-03-03")
        // Recorded last, dated earliest: a backdated sale at Harbor.
        let backdated = try await book.sell(book.serum, at: book.harbor, on: "2026-02-01")
        let form = try await book.store.observe(EntryRequest(today: day("2026-03-10"))).first { _ in true }!
        #expect(form.clinic?.id == book.harbor.id)
        #expect(form.products.map(\.product.name) == ["Cream", "Serum 30ml"])  // 3 units, then 2
        #expect(form.products.first?.unitPrice == cents(3000) && form.products.first?.unitCost == cents(1200))
        #expect(form.recent.first?.id == backdated.id && form.recent.count == 3)
        #expect(form.clinicNames[book.harbor.id] == "Harbor" && form.productNames[book.serum.id] == "Serum 30ml")

        // A prefilled link's clinic wins over the last one used.
        let asked = try await EntryRequest(today: day("2026-03-10"), clinic: book.glow.id).fetch(from: book.store)
        #expect(asked.clinic?.id == book.glow.id)

        // Repeat records the same sale on another day.
        let again = try await book.store.createSale(
            SaleDraft(repeating: backdated, on: day("2026-03-10")),
            idempotencyKey: nil
        )
        #expect(again.date == day("2026-03-10") && again.line == backdated.line && again.clinicID == book.harbor.id)
    }

    @Test("Missed days are the usual weekdays of the last fortnight without a sale", arguments: StoreKind.allCases)
    func missedDays(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        // Mondays and Thursdays for six weeks before the fortnight (2026-02-02 … 2026-03-12), then only the Mondays.
        let today = day("2026-03-30")  // a Monday
        for week in 0..<6 {
            let monday = day("2026-01-26").adding(days: 7 * week)
            try await book.sell(book.serum, at: book.glow, on: monday.description)
            try await book.sell(book.serum, at: book.glow, on: monday.adding(days: 3).description)
        }
        try await book.sell(book.serum, at: book.glow, on: "2026-03-16")
        try await book.sell(book.serum, at: book.glow, on: "2026-03-23")
        let voided = try await book.sell(book.serum, at: book.glow, on: "2026-03-26")
        _ = try await book.store.voidSale(voided.id)  // a voided sale is no sale
        let form = try await EntryRequest(today: today).fetch(from: book.store)
        #expect(form.missedDays.map(\.description) == ["2026-03-19", "2026-03-26"])  // the two Thursdays
        #expect(EntryForm.missedDays(today: today, soldOn: []).isEmpty)
        // A Sunday she worked now and then (three of eight weeks) is no day she usually works.
        var weekdays: Set<Day> = []
        for week in 0..<8 {
            let monday = day("2026-01-26").adding(days: 7 * week)
            for offset in 0..<5 { weekdays.insert(monday.adding(days: offset)) }
            if week % 3 == 0 { weekdays.insert(monday.adding(days: 6)) }
        }
        let missed = EntryForm.missedDays(today: day("2026-04-06"), soldOn: weekdays)
        #expect(missed.count == 10 && !missed.contains { $0.weekday == .sunday }, "\(missed)")
    }
}

/// Clinic price lists (the product brief, "More of her real terms"), on every store: a sale's price and
/// cost start from the clinic's entry on its date, the entry form shows the clinic's price, and a
/// change of the list never changes a recorded sale.
@Suite struct PriceListConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aSaleStartsFromTheClinicsPriceOnItsDate(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        // From 15 March Glow sells the serum at 45.00 supplied at 18.00; from 1 April at 48.00 with no cost (the product's 20.00).
        let march = try await store.setPrice(
            PriceDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                unitPrice: cents(4500),
                unitCost: cents(1800),
                effectiveFrom: day("2026-03-15")
            )
        )
        let april = try await store.setPrice(
            PriceDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                unitPrice: cents(4800),
                effectiveFrom: day("2026-04-01")
            )
        )
        #expect(try await store.prices(PriceQuery(clinicID: book.glow.id)) == [march, april])
        #expect(try await store.prices(PriceQuery(clinicID: book.harbor.id)).isEmpty)

        func prices(_ sale: Sale) -> [Int64] {
            [sale.line.unitPrice.minorUnits, sale.line.unitCost.minorUnits, sale.figures.commission.minorUnits]
        }
        // 14 March: the product's 50.00 − 20.00 = 30.00 at 40% = 12.00.
        #expect(prices(try await book.sell(book.serum, at: book.glow, on: "2026-03-14")) == [5000, 2000, 1200])
        // 15 March: 45.00 − 18.00 = 27.00 at 40% = 10.80.
        let mid = try await book.sell(book.serum, at: book.glow, on: "2026-03-15")
        #expect(prices(mid) == [4500, 1800, 1080])
        // 2 April: 48.00 − 20.00 = 28.00 at 40% = 11.20. Harbor has no list: 50.00 − 20.00 at 55% = 16.50.
        #expect(prices(try await book.sell(book.serum, at: book.glow, on: "2026-04-02")) == [4800, 2000, 1120])
        #expect(prices(try await book.sell(book.serum, at: book.harbor, on: "2026-04-02")) == [5000, 2000, 1650])
        // A typed price beats the list (the list's cost stays): 52.00 − 18.00 = 34.00 at 40% = 13.60.
        let typed = try await store.createSale(
            SaleDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                date: day("2026-03-20"),
                unitPrice: cents(5200)
            ),
            idempotencyKey: nil
        )
        #expect(prices(typed) == [5200, 1800, 1360])
        // An import takes the list too: 45.00 on 20 March.
        _ = try await store.importRows(
            from: RowsSource(rows: [
                ImportRow(
                    line: 2,
                    record: .sale(
                        NamedSaleDraft(
                            clinic: "Glow",
                            product: "SER-30",
                            date: day("2026-03-20"),
                            quantity: 1
                        )
                    )
                )
            ]),
            options: ImportOptions()
        )
        #expect(
            try await store.sales(
                SaleQuery(clinicID: book.glow.id, from: day("2026-03-20"), through: day("2026-03-20"))
            ).map(\.line.unitPrice)
                .sorted() == [cents(4500), cents(5200)]
        )

        // The entry form on 10 April at Glow: the serum at 48.00 (cost 20.00); at Harbor, its own 50.00.
        let form = try await EntryRequest(today: day("2026-04-10"), clinic: book.glow.id).fetch(from: store)
        let serum = try #require(form.products.first { $0.product.id == book.serum.id })
        #expect(serum.unitPrice == cents(4800) && serum.unitCost == cents(2000))
        #expect(
            serum.price(at: book.glow.id).unitPrice == cents(4800)
                && serum.price(at: book.harbor.id).unitPrice == cents(5000)
        )
        let atHarbor = try await EntryRequest(today: day("2026-04-10"), clinic: book.harbor.id).fetch(from: store)
        #expect(atHarbor.products.first { $0.product.id == book.serum.id }?.unitPrice == cents(5000))

        // The same day again replaces the entry; a recorded sale keeps its price.
        let replaced = try await store.setPrice(
            PriceDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                unitPrice: cents(4600),
                effectiveFrom: day("2026-03-15")
            )
        )
        #expect(replaced.id == march.id && replaced.unitCost == nil)
        #expect(try await store.prices(PriceQuery(productID: book.serum.id)).count == 2)
        #expect(prices(try await store.sale(mid.id)) == [4500, 1800, 1080])
        // Removed: April's sales start from March's entry again.
        try await store.removePrice(april.id)
        #expect(prices(try await book.sell(book.serum, at: book.glow, on: "2026-04-03")) == [4600, 2000, 1040])

        // Each change is on record.
        #expect(
            try await store.auditLog(AuditQuery(subject: .price)).map(\.action) == [
                "delete", "update", "create", "create",
            ]
        )

        // Refused, changing nothing: an unknown product, a negative price, an unknown entry, a date the book does not take.
        await #expect(throws: StoreError.notFound(.products, id: 999)) {
            try await store.setPrice(
                PriceDraft(
                    clinicID: book.glow.id,
                    productID: Product.ID(999),
                    unitPrice: cents(100),
                    effectiveFrom: day("2026-03-01")
                )
            )
        }
        await #expect(throws: SaleLineError.negativeAmount(field: "unit price")) {
            try await store.setPrice(
                PriceDraft(
                    clinicID: book.glow.id,
                    productID: book.cream.id,
                    unitPrice: cents(-1),
                    effectiveFrom: day("2026-03-01")
                )
            )
        }
        await #expect(throws: DateOutOfRange.self) {
            try await store.setPrice(
                PriceDraft(
                    clinicID: book.glow.id,
                    productID: book.cream.id,
                    unitPrice: cents(100),
                    effectiveFrom: day("2062-03-01")
                )
            )
        }
        await #expect(throws: StoreError.notFound(.prices, id: april.id.rawValue)) {
            try await store.removePrice(april.id)
        }
        #expect(try await store.prices(PriceQuery()).count == 1)
    }
}

/// Schedule changes (the product brief, "More of her real terms"), on every store: periods cut at the
/// change, statements and reconciliation by those periods, and a change refused when it would
/// alter a closed period or one with a payout.
@Suite struct ScheduleChangeConformanceTests {
    @Test("A change cuts the periods at its day, and never moves a closed one", arguments: StoreKind.allCases)
    func scheduleChangeCutsPeriods(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        try await book.sell(book.serum, at: book.glow, on: "2026-10-20")
        try await book.sell(book.serum, at: book.glow, on: "2026-11-05")
        try await book.sell(book.serum, at: book.glow, on: "2026-11-18", quantity: 2)
        let october = PayPeriod(start: day("2026-10-01"), end: day("2026-10-31"))
        try await store.closePeriod(clinic: book.glow.id, period: october)

        // Monthly, then weekly on Tuesdays from Tuesday 17 November.
        var glow = try await store.clinic(book.glow.id)
        glow.scheduleChanges = [
            ScheduleChange(effectiveFrom: day("2026-11-17"), schedule: .weekly(startingOn: .tuesday))
        ]
        glow = try await store.updateClinic(glow)
        #expect(try await store.clinic(book.glow.id).scheduleChanges == glow.scheduleChanges)
        let cut = PayPeriod(start: day("2026-11-01"), end: day("2026-11-16"))
        let week = PayPeriod(start: day("2026-11-17"), end: day("2026-11-23"))
        // 50.00 − 20.00 = 30.00 at 40% = 12.00 a unit.
        #expect(try await store.statement(clinic: book.glow.id, period: cut).totals.commission == cents(1200))
        #expect(try await store.statement(clinic: book.glow.id, period: week).totals.commission == cents(2400))
        let reconciliation = try await store.reconciliation(clinic: book.glow.id, today: day("2026-11-25"))
        #expect(reconciliation.periods.map(\.period) == [october, cut, week])
        #expect(reconciliation.periods.map(\.expected) == [cents(1200), cents(1200), cents(2400)])
        // The dashboard's current period is the week that holds today.
        let dashboard = try await store.dashboard(today: day("2026-11-25"))
        #expect(
            dashboard.clinics.first { $0.clinic.id == book.glow.id }?.period
                == PayPeriod(start: day("2026-11-24"), end: day("2026-11-30"))
        )

        // The cut period is a period: it is paid and closed as one; the old month is no longer one.
        await #expect(throws: StoreError.self) {
            try await store.closePeriod(
                clinic: book.glow.id,
                period: PayPeriod(start: day("2026-11-01"), end: day("2026-11-30"))
            )
        }
        try await store.closePeriod(clinic: book.glow.id, period: cut)
        _ = try await store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: week, amount: cents(2400), receivedOn: day("2026-11-24"))
        )

        // Refused, changing nothing: a change over the closed cut period, taking the change away
        // (November would be whole again), and a change within the paid week.
        for changes in [
            [ScheduleChange(effectiveFrom: day("2026-11-10"), schedule: .weekly(startingOn: .tuesday))], [],
        ] {
            var attempt = glow
            attempt.scheduleChanges = changes
            let error = await #expect(throws: StoreError.self) { try await store.updateClinic(attempt) }
            #expect(
                error?.description.contains("closed period 2026-11-01…2026-11-16") == true,
                "\(String(describing: error))"
            )
        }
        var withinThePaidWeek = glow
        withinThePaidWeek.scheduleChanges.append(ScheduleChange(effectiveFrom: day("2026-11-20"), schedule: .monthly))
        let paid = await #expect(throws: StoreError.self) { try await store.updateClinic(withinThePaidWeek) }
        #expect(paid?.description.contains("period 2026-11-17…2026-11-23, which has a payout") == true)
        var first = glow
        first.schedule = .semimonthly  // would split closed October
        await #expect(throws: StoreError.self) { try await store.updateClinic(first) }
        #expect(try await store.clinic(book.glow.id).calendar == glow.calendar)

        // A later change is fine; each change is on record.
        var later = glow
        later.scheduleChanges.append(ScheduleChange(effectiveFrom: day("2026-12-01"), schedule: .monthly))
        #expect(
            try await store.updateClinic(later).calendar.period(containing: day("2026-12-15"))
                == PayPeriod(start: day("2026-12-01"), end: day("2026-12-31"))
        )
        #expect(
            try await store.calendarPeriod(book.glow.id, day("2026-11-30"))
                == PayPeriod(start: day("2026-11-24"), end: day("2026-11-30"))
        )
        #expect(
            try await store.auditLog(AuditQuery(subject: .clinic, subjectID: glow.id.rawValue)).map(\.action) == [
                "schedule", "schedule", "create",
            ]
        )
    }
}

extension CommissionStore {
    func calendarPeriod(_ clinic: Clinic.ID, _ day: Day) async throws -> PayPeriod {
        try await self.clinic(clinic).calendar.period(containing: day)
    }
}

/// Her year for her accountant, on every store: months of sales, and the pay periods that end in
/// the year with their accelerators, deductions, net payable, payouts and balance — worked by hand.
@Suite struct YearSummaryConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func aYearAddsUpMonthsAndThePeriodsThatEndInIt(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: book.glow.id,
                share: share("40%"),
                tiers: [Tier(threshold: cents(10_000), share: share("50%"))],
                effectiveFrom: day("2026-06-01")
            )
        )
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.glow.id,
                name: "Room rent",
                amount: .fixed(cents(1000)),
                effectiveFrom: day("2026-06-01")
            )
        )
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.glow.id,
                name: "Card fees",
                amount: .shareOfRevenue(share("2.5%")),
                effectiveFrom: day("2026-06-01")
            )
        )
        // Glow, June: 5 serums, revenue 250.00, 60.00 on the lines, 5.00 accelerator, 16.25 deducted: 48.75, of which 30.00 paid.
        try await book.sell(book.serum, at: book.glow, on: "2026-06-10", quantity: 5)
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: book.glow.id,
                period: PayPeriod(start: day("2026-06-01"), end: day("2026-06-30")),
                amount: cents(3000),
                receivedOn: day("2026-07-05")
            )
        )
        // Harbor, 1–15 March: 2 creams, revenue 60.00, profit 36.00 at 55% = 19.80, paid in full.
        try await book.sell(book.cream, at: book.harbor, on: "2026-03-02", quantity: 2)
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: book.harbor.id,
                period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-15")),
                amount: cents(1980),
                receivedOn: day("2026-03-20")
            )
        )
        // Next year's sale is not this year's.
        try await book.sell(book.serum, at: book.glow, on: "2027-01-05")

        let year = try await store.yearSummary(2026, today: day("2027-01-10"))
        #expect(year.clinics.map(\.clinic.name) == ["Glow", "Harbor"])
        let glow = year.clinics[0], harbor = year.clinics[1]
        #expect(
            glow.months[5]
                == Totals(
                    saleCount: 1,
                    quantity: 5,
                    revenue: cents(25_000),
                    cost: cents(10_000),
                    profit: cents(15_000),
                    commission: cents(6000)
                )
        )
        #expect(glow.months.enumerated().allSatisfy { $0.offset == 5 || $0.element == .zero })
        #expect(
            glow.figures
                == ClinicYear.Figures(
                    sales: glow.months[5],
                    periods: 1,
                    commission: cents(6000),
                    accelerators: cents(500),
                    deductions: cents(1625),
                    netPayable: cents(4875),
                    received: cents(3000),
                    balance: cents(1875)
                )
        )
        #expect(harbor.months[2].commission == cents(1980) && harbor.months[2].revenue == cents(6000))
        #expect(
            harbor.figures.periods == 1 && harbor.figures.netPayable == cents(1980) && harbor.figures.balance == .zero
                && harbor.figures.deductions == .zero && harbor.figures.accelerators == .zero
        )
        #expect(
            year.total.sales.revenue == cents(31_000) && year.total.sales.commission == cents(7980)
                && year.total.sales.saleCount == 2
        )
        #expect(
            year.total.netPayable == cents(6855) && year.total.accelerators == cents(500)
                && year.total.deductions == cents(1625)
                && year.total.received == cents(4980) && year.total.balance == cents(1875) && year.total.periods == 2
        )
        // The next year holds Glow's January only; an empty year, nothing.
        let next = try await store.yearSummary(2027, today: day("2027-01-10"))
        #expect(next.clinics.map(\.clinic.name) == ["Glow"] && next.clinics[0].months[0].saleCount == 1)
        #expect(try await store.yearSummary(2020, today: day("2027-01-10")).clinics.isEmpty)
    }
}

/// Tiers and deductions (the product brief, "More of her real terms"), on every store: the statement's
/// accelerator and deductions, the net payable in reconciliation and on the dashboard, and what a
/// closed period protects.
@Suite struct TiersAndDeductionsConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func theNetPayableComesThroughEveryReport(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        // From June: 40% of profit, 50% of the part beyond 100.00 in a period.
        let tiered = try await store.createTerms(
            TermsDraft(
                clinicID: book.glow.id,
                share: share("40%"),
                tiers: [Tier(threshold: cents(10_000), share: share("50%"))],
                effectiveFrom: day("2026-06-01")
            )
        ).terms
        #expect(try await store.terms(tiered.id).tiers == tiered.tiers)
        let rent = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.glow.id,
                name: "Room rent",
                amount: .fixed(cents(1000)),
                effectiveFrom: day("2026-06-01")
            )
        )
        let fee = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.glow.id,
                name: "Card fees",
                amount: .shareOfRevenue(share("2.5%")),
                effectiveFrom: day("2026-06-01")
            )
        )
        #expect(try await store.deductions(clinic: book.glow.id).map(\.name) == ["Room rent", "Card fees"])
        // Five serums in June: revenue 250.00, profit 150.00, 40% = 60.00 on the lines; 50.00
        // beyond 100.00 at +10% = 5.00; commission 65.00. Rent 10.00, card fees 2.5% of 250.00 =
        // 6.25: net payable 48.75.
        try await book.sell(book.serum, at: book.glow, on: "2026-06-10", quantity: 5)
        let june = PayPeriod(start: day("2026-06-01"), end: day("2026-06-30"))
        let statement = try await store.statement(clinic: book.glow.id, period: june)
        #expect(statement.totals.commission == cents(6000))
        #expect(
            statement.accelerators.map(\.amount) == [cents(500)]
                && statement.accelerators.first?.basisTotal == cents(15_000)
        )
        #expect(statement.commission == cents(6500))
        #expect(statement.deductions.map(\.amount) == [cents(1000), cents(625)])
        #expect(statement.netPayable == cents(4875) && statement.balance == cents(4875))
        let reconciliation = try await store.reconciliation(clinic: book.glow.id, today: day("2026-07-20"))
        // July, without sales: no deduction, no period
        #expect(reconciliation.periods.map(\.expected) == [cents(4875)])
        let dashboard = try await store.dashboard(today: day("2026-06-20"))
        let glow = try #require(dashboard.clinics.first { $0.clinic.id == book.glow.id })
        #expect(
            glow.periodTotals.commission == cents(6000) && glow.periodPayable == cents(4875)
                && glow.periodBalance == cents(4875)
        )
        #expect(glow.arrears.owed == cents(4875))
        // A payout of the net payable settles June.
        _ = try await store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: june, amount: cents(4875), receivedOn: day("2026-07-05"))
        )
        #expect(
            try await store.reconciliation(clinic: book.glow.id, today: day("2026-07-20")).periods.first?.status
                == .settled
        )

        // June closed: its accelerator and deductions stay as they were.
        try await store.closePeriod(clinic: book.glow.id, period: june)
        var retiered = tiered
        retiered.tiers = [Tier(threshold: cents(5000), share: share("60%"))]
        let tiersError = await #expect(throws: StoreError.self) { try await store.updateTerms(retiered) }
        #expect(tiersError?.description.contains("closed period 2026-06-01…2026-06-30") == true)
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: june)) {
            try await store.createDeduction(
                Deduction(
                    id: Deduction.ID(0),
                    clinicID: book.glow.id,
                    name: "Late",
                    amount: .fixed(cents(1)),
                    effectiveFrom: day("2026-05-01")
                )
            )
        }
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: june)) {
            try await store.deleteDeduction(rent.id)
        }
        var bigger = rent
        bigger.amount = .fixed(cents(2000))
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: june)) {
            try await store.updateDeduction(bigger)
        }
        // Ending the fee after June, or a deduction from July, is fine.
        var ended = fee
        ended.lastDay = day("2026-07-31")
        #expect(try await store.updateDeduction(ended).lastDay == day("2026-07-31"))
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: book.glow.id,
                name: "Supplies",
                amount: .fixed(cents(300)),
                effectiveFrom: day("2026-07-01")
            )
        )
        #expect(try await store.statement(clinic: book.glow.id, period: june).netPayable == cents(4875))
        #expect(
            try await store.auditLog(AuditQuery(subject: .deduction)).map(\.action) == [
                "create", "update", "create", "create",
            ]
        )
    }
}

/// Random writes of every kind — sales (priced by the list or typed), price-list entries set and
/// removed, schedule changes, tiered terms (backdated), deductions, voids, edits, imports (one of
/// all four kinds with sales), a closed period — and then, on every store, the figures the summaries give (reconciliation, the
/// dashboard, clinic months) equal a recount from the sales, period by period through statements
/// (whose net payable is computed from the lines).
@Suite struct RealTermsRecountConformanceTests {
    @Test("Summaries equal a recount after random writes of all four kinds", arguments: StoreKind.allCases)
    func summariesEqualRecount(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        var random = SeededRandom(seed: 15)
        let clinics = [book.glow, book.harbor], products = [book.serum, book.cream]
        func randomDay() -> Day { day("2026-01-01").adding(days: Int.random(in: 0...150, using: &random)) }
        var sales: [Sale] = []
        for step in 0..<160 {
            switch step {
            case 20, 70, 120:  // a schedule change
                var clinic = try await store.clinic(clinics[step % 2].id)
                clinic.scheduleChanges.append(
                    ScheduleChange(
                        effectiveFrom: randomDay(),
                        schedule: [.weekly(startingOn: .tuesday), .monthly, .semimonthly]
                            .randomElement(using: &random)!
                    )
                )
                _ = try? await store.updateClinic(clinic)  // refused when it would alter a paid or closed period
                continue
            case 30, 90:  // backdated terms with tiers
                _ = try await store.createTerms(
                    TermsDraft(
                        clinicID: clinics[step % 4 == 2 ? 0 : 1].id,
                        share: share("35%"),
                        tiers: [
                            Tier(threshold: cents(Int64.random(in: 5000...30_000, using: &random)), share: share("50%"))
                        ],
                        effectiveFrom: randomDay()
                    )
                )
                continue
            case 10, 40, 100:  // a deduction
                let amount: DeductionAmount =
                    step == 40
                    ? .shareOfRevenue(share("2.5%")) : .fixed(cents(Int64.random(in: 100...2000, using: &random)))
                _ = try? await store.createDeduction(
                    Deduction(
                        id: Deduction.ID(0),
                        clinicID: clinics[(step / 10) % 2].id,
                        name: "Fee \(step)",
                        amount: amount,
                        effectiveFrom: randomDay()
                    )
                )
                continue
            case 140:  // an import of all four and sales, in one transaction, after January
                func later() -> Day { day("2026-02-16").adding(days: Int.random(in: 0...60, using: &random)) }
                _ = try await store.importRows(
                    from: RowsSource(rows: [
                        ImportRow(
                            line: 2,
                            record: .price(
                                NamedPriceDraft(
                                    clinic: "Harbor",
                                    product: "Cream",
                                    unitPrice: cents(3300),
                                    effectiveFrom: later()
                                )
                            )
                        ),
                        ImportRow(
                            line: 3,
                            record: .deduction(
                                NamedDeductionDraft(
                                    clinic: "Glow",
                                    name: "Imported fee",
                                    amount: .fixed(cents(300)),
                                    effectiveFrom: later()
                                )
                            )
                        ),
                        ImportRow(
                            line: 4,
                            record: .terms(
                                NamedTermsDraft(
                                    clinic: "Harbor",
                                    product: nil,
                                    basis: .profit,
                                    share: share("45%"),
                                    effectiveFrom: later(),
                                    tiers: [Tier(threshold: cents(10_000), share: share("55%"))]
                                )
                            )
                        ),
                        ImportRow(
                            line: 5,
                            record: .scheduleChange(
                                NamedScheduleChange(
                                    clinic: "Harbor",
                                    schedule: .weekly(startingOn: .monday),
                                    effectiveFrom: later()
                                )
                            )
                        ),
                        ImportRow(
                            line: 6,
                            record: .sale(
                                NamedSaleDraft(clinic: "Harbor", product: "Cream", date: later(), quantity: 2)
                            )
                        ),
                        ImportRow(
                            line: 7,
                            record: .sale(
                                NamedSaleDraft(clinic: "Glow", product: "Serum 30ml", date: later(), quantity: 1)
                            )
                        ),
                    ]),
                    options: ImportOptions()
                )
                continue
            case 50:  // January at Glow paid and closed: later writes into it are refused
                let january = PayPeriod(start: day("2026-01-01"), end: day("2026-01-31"))
                if (try? await store.createPayout(
                    PayoutDraft(
                        clinicID: book.glow.id,
                        period: january,
                        amount: cents(500),
                        receivedOn: day("2026-02-05")
                    )
                )) != nil {
                    try? await store.closePeriod(clinic: book.glow.id, period: january)
                }
                continue
            default:
                break
            }
            switch Int.random(in: 0..<20, using: &random) {
            case 0:  // a clinic's price, from a random day
                let clinic = clinics.randomElement(using: &random)!, product = products.randomElement(using: &random)!
                _ = try await store.setPrice(
                    PriceDraft(
                        clinicID: clinic.id,
                        productID: product.id,
                        unitPrice: cents(Int64.random(in: 2000...6000, using: &random)),
                        unitCost: Bool.random(using: &random)
                            ? cents(Int64.random(in: 500...1500, using: &random)) : nil,
                        effectiveFrom: randomDay()
                    )
                )
            case 1:  // an entry removed
                if let entry = try await store.prices(PriceQuery()).randomElement(using: &random) {
                    try await store.removePrice(entry.id)
                }
            case 5:  // a void
                if let sale = sales.randomElement(using: &random) { _ = try? await store.voidSale(sale.id) }
            case 6:  // an edit
                if let sale = sales.randomElement(using: &random), !(try await store.sale(sale.id).isVoided) {
                    _ = try? await store.updateSale(
                        sale.id,
                        with: SaleDraft(
                            clinicID: sale.clinicID,
                            productID: sale.productID,
                            date: randomDay(),
                            quantity: 2
                        )
                    )
                }
            default:
                let quantity = Int64.random(in: -1...3, using: &random)
                guard quantity != 0 else { continue }
                if let sale = try? await store.createSale(
                    SaleDraft(
                        clinicID: clinics.randomElement(using: &random)!.id,
                        productID: products.randomElement(using: &random)!.id,
                        date: randomDay(),
                        quantity: quantity,
                        unitPrice: Int.random(in: 0..<4, using: &random) == 0 ? cents(4200) : nil
                    ),
                    idempotencyKey: nil
                ) {
                    sales.append(sale)
                }
            }
        }
        _ = try await store.importRows(
            from: RowsSource(
                rows: (0..<10).map { index in
                    ImportRow(
                        line: index + 2,
                        record: .sale(
                            NamedSaleDraft(
                                clinic: "Harbor",
                                product: "Cream",
                                date: day("2026-03-01").adding(days: index),
                                quantity: 1
                            )
                        )
                    )
                }
            ),
            options: ImportOptions()
        )

        // The book has all four kinds (else the test would prove nothing about them).
        let priceCount = try await store.prices(PriceQuery()).count,
            deductionCount = try await store.deductions(clinic: nil).count
        #expect(priceCount > 0 && deductionCount > 0)
        #expect(try await store.terms(TermsQuery()).contains { !$0.tiers.isEmpty })
        #expect(try await store.clinics(ClinicQuery()).contains { !$0.scheduleChanges.isEmpty })

        let today = day("2026-06-15")
        let dashboard = try await store.dashboard(today: today)
        let all = try await store.sales(SaleQuery())
        var monthly: [Clinic.ID: Int64] = [:], adjusted = 0
        for sale in all { monthly[sale.clinicID, default: 0] += sale.figures.commission.minorUnits }
        for clinic in try await store.clinics(ClinicQuery()) {
            // Every period with a sale: the statement's net payable (from its lines) is what the
            // reconciliation expects (from the summaries).
            let reconciliation = try await store.reconciliation(clinic: clinic.id, today: today)
            var periods = Set<PayPeriod>()
            for sale in all where sale.clinicID == clinic.id {
                periods.insert(clinic.calendar.period(containing: sale.date))
            }
            #expect(Set(reconciliation.periods.map(\.period)).isSuperset(of: periods))
            var owed = Money.zero
            for entry in reconciliation.periods {
                let statement = try await store.statement(clinic: clinic.id, period: entry.period)
                #expect(statement.netPayable == entry.expected, "\(kind) \(clinic.name) \(entry.period)")
                adjusted += statement.accelerators.count + statement.deductions.count
                #expect(
                    statement.lines.count
                        == all.filter { $0.clinicID == clinic.id && entry.period.contains($0.date) }.count
                )
                owed = try owed.adding(try entry.expected.subtracting(entry.received))
            }
            let standing = try #require(dashboard.clinics.first { $0.clinic.id == clinic.id })
            #expect(standing.arrears.owed == owed && standing.arrears.owed == reconciliation.balance)
            let current = try await store.statement(clinic: clinic.id, period: standing.period)
            #expect(standing.periodPayable == current.netPayable)
            let months = try await store.clinicMonths(from: day("2026-01-01"), through: day("2026-12-31")).filter {
                $0.clinicID == clinic.id
            }
            #expect(months.reduce(Int64(0)) { $0 + $1.totals.commission.minorUnits } == monthly[clinic.id] ?? 0)
        }
        #expect(adjusted > 0, "no statement had an accelerator or a deduction")
    }
}

/// A book takes dates from 1900-01-01 to a year from today: a typo (2062 for 2026) or a date at the
/// calendar's edge is refused with a sentence and changes nothing, wherever it comes in.
@Suite struct DateBoundsConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func datesABookDoesNotTakeAreRefusedEverywhere(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        let today = try await store.settings().today()
        let tooLate = today.adding(years: 1).adding(days: 1)
        let before = try await store.sales(SaleQuery(includeVoided: true))

        for date in ["9999-12-31", tooLate.description, "0001-01-01", "1899-12-31"] {
            await #expect(throws: DateOutOfRange.self, "a sale on \(date)") {
                try await book.sell(book.serum, at: book.glow, on: date)
            }
        }
        // The last day taken is a year from today; the first is 1900-01-01 (with terms from then).
        try await book.sell(book.serum, at: book.glow, on: today.adding(years: 1).description)
        _ = try await store.createTerms(
            TermsDraft(clinicID: book.harbor.id, share: share("50"), effectiveFrom: AcceptedDays.earliest)
        )
        try await book.sell(book.serum, at: book.harbor, on: "1900-01-01")

        let sale = try await book.sell(book.cream, at: book.glow, on: "2026-03-02")
        var draft = SaleDraft(clinicID: book.glow.id, productID: book.cream.id, date: day("2062-03-02"), quantity: 1)
        await #expect(
            throws: DateOutOfRange(field: "date", day: day("2062-03-02"), accepted: AcceptedDays(today: today))
        ) {
            _ = try await store.updateSale(sale.id, with: draft)
        }
        draft.date = day("2026-03-03")
        #expect(try await store.updateSale(sale.id, with: draft).date == day("2026-03-03"))

        await #expect(throws: DateOutOfRange.self) {
            _ = try await store.createTerms(
                TermsDraft(clinicID: book.glow.id, share: share("45"), effectiveFrom: day("1800-01-01"))
            )
        }
        await #expect(throws: DateOutOfRange.self) {
            _ = try await store.createPayout(
                PayoutDraft(
                    clinicID: book.glow.id,
                    period: PaySchedule.monthly.period(containing: day("2026-03-02")),
                    amount: cents(100),
                    receivedOn: tooLate
                )
            )
        }
        await #expect(throws: DateOutOfRange.self) {
            _ = try await store.createClinic(ClinicDraft(name: "Edge", schedule: .biweekly(anchor: day("0001-01-01"))))
        }
        // The finding that stopped a book: a period at the calendar's edge can no longer be closed.
        let edge = try await store.createClinic(
            ClinicDraft(name: "Every other Friday", schedule: .biweekly(anchor: day("2026-01-02")))
        )
        let edgePeriod = edge.schedule.period(containing: day("0001-01-01"))
        #expect(edgePeriod.start.description == "0000-12-29")
        await #expect(throws: DateOutOfRange.self) { try await store.closePeriod(clinic: edge.id, period: edgePeriod) }
        // A week that starts in 1899 but holds 1900-01-01 is a period the book takes.
        let lumen = try await store.createClinic(ClinicDraft(name: "Lumen", schedule: .weekly(startingOn: .friday)))
        let firstWeek = lumen.schedule.period(containing: AcceptedDays.earliest)
        #expect(firstWeek.start.description == "1899-12-29")
        try await store.closePeriod(clinic: lumen.id, period: firstWeek)

        // An import names the row and the column.
        let rows = [
            ImportRow(
                line: 2,
                record: .sale(
                    NamedSaleDraft(clinic: "Glow", product: "Serum 30ml", date: day("2062-11-23"), quantity: 1)
                )
            ),
            ImportRow(
                line: 3,
                record: .terms(
                    NamedTermsDraft(
                        clinic: "Glow",
                        product: nil,
                        basis: .profit,
                        share: share("41"),
                        effectiveFrom: day("1850-01-01")
                    )
                )
            ),
            ImportRow(
                line: 4,
                record: .clinic(ClinicDraft(name: "Anchored", schedule: .biweekly(anchor: day("9000-01-01"))))
            ),
        ]
        do {
            _ = try await store.importRows(from: RowsSource(rows: rows), options: ImportOptions())
            Issue.record("the import should have been refused")
        } catch StoreError.importRejected(let problems, _) {
            #expect(problems.map(\.line) == [2, 3, 4])
            #expect(problems.map(\.column) == ["date", "effective from", "anchor"])
            #expect(problems[0].reason.contains("2062-11-23 is more than a year from today"), "\(problems[0].reason)")
            #expect(problems[1].reason.contains("1850-01-01 is before 1900-01-01"), "\(problems[1].reason)")
        }
        let after = try await store.sales(SaleQuery(includeVoided: true))
        #expect(after.count == before.count + 3)
        #expect(
            try await store.clinics(ClinicQuery(includeArchived: true)).map(\.name).sorted() == [
                "Every other Friday", "Glow", "Harbor", "Lumen",
            ]
        )
    }

    @Test func theRefusalSaysWhatIsWrongAndWhatIsTaken() throws {
        let days = AcceptedDays(today: day("2026-11-23"))
        #expect(days.latest == day("2027-11-23"))
        #expect(AcceptedDays(today: day("2028-02-29")).latest == day("2029-02-28"))
        #expect(throws: DateOutOfRange.self) { try days.check(day("2062-03-02"), field: "date") }
        #expect(
            DateOutOfRange(field: "date", day: day("2062-03-02"), accepted: days).description
                == "Date: 2062-03-02 is more than a year from today; a book takes dates from 1900-01-01 to 2027-11-23."
        )
        #expect(
            DateOutOfRange(field: "effective from", day: day("0001-01-01"), accepted: days).description
                == "Effective from: 0001-01-01 is before 1900-01-01; a book takes dates from 1900-01-01 to 2027-11-23."
        )
    }
}

@Suite struct TextInputConformanceTests {
    /// Found by fuzzing the API: a NUL in a name passed the checks, then SQLite's CHECK (whose
    /// length() stops at a NUL) refused the row with a raw constraint error. Control codes are now
    /// refused with a reason in every store; tabs and line breaks stay fine in notes.
    @Test(arguments: StoreKind.allCases)
    func controlCodesAreRefusedWithAReason(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        // And the invisible marks that reverse text's direction (a name that reads as another).
        for name in [
            "\u{0}Glow", "Gl\u{0}ow", "Harbor\u{7}", "tab\there", "Glow\u{202E}wolG", "\u{2066}Harbor\u{2069}",
            "A\u{202A}B",
        ] {
            await #expect(throws: StoreError.self) {
                _ = try await book.store.createClinic(ClinicDraft(name: name, schedule: .monthly))
            }
            await #expect(throws: StoreError.self) {
                _ = try await book.store.createProduct(
                    ProductDraft(name: name, unitPrice: cents(100), unitCost: cents(0))
                )
            }
        }
        await #expect(throws: StoreError.self) {
            _ = try await book.store.createProduct(
                ProductDraft(name: "Fine", sku: "S\u{0}", unitPrice: cents(100), unitCost: cents(0))
            )
        }
        await #expect(throws: StoreError.self) {
            _ = try await book.store.createSale(
                SaleDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    date: day("2026-03-02"),
                    quantity: 1,
                    note: "a\u{0}b"
                ),
                idempotencyKey: nil
            )
        }
        #expect(try await book.store.clinics(ClinicQuery()).count == 2)
        #expect(try await book.store.products(ProductQuery()).count == 2)
        #expect(try await book.store.countSales(SaleQuery(includeVoided: true)) == 0)

        let sale = try await book.store.createSale(
            SaleDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                date: day("2026-03-02"),
                quantity: 1,
                note: "first line\n\tsecond line"
            ),
            idempotencyKey: nil
        )
        #expect(sale.note == "first line\n\tsecond line")
        // 200 characters is the most a name may have, counted as the API's document counts them.
        _ = try await book.store.createClinic(ClinicDraft(name: String(repeating: "é", count: 200), schedule: .monthly))
        await #expect(throws: StoreError.self) {
            _ = try await book.store.createClinic(
                ClinicDraft(name: String(repeating: "e\u{301}", count: 101), schedule: .monthly)
            )
        }
    }
}

@Suite struct AuditConformanceTests {
    /// The JSON an entry holds, as a dictionary.
    func object(_ json: String?) -> [String: Any] {
        guard let json, let value = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return [:]
        }
        return value
    }

    @Test(arguments: StoreKind.allCases)
    func everyChangeIsOnRecordWithWhoWhenBeforeAndAfter(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let started = Date().addingTimeInterval(-1)
        let sale = try await Audit.$actor.withValue("ana") {
            try await book.sell(book.serum, at: book.glow, on: "2026-03-02", quantity: 2)
        }
        let edited = try await Audit.$actor.withValue("bea (API)") {
            try await book.store.updateSale(
                sale.id,
                with: SaleDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    date: day("2026-03-02"),
                    quantity: 3,
                    note: "three"
                )
            )
        }
        // New terms from March: the sale is recomputed, and that is on record too.
        let terms = try await Audit.$actor.withValue("ana") {
            try await book.store.createTerms(
                TermsDraft(clinicID: book.glow.id, share: share("50%"), effectiveFrom: day("2026-03-01"))
            )
        }
        #expect(terms.recomputedSales == 1)
        _ = try await Audit.$actor.withValue("ana") { try await book.store.voidSale(sale.id) }

        let history = try await book.store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue))
        #expect(history.map(\.action) == ["void", "recompute", "update", "create"])
        #expect(history.map(\.actor) == ["ana", "ana", "bea (API)", "ana"].map(kind.actor))
        #expect(
            history.allSatisfy {
                $0.at >= started && $0.at <= Date().addingTimeInterval(1) && $0.subjectID == sale.id.rawValue
            }
        )
        let created = try #require(history.last)
        #expect(created.before == nil)
        #expect(object(created.after)["quantity"] as? Int == 2)
        let update = history[2]
        #expect(object(update.before)["quantity"] as? Int == 2 && object(update.after)["quantity"] as? Int == 3)
        #expect(object(update.after)["note"] as? String == "three")
        // 3 × (50.00 − 20.00) = 90.00 of profit: 40% is 36.00 before the new terms, 50% is 45.00 after.
        let recompute = history[1]
        #expect(
            object(recompute.before)["commissionMinor"] as? Int == 3600
                && object(recompute.after)["commissionMinor"] as? Int == 4500
        )
        #expect(
            object(history[0].before)["voided"] as? Bool == false && object(history[0].after)["voided"] as? Bool == true
        )
        #expect(edited.quantity == 3)
        let termsLog = try await book.store.auditLog(AuditQuery(subject: .terms, subjectID: terms.terms.id.rawValue))
        #expect(termsLog.map(\.action) == ["create"] && (object(termsLog[0].after)["shareBasisPoints"] as? Int) == 5000)
    }

    @Test(
        "Periods, payouts, imports and settings are on record, and refused changes are not",
        arguments: StoreKind.allCases
    )
    func auditTrail(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let sale = try await book.sell(book.serum, at: book.glow, on: "2026-03-02")
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        let payout = try await book.store.createPayout(
            PayoutDraft(clinicID: book.glow.id, period: march, amount: cents(1200), receivedOn: day("2026-04-02"))
        )
        try await book.store.deletePayout(payout.id)
        try await Audit.$actor.withValue("ana") {
            try await book.store.closePeriod(clinic: book.glow.id, period: march)
        }
        // Closing locks the period's sales: a refused change is not on record.
        let before = try await book.store.auditLog(AuditQuery()).count
        await #expect(throws: StoreError.self) { _ = try await book.store.voidSale(sale.id) }
        #expect(try await book.store.auditLog(AuditQuery()).count == before)
        try await Audit.$actor.withValue("bea") {
            try await book.store.reopenPeriod(clinic: book.glow.id, period: march)
        }
        _ = try await book.store.voidSale(sale.id)

        let periods = try await book.store.auditLog(AuditQuery(subject: .period, subjectID: book.glow.id.rawValue))
        #expect(
            periods.map { "\($0.action) by \($0.actor)" } == [
                "reopen by \(kind.actor("bea"))", "close by \(kind.actor("ana"))",
            ]
        )
        #expect(object(periods[1].after)["periodStart"] as? String == "2026-03-01")
        let payouts = try await book.store.auditLog(AuditQuery(subject: .payout, subjectID: payout.id.rawValue))
        #expect(
            payouts.map(\.action) == ["delete", "create"] && payouts[0].after == nil
                && (object(payouts[0].before)["amountMinor"] as? Int) == 1200
        )

        // An import is one entry, which the history of each sale it made shows.
        let rows = (0..<3).map { index in
            ImportRow(
                line: index + 2,
                record: .sale(
                    NamedSaleDraft(
                        clinic: "Glow",
                        product: "Serum 30ml",
                        date: day("2026-05-0\(index + 1)"),
                        quantity: 1
                    )
                )
            )
        }
        let summary = try await Audit.$actor.withValue("cli:ana") {
            try await book.store.importRows(from: RowsSource(rows: rows), options: ImportOptions())
        }
        #expect(summary.sales == 3)
        let imported = try await book.store.sales(SaleQuery(from: day("2026-05-01"), order: .oldestFirst))
        #expect(imported.count == 3)
        for sale in imported {
            let history = try await book.store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue))
            #expect(history.map { "\($0.action) by \($0.actor)" } == ["import by \(kind.actor("cli:ana"))"])
            #expect(object(history[0].after)["sales"] as? Int == 3)
        }
        // A dry run and a rejected import leave no entry.
        let count = try await book.store.auditLog(AuditQuery()).count
        _ = try await book.store.importRows(from: RowsSource(rows: rows), options: ImportOptions(dryRun: true))
        #expect(try await book.store.auditLog(AuditQuery()).count == count)

        var settings = try await book.store.settings()
        settings.rounding.rule = .halfToEven
        try await book.store.updateSettings(settings)
        let settingsLog = try await book.store.auditLog(AuditQuery(subject: .settings))
        #expect(settingsLog.count == 1 && (object(settingsLog[0].after)["rounding"] as? String) == "half-to-even")
        #expect(try await book.store.auditLog(AuditQuery(page: Page(limit: 2))).count == 2)
    }
}

/// Her real terms in an import (price lists, schedule changes, deductions, terms with tiers), on
/// every store: one transaction with the sales, each record as the matching command makes it.
@Suite struct RealTermsImportConformanceTests {
    @Test("An import carries all four, and the sales after them follow them", arguments: StoreKind.allCases)
    func importCarriesAllFour(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        let rows: [ImportRow] = [
            // Glow sells the serum at 45.00 from 15 March (the product's cost stays).
            ImportRow(
                line: 2,
                record: .price(
                    NamedPriceDraft(
                        clinic: "glow",
                        product: "SER-30",
                        unitPrice: cents(4500),
                        effectiveFrom: day("2026-03-15")
                    )
                )
            ),
            // Harbor pays weekly from Monday 6 April.
            ImportRow(
                line: 3,
                record: .scheduleChange(
                    NamedScheduleChange(
                        clinic: "Harbor",
                        schedule: .weekly(startingOn: .monday),
                        effectiveFrom: day("2026-04-06")
                    )
                )
            ),
            // Glow takes 10.00 a month for the room from March, until June.
            ImportRow(
                line: 4,
                record: .deduction(
                    NamedDeductionDraft(
                        clinic: "Glow",
                        name: "Room",
                        amount: .fixed(cents(1000)),
                        effectiveFrom: day("2026-03-01"),
                        lastDay: day("2026-06-30")
                    )
                )
            ),
            // From March, 40% of profit and 50% of the part beyond 50.00.
            ImportRow(
                line: 5,
                record: .terms(
                    NamedTermsDraft(
                        clinic: "Glow",
                        product: nil,
                        basis: .profit,
                        share: share("40%"),
                        effectiveFrom: day("2026-03-01"),
                        tiers: [Tier(threshold: cents(5000), share: share("50%"))]
                    )
                )
            ),
            // Two serums on 20 March at the clinic's price: profit 2 × (45.00 − 20.00) = 50.00, 40% = 20.00.
            ImportRow(
                line: 6,
                record: .sale(
                    NamedSaleDraft(clinic: "Glow", product: "Serum 30ml", date: day("2026-03-20"), quantity: 2)
                )
            ),
            // And one on 21 March: profit 25.00 → 10.00 on the line; the period's 75.00 is 25.00 beyond 50.00: +2.50.
            ImportRow(
                line: 7,
                record: .sale(
                    NamedSaleDraft(clinic: "Glow", product: "Serum 30ml", date: day("2026-03-21"), quantity: 1)
                )
            ),
        ]
        let summary = try await store.importRows(from: RowsSource(rows: rows), options: ImportOptions())
        #expect(summary.tallies == ImportSummary(terms: 1, sales: 2, prices: 1, scheduleChanges: 1, deductions: 1))
        #expect(try await store.prices(PriceQuery(clinicID: book.glow.id)).map(\.unitPrice) == [cents(4500)])
        #expect(
            try await store.clinic(book.harbor.id).scheduleChanges == [
                ScheduleChange(effectiveFrom: day("2026-04-06"), schedule: .weekly(startingOn: .monday))
            ]
        )
        #expect(try await store.deductions(clinic: book.glow.id).map(\.lastDay) == [day("2026-06-30")])
        let sales = try await store.sales(SaleQuery(clinicID: book.glow.id, order: .oldestFirst))
        #expect(sales.map(\.line.unitPrice) == [cents(4500), cents(4500)])
        let march = try await store.statement(
            clinic: book.glow.id,
            period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        )
        #expect(march.totals.commission == cents(3000))
        #expect(march.accelerators.map(\.amount) == [cents(250)])
        #expect(march.deductions.map(\.amount) == [cents(1000)])
        #expect(march.netPayable == cents(2250))
        // Each change is on the audit log as its command would record it.
        let subjects = Set(try await store.auditLog(AuditQuery()).map(\.subject))
        #expect(subjects.isSuperset(of: [.price, .clinic, .deduction]))
        // The dashboard's current period and arrears follow the imported terms (kept per period).
        let dashboard = try await store.dashboard(today: day("2026-03-25"))
        let glow = try #require(dashboard.clinics.first { $0.clinic.id == book.glow.id })
        #expect(glow.periodPayable == cents(2250) && glow.arrears.owed == cents(2250))

        // A bad row anywhere means none of it: here a deduction at a clinic the book does not have.
        let before = try await store.deductions(clinic: nil).count
        await #expect(throws: StoreError.self) {
            try await store.importRows(
                from: RowsSource(rows: [
                    ImportRow(
                        line: 2,
                        record: .price(
                            NamedPriceDraft(
                                clinic: "Harbor",
                                product: "Cream",
                                unitPrice: cents(2900),
                                effectiveFrom: day("2026-05-01")
                            )
                        )
                    ),
                    ImportRow(
                        line: 3,
                        record: .deduction(
                            NamedDeductionDraft(
                                clinic: "Nowhere",
                                name: "Fee",
                                amount: .shareOfRevenue(share("1%")),
                                effectiveFrom: day("2026-05-01")
                            )
                        )
                    ),
                ]),
                options: ImportOptions()
            )
        }
        #expect(try await store.deductions(clinic: nil).count == before)
        #expect(try await store.prices(PriceQuery(clinicID: book.harbor.id)).isEmpty)
    }
}

/// Several files imported together (``ImportSources``), on every store: one transaction, and each
/// problem names its file, listed file by file.
@Suite struct ImportSourcesConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func filesImportedTogetherLandTogetherOrNotAtAll(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = book.store
        let clinics = RowsSource(rows: [
            ImportRow(line: 2, record: .clinic(ClinicDraft(name: "Lumen", schedule: .monthly)))
        ])
        let terms = RowsSource(rows: [
            ImportRow(
                line: 2,
                record: .terms(
                    NamedTermsDraft(
                        clinic: "Lumen",
                        product: nil,
                        basis: .profit,
                        share: share("30%"),
                        effectiveFrom: day("2026-01-01")
                    )
                )
            )
        ])
        func sales(_ clinic: String) -> RowsSource {
            RowsSource(
                rows: [
                    ImportRow(
                        line: 2,
                        record: .sale(
                            NamedSaleDraft(clinic: "Lumen", product: "Cream", date: day("2026-03-02"), quantity: 1)
                        )
                    ),
                    ImportRow(
                        line: 3,
                        record: .sale(
                            NamedSaleDraft(clinic: clinic, product: "Cream", date: day("2026-03-03"), quantity: 1)
                        )
                    ),
                ],
                problems: [ImportProblem(line: 4, column: "date", reason: "not a date")].filter { _ in clinic != "Lumen"
                }
            )
        }
        let refused = await #expect(throws: StoreError.self) {
            try await store.importRows(
                from: ImportSources([("clinics.csv", clinics), ("terms.csv", terms), ("sales.csv", sales("Nowhere"))]),
                options: ImportOptions()
            )
        }
        // Both of the last file's problems, in its line order, each with its file.
        #expect(
            refused?.description.contains("sales.csv, line 3, column \"clinic\"") == true,
            "\(refused?.description ?? "")"
        )
        #expect(refused?.description.contains("sales.csv, line 4, column \"date\": not a date") == true)
        #expect(try await store.clinics(ClinicQuery()).map(\.name).contains("Lumen") == false)

        let summary = try await store.importRows(
            from: ImportSources([("clinics.csv", clinics), ("terms.csv", terms), ("sales.csv", sales("Lumen"))]),
            options: ImportOptions()
        )
        #expect(summary.tallies == ImportSummary(clinics: 1, terms: 1, sales: 2))
        let lumen = try await store.clinic(named: "Lumen")
        // Two creams: profit 2 × 18.00, 30% = 10.80.
        #expect(
            try await store.statement(
                clinic: lumen.id,
                period: PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
            ).totals.commission
                == cents(1080)
        )

        // A file whose digest an earlier import recorded is refused (even on a dry run), unless again.
        let creams = RowsSource(rows: [
            ImportRow(
                line: 2,
                record: .sale(NamedSaleDraft(clinic: "Lumen", product: "Cream", date: day("2026-03-04"), quantity: 1))
            )
        ])
        let digest = ImportDigest(name: "creams.csv", sha256: String(repeating: "ab", count: 32))
        _ = try await store.importRows(from: creams, options: ImportOptions(digests: [digest]))
        for dryRun in [false, true] {
            let repeated = await #expect(throws: StoreError.self) {
                try await store.importRows(
                    from: creams,
                    options: ImportOptions(
                        dryRun: dryRun,
                        digests: [ImportDigest(name: "again.csv", sha256: digest.sha256)]
                    )
                )
            }
            #expect(
                repeated?.description.hasPrefix("again.csv was imported before, on ") == true,
                "\(repeated?.description ?? "")"
            )
        }
        #expect(try await store.sales(SaleQuery(clinicID: lumen.id)).count == 3)
        _ = try await store.importRows(from: creams, options: ImportOptions(digests: [digest], again: true))
        #expect(try await store.sales(SaleQuery(clinicID: lumen.id)).count == 4)
    }
}

/// Her column mappings, kept in the book by name.
@Suite struct MappingConformanceTests {
    @Test(arguments: StoreKind.local)
    func mappingsAreKeptByNameReplacedAndForgotten(_ kind: StoreKind) async throws {
        let store = try #require(try await kind.makeStore() as? any ImportMappings)
        #expect(try await store.mappings().isEmpty)
        let clinicA = ImportMapping(
            name: " Clinic A ",
            kind: "terms",
            headers: ["Place", "Pct", "Beginning"],
            fields: ["Place": "clinic", "Beginning": "effective from"]
        )
        try await store.saveMapping(clinicA)
        try await store.saveMapping(
            ImportMapping(name: "Bank", headers: ["Booked", "Sum"], fields: ["Booked": "date", "Sum": "amount"])
        )
        #expect(try await store.mappings().map(\.name) == ["Bank", "Clinic A"])  // by name, trimmed
        #expect(try await store.mapping(named: "clinic a").fields == clinicA.fields)
        #expect(try await store.mapping(named: "clinic a").kind == "terms")

        // The next file with the same headers, in another order and spelling, is offered it; another is not.
        #expect(try await store.mapping(fitting: ["beginning", "PLACE", "pct", ""])?.name == "Clinic A")
        #expect(try await store.mapping(fitting: ["Place", "Pct"]) == nil)

        // The same name in another case replaces it.
        try await store.saveMapping(ImportMapping(name: "CLINIC A", headers: ["Place"], fields: ["Place": "clinic"]))
        #expect(try await store.mappings().map(\.name) == ["Bank", "CLINIC A"])
        #expect(try await store.mapping(named: "Clinic A").fields == ["Place": "clinic"])

        try await store.deleteMapping(named: "clinic a")
        #expect(try await store.mappings().map(\.name) == ["Bank"])
        await #expect(throws: StoreError.unknownMapping("clinic a")) {
            try await store.deleteMapping(named: "clinic a")
        }
        await #expect(throws: StoreError.unknownMapping("Nope")) { _ = try await store.mapping(named: "Nope") }
        // A mapping without a name, or that maps nothing, is refused and nothing is kept.
        await #expect(throws: StoreError.self) {
            try await store.saveMapping(ImportMapping(name: "  ", headers: ["A"], fields: ["A": "date"]))
        }
        await #expect(throws: StoreError.self) {
            try await store.saveMapping(ImportMapping(name: "Empty", headers: ["A"], fields: [:]))
        }
        #expect(try await store.mappings().map(\.name) == ["Bank"])
    }

    @Test(arguments: StoreKind.local)
    func theClinicsNamesForHerProductsAreRemembered(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let store = try #require(book.store as? any ProductAliases)
        try await store.setAlias(
            ProductAlias(clinicID: book.glow.id, name: " SERUM 30 ML (RETAIL) ", productID: book.serum.id)
        )
        try await store.setAlias(ProductAlias(clinicID: book.glow.id, name: "Crème", productID: book.cream.id))
        try await store.setAlias(ProductAlias(clinicID: book.harbor.id, name: "Serum", productID: book.cream.id))
        #expect(try await store.aliases(clinic: book.glow.id).map(\.name) == ["Crème", "SERUM 30 ML (RETAIL)"])
        // The same name in another case is the same alias: the newer product wins.
        try await store.setAlias(
            ProductAlias(clinicID: book.glow.id, name: "serum 30 ml (retail)", productID: book.cream.id)
        )
        #expect(try await store.aliases(clinic: book.glow.id).map(\.productID) == [book.cream.id, book.cream.id])
        #expect(try await store.aliases(clinic: book.harbor.id).map(\.name) == ["Serum"])  // each clinic its own
        await #expect(throws: StoreError.notFound(.products, id: 999)) {
            try await store.setAlias(ProductAlias(clinicID: book.glow.id, name: "X", productID: Product.ID(999)))
        }
        await #expect(throws: StoreError.self) {
            try await store.setAlias(ProductAlias(clinicID: book.glow.id, name: "  ", productID: book.serum.id))
        }
        // ASCII letters in any case, as the book compares names
        try await store.removeAlias(clinic: book.glow.id, name: "CRèME")
        #expect(try await store.aliases(clinic: book.glow.id).count == 1)
        await #expect(throws: StoreError.self) { try await store.removeAlias(clinic: book.glow.id, name: "Nothing") }
    }
}

/// Writes made together: all of them or none, on every store.
@Suite struct TransactionConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func theWritesOfATransactionLandTogetherOrNotAtAll(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let march = book.glow.calendar.period(containing: day("2026-03-01"))
        let first = try await book.sell(book.serum, at: book.glow, on: "2026-03-02", key: "phone-1")

        // A sale, a payout, a price, a void and a new clinic: made together, in order.
        let made = try await book.store.transaction { tx in
            tx.createSale(
                SaleDraft(clinicID: book.glow.id, productID: book.cream.id, date: day("2026-03-03"), quantity: 2),
                idempotencyKey: "phone-2"
            )
            tx.createPayout(
                PayoutDraft(clinicID: book.glow.id, period: march, amount: cents(1200), receivedOn: day("2026-04-02"))
            )
            tx.setPrice(
                PriceDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    unitPrice: cents(5500),
                    effectiveFrom: day("2026-04-01")
                )
            )
            tx.voidSale(first.id)
            tx.createClinic(ClinicDraft(name: "  Dune  ", schedule: .monthly))
        }
        #expect(made.count == 5)
        guard case .sale(let sale) = made[0], case .payout(let payout) = made[1], case .sale(let voided) = made[3],
            case .clinic(let dune) = made[4]
        else {
            Issue.record("the results are not in the writes' order: \(made)")
            return
        }
        #expect(sale.quantity == 2 && payout.amount == cents(1200) && voided.isVoided && dune.name == "Dune")
        #expect(try await book.store.countSales(SaleQuery()) == 1)  // the void counted, the new sale too
        #expect(try await book.store.prices(PriceQuery()).count == 1)

        // A key used before: the same sale again, not a second one.
        let again = try await book.store.transaction { tx in
            tx.createSale(
                SaleDraft(clinicID: book.glow.id, productID: book.cream.id, date: day("2026-03-03"), quantity: 2),
                idempotencyKey: "phone-2"
            )
        }
        #expect(again == [.sale(sale)])

        // One refused write (a sale in a closed period, last): nothing of the others is left, and its own error is said.
        try await book.store.closePeriod(clinic: book.glow.id, period: march)
        let counts = (
            try await book.store.countSales(SaleQuery(includeVoided: true)),
            try await book.store.payouts(PayoutQuery()).count,
            try await book.store.clinics(ClinicQuery()).count
        )
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: march)) {
            _ = try await book.store.transaction { tx in
                tx.createSale(
                    SaleDraft(clinicID: book.harbor.id, productID: book.serum.id, date: day("2026-03-04")),
                    idempotencyKey: "phone-3"
                )
                tx.createPayout(
                    PayoutDraft(
                        clinicID: book.harbor.id,
                        period: book.harbor.calendar.period(containing: day("2026-03-01")),
                        amount: cents(100),
                        receivedOn: day("2026-03-20")
                    )
                )
                tx.createClinic(ClinicDraft(name: "Echo", schedule: .monthly))
                tx.createSale(
                    SaleDraft(clinicID: book.glow.id, productID: book.serum.id, date: day("2026-03-05")),
                    idempotencyKey: nil
                )
            }
        }
        #expect(
            (
                try await book.store.countSales(SaleQuery(includeVoided: true)),
                try await book.store.payouts(PayoutQuery()).count,
                try await book.store.clinics(ClinicQuery()).count
            ) == counts
        )
        #expect(try await book.store.sales(SaleQuery(includeVoided: true)).allSatisfy { $0.date != day("2026-03-04") })

        // The body decides: throwing rolls back before anything is written; bad input is refused before the transaction.
        struct Changed: Error {}
        await #expect(throws: Changed.self) {
            _ = try await book.store.transaction { tx in
                tx.createClinic(ClinicDraft(name: "Foxtrot", schedule: .monthly))
                throw Changed()
            }
        }
        await #expect(throws: StoreError.self) {
            _ = try await book.store.transaction { tx in
                tx.createClinic(ClinicDraft(name: "Golf", schedule: .monthly))
                tx.createClinic(ClinicDraft(name: "   ", schedule: .monthly))
            }
        }
        #expect(try await book.store.clinics(ClinicQuery()).map(\.name).sorted() == ["Dune", "Glow", "Harbor"])
        #expect(try await book.store.transaction { _ in }.isEmpty)
    }
}

extension ImportSummary {
    /// What it counts, without its last sale's day (which a remote store's import does not say).
    var tallies: ImportSummary {
        var tallies = self
        tallies.lastSaleDate = nil
        return tallies
    }
}

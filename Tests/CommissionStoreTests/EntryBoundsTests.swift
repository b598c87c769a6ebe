import CommissionCore
import CommissionStore
import Foundation
import Testing

/// What one bad input must never do to a book: an absurd amount is refused at entry, with the
/// bound said, so that every total the book keeps stays exact; a name that only looks like
/// another is refused or is the same name.
@Suite struct EntryBoundsTests {
    static let largestPrice = SaleLine.largestUnitAmount
    static let largestQuantity = SaleLine.largestQuantity

    @Test(
        "A sale at the largest price and quantity is taken, one beyond is refused, and the book goes on",
        arguments: StoreKind.allCases
    )
    func amountsAreBoundedAtEntry(_ kind: StoreKind) async throws {
        let book = try await Book(kind)
        let march = day("2026-03-02")
        // The largest line: 1,000 × 10,000,000.00, at no cost.
        let largest = try await book.store.createSale(
            SaleDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                date: march,
                quantity: Self.largestQuantity,
                unitPrice: Self.largestPrice,
                unitCost: .zero
            ),
            idempotencyKey: nil
        )
        #expect(
            largest.figures.revenue == cents(1_000_000_000_000) && largest.figures.commission == cents(400_000_000_000)
        )

        // One minor unit more, or one unit more, is refused, saying the bound in the book's currency.
        let overPrice = await #expect(throws: SaleLineError.self) {
            try await book.store.createSale(
                SaleDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    date: march,
                    quantity: 1,
                    unitPrice: cents(Self.largestPrice.minorUnits + 1)
                ),
                idempotencyKey: nil
            )
        }
        #expect(
            overPrice?.description.contains("10000000.01") == true
                && overPrice?.description.contains("at most 10000000.00") == true,
            "\(overPrice.map(String.init(describing:)) ?? "")"
        )
        let overQuantity = await #expect(throws: SaleLineError.self) {
            try await book.store.createSale(
                SaleDraft(clinicID: book.glow.id, productID: book.serum.id, date: march, quantity: -1001),
                idempotencyKey: nil
            )
        }
        #expect(overQuantity?.description.contains("at most 1000 units") == true)
        await #expect(throws: SaleLineError.self) {
            try await book.store.createSale(
                SaleDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    date: march,
                    quantity: 1,
                    unitCost: cents(Self.largestPrice.minorUnits + 1)
                ),
                idempotencyKey: nil
            )
        }
        // A product or a price list can no more carry such an amount; nor a payout or a deduction.
        await #expect(throws: SaleLineError.self) {
            try await book.store.createProduct(
                ProductDraft(name: "Gold", unitPrice: cents(Self.largestPrice.minorUnits + 1), unitCost: .zero)
            )
        }
        await #expect(throws: SaleLineError.self) {
            try await book.store.setPrice(
                PriceDraft(
                    clinicID: book.glow.id,
                    productID: book.serum.id,
                    unitPrice: cents(Self.largestPrice.minorUnits + 1),
                    effectiveFrom: day("2026-01-01")
                )
            )
        }
        await #expect(throws: SaleLineError.self) {
            try await book.store.createPayout(
                PayoutDraft(
                    clinicID: book.glow.id,
                    period: PaySchedule.monthly.period(containing: march),
                    amount: cents(Ledger.largestRecordedAmount.minorUnits + 1),
                    receivedOn: march
                )
            )
        }
        await #expect(throws: SaleLineError.self) {
            try await book.store.createDeduction(
                Deduction(
                    id: .init(0),
                    clinicID: book.glow.id,
                    name: "Rent",
                    amount: .fixed(cents(Ledger.largestRecordedAmount.minorUnits + 1)),
                    effectiveFrom: day("2026-01-01")
                )
            )
        }

        // The book goes on: another largest line, a sale at the other clinic, every total read.
        _ = try await book.store.createSale(
            SaleDraft(
                clinicID: book.glow.id,
                productID: book.serum.id,
                date: march,
                quantity: -Self.largestQuantity,
                unitPrice: Self.largestPrice,
                unitCost: Self.largestPrice
            ),
            idempotencyKey: nil
        )
        _ = try await book.sell(book.cream, at: book.harbor, on: "2026-03-03")
        let dashboard = try await book.store.dashboard(today: march)
        #expect(dashboard.yearTotals.saleCount == 3)
        _ = try await book.store.statement(clinic: book.glow.id, period: PaySchedule.monthly.period(containing: march))
        #expect(try await book.store.countSales(SaleQuery()) == 3)
    }

    /// The bound keeps every total exact: 922 lines at the largest price and quantity, each at a
    /// 100% share, before the commission's exact total (ten-thousandths of a minor unit) could
    /// overflow — the figure the doc comment of `SaleLine.largestUnitAmount` states.
    @Test func theBoundKeepsEveryTotalExact() throws {
        let line = try SaleLine(
            quantity: SaleLine.largestQuantity,
            unitPrice: SaleLine.largestUnitAmount,
            unitCost: .zero,
            rate: CommissionRate(share: try Share(parsing: "100"), basis: .revenue)
        ).figures(rounding: .halfAwayFromZero)
        #expect(Int64.max / line.exactCommission.tenThousandths == 922)
        #expect(Int64.max / Ledger.largestRecordedAmount.minorUnits >= 92_233_720)
    }

    @Test(
        "Invisible characters and mixed alphabets are refused in names; a name is kept composed, its spaces collapsed",
        arguments: StoreKind.allCases
    )
    func namesThatOnlyLookAlikeAreRefusedOrTheSame(_ kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        for (invisible, code) in [
            ("\u{200B}", "U+200B"), ("\u{200D}", "U+200D"), ("\u{200F}", "U+200F"), ("\u{061C}", "U+061C"),
            ("\u{FEFF}", "U+FEFF"), ("\u{2060}", "U+2060"), ("\u{E0041}", "U+E0041"), ("\u{00AD}", "U+00AD"),
        ] {
            let refusal = await #expect(throws: StoreError.self) {
                try await store.createClinic(ClinicDraft(name: "Glow\(invisible) Aesthetics", schedule: .monthly))
            }
            #expect(
                refusal?.description.contains(code) == true,
                "\(refusal.map(String.init(describing:)) ?? "") for \(code)"
            )
        }
        // "Glow" with a Cyrillic о, and a product with a Greek ο.
        let mixed = await #expect(throws: StoreError.self) {
            try await store.createClinic(ClinicDraft(name: "Gl\u{043E}w Aesthetics", schedule: .monthly))
        }
        #expect(mixed?.description.contains("mixes Latin and Cyrillic") == true)
        await #expect(throws: StoreError.self) {
            try await store.createProduct(
                ProductDraft(name: "Serum 3\u{03BF}ml", unitPrice: cents(100), unitCost: .zero)
            )
        }
        // One alphabet per word is fine, whichever it is.
        _ = try await store.createClinic(ClinicDraft(name: "Клиника Glow", schedule: .monthly))

        // Composed and decomposed, with two spaces or one: one name.
        let cafe = try await store.createClinic(ClinicDraft(name: "  Caf\u{00E9}   Glow ", schedule: .monthly))
        #expect(cafe.name == "Caf\u{00E9} Glow" && cafe.name.unicodeScalars.count == 9)
        await #expect(
            throws: StoreError.duplicateName(.clinics, "Cafe\u{0301} Glow".precomposedStringWithCanonicalMapping)
        ) {
            try await store.createClinic(ClinicDraft(name: "Cafe\u{0301}\u{00A0}Glow", schedule: .monthly))
        }
        #expect(try await store.clinic(named: "Cafe\u{0301}  Glow").id == cafe.id)
        let product = try await store.createProduct(
            ProductDraft(name: "Cre\u{0300}me", unitPrice: cents(100), unitCost: .zero)
        )
        #expect(try await store.product(named: "Cr\u{00E8}me").id == product.id)
    }

    @Test(
        "A user name is one account however it is typed: full width, upper case, composed or not",
        arguments: StoreKind.local
    )
    func aUserNameIsOneAccountHoweverItIsTyped(_ kind: StoreKind) async throws {
        let store = try #require(try await kind.makeStore() as? any CommissionStore & AccountStore & TeamStore)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        // Full-width letters, as a phone's keyboard in a CJK mode types them.
        let owner = try await store.createOwner(username: "\u{FF41}lpha-\(suffix)", passwordHash: "x")
        #expect(owner.username == "alpha-\(suffix)")
        #expect(try await store.credentials(username: "ALPHA-\(suffix.uppercased())")?.account.id == owner.id)
        #expect(
            try await store.credentials(username: "\u{FF21}\u{FF2C}\u{FF30}\u{FF28}\u{FF21}-\(suffix)")?.account.id
                == owner.id
        )
        // The same name cannot be a second account.
        try await store.createInvitation(
            tokenDigest: "i-\(suffix)",
            role: .member,
            invitedBy: owner.id,
            expiresAt: Date().addingTimeInterval(600)
        )
        await #expect(throws: StoreError.self) {
            try await store.acceptInvitation(
                tokenDigest: "i-\(suffix)",
                username: "Alpha-\(suffix)",
                passwordHash: "y",
                now: Date()
            )
        }
        await #expect(throws: StoreError.self) {
            try await store.acceptInvitation(
                tokenDigest: "i-\(suffix)",
                username: "al\u{200B}pha-\(suffix)",
                passwordHash: "y",
                now: Date()
            )
        }
    }
}

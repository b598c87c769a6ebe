import CommissionCore
import CommissionStore

/// Import rows held in memory.
public struct ArrayImportSource: ImportSource {
    public var rows: [ImportRow]
    public init(_ rows: [ImportRow]) { self.rows = rows }
    public func column(for field: String) -> String? { field }
    public func read(_ body: (ImportRow) throws -> Void) throws -> [ImportProblem] {
        for row in rows { try body(row) }
        return []
    }
}

/// A realistic sample book: four clinics on different schedules and splits, a dozen products, a
/// year of sales up to today with returns, discounts and samples, and payouts that mostly match.
///
/// The same seed and day always give the same book.
public struct DemoBook: Sendable {
    public var today: Day
    public var seed: UInt64

    public init(today: Day, seed: UInt64 = 20_261_122) {
        self.today = today
        self.seed = seed
    }

    static let clinics:
        [(name: String, schedule: @Sendable (Day) -> PaySchedule, share: String, basis: CommissionBasis)] = [
            ("Glow Aesthetics", { _ in .monthly }, "40%", .profit),
            ("Harbor Skin Clinic", { _ in .semimonthly }, "55%", .profit),
            (
                "Lumen Dermatology",
                { today in
                    .biweekly(anchor: today.firstOfYear.adding(days: (5 - today.firstOfYear.weekday.rawValue + 7) % 7))
                }, "12%", .revenue
            ),
            ("Northside Day Spa", { _ in .weekly(startingOn: .monday) }, "50%", .profit),
        ]

    static let products: [(name: String, sku: String, price: Int64, cost: Int64, weight: Int)] = [
        ("Hydrating Serum 30ml", "SER-30", 6800, 2400, 9),
        ("Vitamin C Serum 15ml", "VIT-15", 5400, 1900, 7),
        ("Daily SPF 50", "SPF-50", 3800, 1200, 10),
        ("Retinol Night Cream", "RET-50", 7200, 2600, 5),
        ("Gentle Cleanser 200ml", "CLN-200", 2600, 800, 8),
        ("Eye Contour Gel", "EYE-15", 4500, 1500, 4),
        ("Peptide Moisturiser", "PEP-50", 8900, 3300, 4),
        ("Exfoliating Toner", "TON-150", 3200, 1000, 6),
        ("Lip Repair Balm", "LIP-10", 1500, 400, 6),
        ("Hyaluronic Mask (5)", "MSK-5", 4200, 1600, 3),
        ("Body Lotion 400ml", "BOD-400", 3500, 1300, 3),
        ("Travel Kit", "KIT-T", 9500, 4200, 2),
    ]

    /// Every clinic, product, terms and sale row of the book.
    public func rows() throws -> [ImportRow] {
        var random = SplitMix64(seed: seed)
        var rows: [ImportRow] = []
        var line = 1
        func add(_ record: ImportRecord) {
            line += 1
            rows.append(ImportRow(line: line, record: record))
        }
        let start = today.adding(days: -364)
        for clinic in Self.clinics {
            add(.clinic(ClinicDraft(name: clinic.name, schedule: clinic.schedule(today))))
        }
        for product in Self.products {
            add(
                .product(
                    ProductDraft(
                        name: product.name,
                        sku: product.sku,
                        unitPrice: Money(minorUnits: product.price),
                        unitCost: Money(minorUnits: product.cost)
                    )
                )
            )
        }
        for clinic in Self.clinics {
            add(
                .terms(
                    NamedTermsDraft(
                        clinic: clinic.name,
                        product: nil,
                        basis: clinic.basis,
                        share: try Share(parsing: clinic.share),
                        effectiveFrom: start
                    )
                )
            )
        }
        // Glow pays more on its serum line; Harbor raised its split half-way through the year.
        add(
            .terms(
                NamedTermsDraft(
                    clinic: "Glow Aesthetics",
                    product: "Hydrating Serum 30ml",
                    basis: .profit,
                    share: try Share(parsing: "45%"),
                    effectiveFrom: start
                )
            )
        )
        add(
            .terms(
                NamedTermsDraft(
                    clinic: "Harbor Skin Clinic",
                    product: nil,
                    basis: .profit,
                    share: try Share(parsing: "57.5%"),
                    effectiveFrom: today.adding(days: -150).firstOfMonth
                )
            )
        )

        // She works at each clinic on fixed weekdays.
        let workdays: [[Weekday]] = [[.monday, .thursday], [.tuesday, .friday], [.wednesday], [.saturday]]
        let totalWeight = Self.products.reduce(0) { $0 + $1.weight }
        for offset in 0...364 {
            let date = start.adding(days: offset)
            for (index, clinic) in Self.clinics.enumerated() where workdays[index].contains(date.weekday) {
                if Int.random(in: 0..<20, using: &random) == 0 { continue }  // a day off
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    var pick = Int.random(in: 0..<totalWeight, using: &random)
                    let product = Self.products.first {
                        pick -= $0.weight
                        return pick < 0
                    }!
                    var quantity: Int64 = Int.random(in: 1...10, using: &random) <= 8 ? 1 : 2
                    let roll = Int.random(in: 0..<100, using: &random)
                    if roll < 3 { quantity = -1 }
                    var discount: Int64 = 0
                    if quantity > 0 && roll >= 3 && roll < 13 {
                        discount = product.price * quantity * [Int64(10), 15, 20].randomElement(using: &random)! / 100
                    }
                    let sample = roll == 99
                    add(
                        .sale(
                            NamedSaleDraft(
                                clinic: clinic.name,
                                product: product.name,
                                date: date,
                                quantity: quantity,
                                discount: Money(minorUnits: discount),
                                noCommission: sample,
                                note: sample ? "sample" : quantity < 0 ? "returned" : nil
                            )
                        )
                    )
                }
            }
        }
        return rows
    }

    /// Builds the book in `store` (which should be empty): the rows, then payouts for every ended
    /// period (one short, one missing, one over), and the oldest periods closed.
    @discardableResult
    public func build(in store: any CommissionStore) async throws -> ImportSummary {
        let summary = try await store.importRows(from: ArrayImportSource(try rows()), options: ImportOptions())
        var random = SplitMix64(seed: seed ^ 0xDEAD_BEEF)
        for clinic in try await store.clinics(ClinicQuery()) {
            let reconciliation = try await store.reconciliation(clinic: clinic.id, today: today)
            let ended = reconciliation.periods.filter { $0.period.end < today && !$0.expected.isZero }
            for (index, period) in ended.enumerated() {
                var amount = period.expected
                let fromEnd = ended.count - index
                if fromEnd == 1 && clinic.schedule == .monthly { continue }  // Glow has not paid last month yet
                if fromEnd == 3 && clinic.schedule == .semimonthly {
                    amount = try amount.subtracting(Money(minorUnits: 2500))
                }
                if fromEnd == 2 && clinic.name.hasPrefix("Northside") {
                    amount = try amount.adding(Money(minorUnits: 1000))
                }
                let received = period.period.end.adding(days: Int.random(in: 3...10, using: &random))
                _ = try await store.createPayout(
                    PayoutDraft(
                        clinicID: clinic.id,
                        period: period.period,
                        amount: amount,
                        receivedOn: min(received, today),
                        reference: "Transfer \(1000 + index)"
                    )
                )
                if fromEnd > 6 { try await store.closePeriod(clinic: clinic.id, period: period.period) }
            }
        }
        return summary
    }
}

import CommissionCore
import Testing

/// Worked examples of the product brief's sale-line rule. Every expected figure is computed by hand in the
/// comment above it, never copied from the implementation.
@Suite struct SaleLineTests {
    let forty = CommissionRate(share: share("40%"), basis: .profit)

    @Test func profitSplit() throws {
        // 2 × 50.00 = 100.00 revenue; 2 × 20.00 = 40.00 cost; profit 60.00; 40% of 60.00 = 24.00.
        let figures = try SaleLine(quantity: 2, unitPrice: cents(5000), unitCost: cents(2000), rate: forty)
            .figures(rounding: .halfAwayFromZero)
        #expect(figures.revenue == cents(10000))
        #expect(figures.cost == cents(4000))
        #expect(figures.profit == cents(6000))
        #expect(figures.commission == cents(2400))
    }

    @Test func returnIsAClawback() throws {
        // −1 × 50.00 = −50.00 revenue; −20.00 cost; −30.00 profit; 40% → −12.00.
        let figures = try SaleLine(quantity: -1, unitPrice: cents(5000), unitCost: cents(2000), rate: forty)
            .figures(rounding: .halfAwayFromZero)
        #expect(figures.revenue == cents(-5000))
        #expect(figures.profit == cents(-3000))
        #expect(figures.commission == cents(-1200))
    }

    @Test func saleBelowCostSharesTheLoss() throws {
        // 10.00 − 15.00 = −5.00 profit; 40% → −2.00.
        let figures = try SaleLine(quantity: 1, unitPrice: cents(1000), unitCost: cents(1500), rate: forty)
            .figures(rounding: .halfAwayFromZero)
        #expect(figures.profit == cents(-500))
        #expect(figures.commission == cents(-200))
    }

    @Test func discountComesOffRevenue() throws {
        // 3 × 19.99 = 59.97, minus 5.00 discount = 54.97 revenue; 3 × 7.25 = 21.75 cost;
        // profit 33.22; 37.5% of 3322 cents = 1245.75 cents → 12.46 (0.75 rounds up either way).
        let rate = CommissionRate(share: share("37.50%"), basis: .profit)
        let figures = try SaleLine(
            quantity: 3,
            unitPrice: cents(1999),
            unitCost: cents(725),
            discount: cents(500),
            rate: rate
        )
        .figures(rounding: .halfAwayFromZero)
        #expect(figures.revenue == cents(5497))
        #expect(figures.cost == cents(2175))
        #expect(figures.profit == cents(3322))
        #expect(figures.exactCommission.tenThousandths == 3322 * 3750)  // 12_457_500 = 1245.75 cents
        #expect(figures.commission == cents(1246))
    }

    @Test func tiesRoundByTheBooksRule() throws {
        // Profit 10.01 at 50% is exactly 500.5 cents: away from zero → 5.01, to even → 5.00.
        let half = CommissionRate(share: share("50%"), basis: .profit)
        let line = SaleLine(quantity: 1, unitPrice: cents(1001), unitCost: .zero, rate: half)
        #expect(try line.figures(rounding: .halfAwayFromZero).commission == cents(501))
        #expect(try line.figures(rounding: .halfToEven).commission == cents(500))
        // The same tie on a return: −500.5 → −5.01 away from zero, −5.00 to even.
        var back = line
        back.quantity = -1
        #expect(try back.figures(rounding: .halfAwayFromZero).commission == cents(-501))
        #expect(try back.figures(rounding: .halfToEven).commission == cents(-500))
        // 0.5 cents above an odd number: 1.5 → 2 under both rules (3 × 50% = 1.5 cents).
        let tiny = SaleLine(quantity: 3, unitPrice: cents(1), unitCost: .zero, rate: half)
        #expect(try tiny.figures(rounding: .halfToEven).commission == cents(2))
    }

    @Test func revenueBasisIgnoresCost() throws {
        // 1 × 100.00 at 10% of revenue = 10.00, whatever the cost.
        let rate = CommissionRate(share: share("10%"), basis: .revenue)
        let figures = try SaleLine(quantity: 1, unitPrice: cents(10000), unitCost: cents(9000), rate: rate)
            .figures(rounding: .halfAwayFromZero)
        #expect(figures.commission == cents(1000))
        #expect(figures.profit == cents(1000))
    }

    @Test func noCommissionStillCountsRevenueAndProfit() throws {
        let figures = try SaleLine(quantity: 1, unitPrice: cents(5000), unitCost: cents(2000), rate: nil)
            .figures(rounding: .halfAwayFromZero)
        #expect(figures.commission == .zero)
        #expect(figures.revenue == cents(5000))
        #expect(figures.profit == cents(3000))
    }

    @Test func refusesImpossibleLines() throws {
        #expect(throws: SaleLineError.zeroQuantity) {
            try SaleLine(quantity: 0, unitPrice: cents(100), unitCost: .zero, rate: forty).figures(
                rounding: .halfToEven
            )
        }
        #expect(throws: SaleLineError.negativeAmount(field: "unit price")) {
            try SaleLine(quantity: 1, unitPrice: cents(-100), unitCost: .zero, rate: forty).figures(
                rounding: .halfToEven
            )
        }
        #expect(throws: SaleLineError.negativeAmount(field: "unit cost")) {
            try SaleLine(quantity: 1, unitPrice: cents(100), unitCost: cents(-1), rate: forty).figures(
                rounding: .halfToEven
            )
        }
        // A discount over |quantity| × unit price is refused, on a sale and on a return, naming both amounts.
        for quantity: Int64 in [2, -2] {
            let error = #expect(throws: SaleLineError.self) {
                try SaleLine(
                    quantity: quantity,
                    unitPrice: cents(100),
                    unitCost: .zero,
                    discount: cents(201),
                    rate: forty
                )
                .figures(rounding: .halfToEven, currency: .usd)
            }
            #expect(error == .discountExceedsLine(discount: cents(201), line: cents(200), currency: .usd))
            #expect(error?.description.hasPrefix("The discount 2.01 is more than the line's total 2.00") == true)
        }
        // Exactly the line is allowed: revenue 0 (a sale) or 0 (its return).
        #expect(
            try SaleLine(quantity: -2, unitPrice: cents(100), unitCost: .zero, discount: cents(200), rate: forty)
                .figures(rounding: .halfToEven).revenue == .zero
        )
    }

    /// An amount that could overflow a total is refused before any arithmetic: a unit price or cost
    /// beyond 10,000,000.00 (in minor units: 1,000,000,000), a quantity beyond 1,000 either way.
    @Test func absurdAmountsAreRefusedBeforeTheyCanOverflow() throws {
        // Int64.max / 2 cents × 3 units could not be represented; it is refused as a price first.
        let line = SaleLine(quantity: 3, unitPrice: cents(Int64.max / 2), unitCost: .zero, rate: forty)
        #expect(
            throws: SaleLineError.amountTooLarge(
                field: "unit price",
                amount: cents(Int64.max / 2),
                limit: SaleLine.largestUnitAmount,
                currency: nil
            )
        ) {
            try line.figures(rounding: .halfAwayFromZero)
        }
        let costly = SaleLine(quantity: 1, unitPrice: .zero, unitCost: cents(1_000_000_001), rate: forty)
        #expect(throws: SaleLineError.self) { try costly.figures(rounding: .halfAwayFromZero) }
        #expect(throws: SaleLineError.quantityTooLarge(-1001)) {
            try SaleLine(quantity: -1001, unitPrice: cents(1), unitCost: .zero, rate: forty).figures(
                rounding: .halfAwayFromZero
            )
        }
        // The largest line is exact: 1,000 × 10,000,000.00 at 40%.
        let largest = try SaleLine(quantity: 1000, unitPrice: cents(1_000_000_000), unitCost: .zero, rate: forty)
            .figures(rounding: .halfAwayFromZero)
        #expect(largest.commission == cents(400_000_000_000))
        // What the bound keeps from ever happening is still an error, never a wrapped number.
        #expect(throws: MoneyError.self) { try cents(Int64.max / 2).multiplied(by: 3) }
    }

    @Test func aReturnExactlyNegatesItsSale() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<5_000 {
            let quantity = Int64.random(in: 1...50, using: &random)
            let price = Int64.random(in: 0...100_000, using: &random)
            let line = SaleLine(
                quantity: quantity,
                unitPrice: cents(price),
                unitCost: cents(Int64.random(in: 0...100_000, using: &random)),
                discount: cents(Int64.random(in: 0...(price * quantity), using: &random)),
                rate: CommissionRate(
                    share: try Share(basisPoints: Int.random(in: 0...10_000, using: &random)),
                    basis: Bool.random(using: &random) ? .profit : .revenue
                )
            )
            var back = line
            back.quantity = -quantity
            for rule in RoundingRule.allCases {
                let sale = try line.figures(rounding: rule)
                let ret = try back.figures(rounding: rule)
                #expect(ret.revenue == (try sale.revenue.negated()))
                #expect(ret.cost == (try sale.cost.negated()))
                #expect(ret.profit == (try sale.profit.negated()))
                #expect(ret.commission == (try sale.commission.negated()))
            }
        }
    }
}

@Suite struct TermsResolutionTests {
    let glow = Clinic.ID(1), harbor = Clinic.ID(2)
    let serum = Product.ID(10), cream = Product.ID(11)

    func terms(
        _ id: Int64,
        _ clinic: Clinic.ID,
        product: Product.ID? = nil,
        _ pct: String,
        from: String,
        archived: Bool = false
    ) -> Terms {
        Terms(
            id: Terms.ID(id),
            clinicID: clinic,
            productID: product,
            share: share(pct),
            effectiveFrom: day(from),
            isArchived: archived
        )
    }

    @Test func latestEffectiveDateOnOrBeforeTheSaleWins() {
        let all = [terms(1, glow, "40%", from: "2026-01-01"), terms(2, glow, "45%", from: "2026-06-15")]
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2026-06-14"))?.id == Terms.ID(1))
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2026-06-15"))?.id == Terms.ID(2))
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2027-01-01"))?.id == Terms.ID(2))
    }

    @Test func productTermsBeatClinicWideEvenWhenOlder() {
        let all = [
            terms(1, glow, product: serum, "55%", from: "2026-01-01"), terms(2, glow, "40%", from: "2026-03-01"),
        ]
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2026-04-01"))?.id == Terms.ID(1))
        #expect(Terms.inForce(among: all, clinic: glow, product: cream, on: day("2026-04-01"))?.id == Terms.ID(2))
        // Before the product terms start, the clinic-wide ones (if in force) apply.
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2025-12-31")) == nil)
    }

    @Test func noTermsBeforeTheFirstOrAtAnotherClinic() {
        let all = [
            terms(1, glow, "40%", from: "2026-01-01"), terms(2, harbor, "50%", from: "2020-01-01", archived: true),
        ]
        #expect(Terms.inForce(among: all, clinic: glow, product: serum, on: day("2025-12-31")) == nil)
        #expect(Terms.inForce(among: all, clinic: harbor, product: serum, on: day("2026-05-01")) == nil)  // archived
    }

    @Test func termsChangingMidPeriodSplitThePeriodsSales() throws {
        // A semimonthly period 2026-03-01…15, terms 40% until 03-07 and 50% from 03-08. Two sales of
        // profit 10.00: on 03-07 → 4.00, on 03-08 → 5.00; the statement expects 9.00.
        let all = [terms(1, glow, "40%", from: "2026-01-01"), terms(2, glow, "50%", from: "2026-03-08")]
        let clinic = Clinic(id: glow, name: "Glow", schedule: .semimonthly)
        var lines: [StatementLine] = []
        for (index, date) in ["2026-03-07", "2026-03-08"].enumerated() {
            let t = try #require(Terms.inForce(among: all, clinic: glow, product: serum, on: day(date)))
            let line = SaleLine(
                quantity: 1,
                unitPrice: cents(1000),
                unitCost: .zero,
                rate: CommissionRate(share: t.share, basis: t.basis)
            )
            let sale = Sale(
                id: Sale.ID(Int64(index)),
                clinicID: glow,
                productID: serum,
                date: day(date),
                line: line,
                termsID: t.id,
                figures: try line.figures(rounding: .halfAwayFromZero)
            )
            lines.append(StatementLine(sale: sale, productName: "Serum"))
        }
        let period = clinic.schedule.period(containing: day("2026-03-07"))
        #expect(period == PayPeriod(start: day("2026-03-01"), end: day("2026-03-15")))
        let statement = try Statement(
            clinic: clinic,
            period: period,
            lines: lines,
            payouts: [],
            rounding: .default,
            isClosed: false
        )
        #expect(statement.lines.map(\.sale.figures.commission) == [cents(400), cents(500)])
        #expect(statement.totals.commission == cents(900))
    }
}

/// The split a sale was computed with, kept on the sale so that later changes to terms or
/// prices never rewrite the past silently.
public struct CommissionRate: Sendable, Hashable {
    public var share: Share
    public var basis: CommissionBasis

    public init(share: Share, basis: CommissionBasis) {
        self.share = share
        self.basis = basis
    }
}

/// The inputs of one sale line: quantity, unit price and cost, discount, and the split (nil for a
/// sale marked *no commission*).
public struct SaleLine: Sendable, Hashable {
    /// Units sold; negative for a return. Never zero.
    public var quantity: Int64
    public var unitPrice: Money
    public var unitCost: Money
    /// The discount on the whole line, as a non-negative amount. On a return (negative quantity) it
    /// is given back with the same sign as the line, so that a return exactly negates its sale.
    public var discount: Money
    public var rate: CommissionRate?

    public init(quantity: Int64, unitPrice: Money, unitCost: Money, discount: Money = .zero, rate: CommissionRate?) {
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.discount = discount
        self.rate = rate
    }

    /// Checks the line and computes its figures.
    ///
    /// - `revenue = quantity × unitPrice − discount` (for a return, `+ discount`: the discount goes back too)
    /// - `cost = quantity × unitCost`, `profit = revenue − cost`
    /// - `commission = round(basisAmount × share / 10000)`, basis amount being profit or revenue;
    ///   zero for *no commission*.
    ///
    /// - Throws: ``SaleLineError`` for a zero quantity, a negative price, cost or discount, or a
    ///   discount larger than the line; ``MoneyError/overflow(_:)`` when a figure does not fit.
    public func figures(rounding rule: RoundingRule) throws -> SaleFigures {
        try figures(rounding: rule, currency: nil)
    }

    /// Checks the line and computes its figures, an error about an amount naming it in `currency`.
    public func figures(rounding rule: RoundingRule, currency: Currency?) throws -> SaleFigures {
        guard quantity != 0 else { throw SaleLineError.zeroQuantity }
        guard quantity.magnitude <= Self.largestQuantity else { throw SaleLineError.quantityTooLarge(quantity) }
        guard !unitPrice.isNegative else { throw SaleLineError.negativeAmount(field: "unit price") }
        guard !unitCost.isNegative else { throw SaleLineError.negativeAmount(field: "unit cost") }
        guard !discount.isNegative else { throw SaleLineError.negativeAmount(field: "discount") }
        try Self.checkUnitAmount(unitPrice, field: "unit price", currency: currency)
        try Self.checkUnitAmount(unitCost, field: "unit cost", currency: currency)
        let gross = try unitPrice.multiplied(by: quantity)
        guard try discount <= gross.magnitude() else {
            throw SaleLineError.discountExceedsLine(discount: discount, line: try gross.magnitude(), currency: currency)
        }
        let revenue = quantity > 0 ? try gross.subtracting(discount) : try gross.adding(discount)
        let cost = try unitCost.multiplied(by: quantity)
        let profit = try revenue.subtracting(cost)
        let exact: ExactCommission
        if let rate {
            exact = try ExactCommission(basisAmount: rate.basis == .profit ? profit : revenue, share: rate.share)
        } else {
            exact = .zero
        }
        return SaleFigures(
            revenue: revenue,
            cost: cost,
            profit: profit,
            exactCommission: exact,
            commission: exact.rounded(rule)
        )
    }
}

extension SaleLine {
    /// The most units one line sells or takes back: 1,000.
    public static let largestQuantity: Int64 = 1_000
    /// The largest unit price or unit cost: 1,000,000,000 minor units (10,000,000.00 in a currency
    /// of two digits — Rp 10,000,000 in rupiah, whose minor units are tiny — ¥1,000,000,000 in one
    /// of none).
    ///
    /// Why bounds: every total the book keeps is exact in 64 bits — commissions to a
    /// ten-thousandth of a minor unit — and a single absurd line (a price typed with a dozen digits
    /// too many) would overflow the period's, the year's and all time's totals, and refuse every
    /// later sale. With these bounds a line is at most 10^12 minor units: a book takes 922 lines
    /// each at the largest price and quantity and a 100% share (and any number of real ones, a
    /// million times smaller) before any of its totals could overflow.
    public static let largestUnitAmount = Money(minorUnits: 1_000_000_000)

    /// Refuses a unit price or cost beyond ``largestUnitAmount`` (products, price lists and sales
    /// alike), naming it in `currency` when known.
    public static func checkUnitAmount(_ amount: Money, field: String, currency: Currency?) throws(SaleLineError) {
        guard amount <= largestUnitAmount else {
            throw .amountTooLarge(field: field, amount: amount, limit: largestUnitAmount, currency: currency)
        }
    }
}

/// The computed figures of a sale line.
public struct SaleFigures: Sendable, Hashable {
    public var revenue: Money
    public var cost: Money
    public var profit: Money
    /// The commission before rounding, for statements that round once.
    public var exactCommission: ExactCommission
    /// The commission rounded on this line.
    public var commission: Money

    public init(revenue: Money, cost: Money, profit: Money, exactCommission: ExactCommission, commission: Money) {
        self.revenue = revenue
        self.cost = cost
        self.profit = profit
        self.exactCommission = exactCommission
        self.commission = commission
    }
}

public enum SaleLineError: Error, Sendable, Equatable, CustomStringConvertible {
    case zeroQuantity
    case negativeAmount(field: String)
    /// The discount and the line's total (`|quantity| × unit price`), written in `currency` when known.
    case discountExceedsLine(discount: Money, line: Money, currency: Currency?)
    /// A quantity beyond ``SaleLine/largestQuantity`` either way.
    case quantityTooLarge(Int64)
    /// An amount beyond what the book takes for it (`limit`), written in `currency` when known.
    case amountTooLarge(field: String, amount: Money, limit: Money, currency: Currency?)

    public var description: String { message(style: nil) }

    /// The sentence with its amounts written as `style` writes them (`999,00 €` on a German
    /// book's page), or as the currency does without one.
    public func message(style: LocaleStyle?) -> String {
        switch self {
        case .zeroQuantity:
            return "The quantity is 0: a sale sells at least one unit (use a negative quantity for a return)."
        case .negativeAmount(let field):
            return "The \(field) is negative: enter it as a positive amount (a return is a negative quantity)."
        case .discountExceedsLine(let discount, let line, let currency):
            let (d, l) =
                style.map { ($0.format(discount), $0.format(line)) }
                ?? currency.map { ($0.format(discount), $0.format(line)) } ?? ("\(discount)", "\(line)")
            return
                "The discount \(d) is more than the line's total \(l) (quantity × unit price): a discount can take the line to zero, not below."
        case .quantityTooLarge(let quantity):
            return
                "The quantity \(quantity) is more than one sale takes: at most \(SaleLine.largestQuantity) units either way. Split it into several sales."
        case .amountTooLarge(let field, let amount, let limit, let currency):
            guard let currency else {
                return
                    "The \(field) (\(amount.minorUnits) minor units) is more than Commission takes: at most \(limit.minorUnits) minor units of the book's currency, "
                    + "so that every total of the book stays exact. Check the digits."
            }
            let format = style.map { style in { style.format($0) } } ?? { currency.format($0) }
            return
                "The \(field) \(format(amount)) is more than Commission takes: at most \(format(limit)), "
                + "so that every total of the book stays exact. Check the digits."
        }
    }
}

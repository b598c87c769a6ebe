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
        guard !unitPrice.isNegative else { throw SaleLineError.negativeAmount(field: "unit price") }
        guard !unitCost.isNegative else { throw SaleLineError.negativeAmount(field: "unit cost") }
        guard !discount.isNegative else { throw SaleLineError.negativeAmount(field: "discount") }
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
        return SaleFigures(revenue: revenue, cost: cost, profit: profit, exactCommission: exact,
                           commission: exact.rounded(rule))
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

    public var description: String {
        switch self {
        case .zeroQuantity:
            return "The quantity is 0: a sale sells at least one unit (use a negative quantity for a return)."
        case .negativeAmount(let field):
            return "The \(field) is negative: enter it as a positive amount (a return is a negative quantity)."
        case .discountExceedsLine(let discount, let line, let currency):
            let (d, l) = currency.map { ($0.format(discount), $0.format(line)) } ?? ("\(discount)", "\(line)")
            return "The discount \(d) is more than the line's total \(l) (quantity × unit price): a discount can take the line to zero, not below."
        }
    }
}

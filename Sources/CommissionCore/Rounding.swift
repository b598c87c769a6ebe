/// How a commission is rounded to the minor unit.
public enum RoundingRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// 2.5 → 3, −2.5 → −3: what a spreadsheet's `ROUND()` does. The default.
    case halfAwayFromZero = "half-away-from-zero"
    /// 2.5 → 2, 3.5 → 4: banker's rounding.
    case halfToEven = "half-to-even"

    /// `numerator / denominator` rounded to an integer by this rule. `denominator` must be positive.
    public func divide(_ numerator: Int64, by denominator: Int64) -> Int64 {
        precondition(denominator > 0, "rounding divides by a positive denominator")
        // Work on magnitudes so that the result is symmetric around zero.
        let negative = numerator < 0
        let magnitude = numerator.magnitude
        let d = UInt64(denominator)
        var quotient = magnitude / d
        let remainder = magnitude % d
        let twice = remainder * 2  // remainder < d ≤ Int64.max, so this fits in UInt64
        if twice > d || (twice == d && (self == .halfAwayFromZero || quotient % 2 == 1)) {
            quotient += 1
        }
        // quotient ≤ |Int64.min| / d, which fits for any d ≥ 2; d = 1 gives no remainder.
        return negative ? -Int64(quotient) : Int64(quotient)
    }
}

/// Where a statement rounds commission.
public enum RoundingScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// Each sale line's commission is rounded, and the statement adds the rounded lines. The default.
    case perLine = "per-line"
    /// The exact commissions of the lines are added, and the statement rounds the total once.
    case perStatement = "per-statement"
}

/// A book's rounding: the rule, and whether it applies per line or once per statement.
public struct RoundingPolicy: Sendable, Hashable, CustomStringConvertible {
    public var rule: RoundingRule
    public var scope: RoundingScope

    public init(rule: RoundingRule = .halfAwayFromZero, scope: RoundingScope = .perLine) {
        self.rule = rule
        self.scope = scope
    }

    public static let `default` = RoundingPolicy()

    public var description: String { "\(rule.rawValue), \(scope.rawValue)" }
}

/// A commission before rounding, exact: in ten-thousandths of a minor unit (basis amount × basis points).
///
/// `commission = round(basisAmount × share / 10000)`; this type is the part inside `round`.
public struct ExactCommission: Sendable, Hashable, Comparable {
    /// Ten-thousandths of a minor unit.
    public var tenThousandths: Int64

    public init(tenThousandths: Int64) { self.tenThousandths = tenThousandths }

    public static let zero = ExactCommission(tenThousandths: 0)

    public static func < (lhs: ExactCommission, rhs: ExactCommission) -> Bool {
        lhs.tenThousandths < rhs.tenThousandths
    }

    /// The commission of `basisAmount` at `share`, exact.
    public init(basisAmount: Money, share: Share) throws(MoneyError) {
        let (product, overflow) = basisAmount.minorUnits.multipliedReportingOverflow(by: Int64(share.basisPoints))
        if overflow { throw .overflow("\(basisAmount.minorUnits) × \(share.basisPoints)bp") }
        self.tenThousandths = product
    }

    public func adding(_ other: ExactCommission) throws(MoneyError) -> ExactCommission {
        let (sum, overflow) = tenThousandths.addingReportingOverflow(other.tenThousandths)
        if overflow { throw .overflow("commission sum") }
        return ExactCommission(tenThousandths: sum)
    }

    /// Rounded to the minor unit by `rule`.
    public func rounded(_ rule: RoundingRule) -> Money {
        Money(minorUnits: rule.divide(tenThousandths, by: 10_000))
    }
}

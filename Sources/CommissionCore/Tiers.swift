/// One accelerator of a set of terms: the part of a period's basis total beyond `threshold` (up to
/// the next tier's threshold) earns `share` instead of the terms' base share.
///
/// Tiers are marginal, like tax brackets: 40% of profit, 50% of the part beyond 5,000.00, 60% of the
/// part beyond 10,000.00. Thresholds are positive and strictly increase; a tier's share is any 0–100%.
public struct Tier: Sendable, Hashable, CustomStringConvertible {
    public var threshold: Money
    public var share: Share

    public init(threshold: Money, share: Share) {
        self.threshold = threshold
        self.share = share
    }

    /// Reads `5000.00:50%` (threshold, then share) in `currency`.
    public init(parsing text: String, currency: Currency) throws(TierError) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { throw .malformed(text) }
        do {
            threshold = try currency.parse(String(parts[0]).trimmingWhitespace())
            share = try Share(parsing: String(parts[1]))
        } catch {
            throw .malformed(text)
        }
    }

    /// `50.00% beyond 5000.00 minor units`; pages and the CLI write the threshold in the book's currency.
    public var description: String { "\(share) beyond \(threshold)" }

    /// `5000.00:50.00%`, the form ``init(parsing:currency:)`` reads.
    public func text(_ currency: Currency) -> String { "\(currency.format(threshold)):\(share)" }

    /// Checks a list of tiers: positive, strictly increasing thresholds.
    public static func validate(_ tiers: [Tier], currency: Currency) throws(TierError) {
        var previous: Money?
        for tier in tiers {
            guard tier.threshold > .zero else { throw .thresholdNotPositive(currency.format(tier.threshold)) }
            if let previous, tier.threshold <= previous {
                throw .notIncreasing(currency.format(previous), currency.format(tier.threshold))
            }
            previous = tier.threshold
        }
    }

    /// The accelerator of a period, exact: with `total` the exact sum of the basis amounts of the
    /// lines computed under terms of base share `base`, and `part_k = max(0, min(total,
    /// threshold_{k+1}) − threshold_k)` (the last tier unbounded), `Σ_k (share_k − base) × part_k`
    /// in ten-thousandths of a minor unit. Zero at or below the first threshold (a period of
    /// returns included); negative for a tier whose share is below the base.
    /// - Throws: ``MoneyError/overflow(_:)`` when a product or the sum does not fit.
    public static func accelerator(total: Money, base: Share, tiers: [Tier]) throws(MoneyError) -> ExactCommission {
        var sum = ExactCommission.zero
        for (index, tier) in tiers.enumerated() where total > tier.threshold {
            let upper = index + 1 < tiers.count ? min(total, tiers[index + 1].threshold) : total
            let part = try upper.subtracting(tier.threshold)
            guard part > .zero else { continue }
            let delta = Int64(tier.share.basisPoints - base.basisPoints)
            let (product, overflow) = part.minorUnits.multipliedReportingOverflow(by: delta)
            if overflow { throw .overflow("accelerator \(part.minorUnits) × \(delta)bp") }
            sum = try sum.adding(ExactCommission(tenThousandths: product))
        }
        return sum
    }
}

public enum TierError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case thresholdNotPositive(String)
    case notIncreasing(String, String)

    public var description: String {
        switch self {
        case .malformed(let text):
            return "\"\(text)\" is not a tier: write the threshold and the share, like 5000.00:50%."
        case .thresholdNotPositive(let threshold):
            return "A tier's threshold must be more than zero, not \(threshold)."
        case .notIncreasing(let previous, let next):
            return "Tier thresholds must increase: \(next) follows \(previous)."
        }
    }
}

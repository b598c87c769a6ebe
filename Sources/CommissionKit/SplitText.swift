import CommissionCore

/// Her split under a set of terms, in words, written once for every surface: `40% of profit`,
/// `30% of profit, 35% beyond $1,000.00, 40% beyond $2,000.00`. Each surface gives its way of
/// writing an amount (a page's locale, the CLI's currency) and, if it differs, a share.
public enum SplitText {
    /// A share as pages write it: `40%`, `57.5%`.
    public static func percent(_ share: Share) -> String { "\(share.shortPercentText)%" }

    /// The tiers alone: `35% beyond $1,000.00, 40% beyond $2,000.00` (empty without tiers).
    public static func tiers(_ tiers: [Tier], share: (Share) -> String = percent, amount: (Money) -> String) -> String {
        tiers.map { "\(share($0.share)) beyond \(amount($0.threshold))" }.joined(separator: ", ")
    }

    /// The base share and its basis, then the tiers: `30% of profit, 35% beyond $1,000.00`.
    public static func split(_ terms: Terms, share: (Share) -> String = percent, amount: (Money) -> String) -> String {
        "\(share(terms.share)) of \(terms.basis.rawValue)"
            + (terms.tiers.isEmpty ? "" : ", " + tiers(terms.tiers, share: share, amount: amount))
    }
}

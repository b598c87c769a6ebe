/// Whole percentages of a total that add up to 100: each amount's share rounded down, then the
/// points left over given to the largest remainders (ties to the earlier entry). Negative amounts
/// count as nothing; an all-zero list gives zeros. Exact integer arithmetic: no amount is ever a
/// floating-point number on the way.
public enum Percentages {
    public static func largestRemainder(_ amounts: [Int64]) -> [Int] {
        let parts = amounts.map { Int128(max(0, $0)) }
        let total = parts.reduce(0, +)  // 128 bits: no sum of Int64 amounts overflows it
        guard total > 0 else { return Array(repeating: 0, count: amounts.count) }
        var shares: [Int] = []
        var remainders: [(index: Int, remainder: Int128)] = []
        for (index, part) in parts.enumerated() {
            shares.append(Int(part * 100 / total))
            remainders.append((index, part * 100 % total))
        }
        let missing = 100 - shares.reduce(0, +)
        for entry in remainders.sorted(by: { ($0.remainder, -$0.index) > ($1.remainder, -$1.index) }).prefix(
            max(0, missing)
        ) {
            shares[entry.index] += 1
        }
        return shares
    }
}

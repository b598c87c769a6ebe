/// A commission split: a percentage with up to two decimals, stored as basis points (0…10000).
///
/// 37.50% is `Share(basisPoints: 3750)`.
public struct Share: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Hundredths of a percent: 0 (nothing) to 10000 (everything).
    public let basisPoints: Int

    /// - Throws: ``ShareError/outOfRange(_:)`` outside 0…10000.
    public init(basisPoints: Int) throws(ShareError) {
        guard (0...10_000).contains(basisPoints) else { throw .outOfRange("\(basisPoints) basis points") }
        self.basisPoints = basisPoints
    }

    private init(exactly basisPoints: Int) { self.basisPoints = basisPoints }

    /// Nothing: 0%.
    public static let zero = Share(exactly: 0)

    public static func < (lhs: Share, rhs: Share) -> Bool { lhs.basisPoints < rhs.basisPoints }

    /// Parses a percentage: `"40"`, `"37.5"`, `"37.50"`, `"37.50%"`. At most two decimals; 0…100.
    /// - Throws: ``ShareError`` saying what is wrong.
    public init(parsing text: String) throws(ShareError) {
        var body = Substring(text.trimmingWhitespace())
        if body.hasSuffix("%") { body = body.dropLast() }
        body = Substring(body.trimmingWhitespace())
        let parts = body.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        func isDigits(_ s: Substring) -> Bool {
            !s.isEmpty && s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }
        guard parts.count <= 2, isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]) else {
            throw .malformed(text)
        }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 2 else { throw .tooPrecise(text) }
        guard parts[0].count <= 3, let whole = Int(parts[0]),
            let hundredths = Int(fraction + String(repeating: "0", count: 2 - fraction.count))
        else {
            throw .outOfRange(text)
        }
        try self.init(basisPoints: whole * 100 + hundredths)
    }

    /// `"37.50%"`.
    public var description: String { "\(percentText)%" }

    /// The percentage without its sign and without trailing zeros, for sentences: `"40"`, `"37.5"`.
    public var shortPercentText: String {
        var text = percentText
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The percentage without its sign, two decimals: `"37.50"`.
    public var percentText: String {
        let hundredths = basisPoints % 100
        return "\(basisPoints / 100).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }
}

public enum ShareError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case tooPrecise(String)
    case outOfRange(String)

    public var description: String {
        switch self {
        case .malformed(let text):
            return "\"\(text)\" is not a percentage: write it like 40 or 37.5."
        case .tooPrecise(let text):
            return "\"\(text)\" has more than two decimals: a share is a percentage like 37.25."
        case .outOfRange(let text):
            return "A share is between 0% and 100%, not \(text)."
        }
    }
}

import CommissionCore

/// A small deterministic generator (SplitMix64), so that property tests are repeatable.
typealias SeededRandom = SplitMix64

func day(_ text: String) -> Day { try! Day(parsing: text) }
func cents(_ minor: Int64) -> Money { Money(minorUnits: minor) }
func share(_ text: String) -> Share { try! Share(parsing: text) }

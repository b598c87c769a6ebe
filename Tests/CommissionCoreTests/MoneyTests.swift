import CommissionCore
import Testing

@Suite struct MoneyParsingTests {
    let usd = Currency.usd

    @Test(
        arguments: [
            ("50", 5000), ("50.0", 5000), ("50.00", 5000),  // typed on a phone: fifty stays fifty
            ("0.05", 5), ("-12.34", -1234), ("+1", 100), (" 7.5 ", 750), ("\t7.5", 750), ("7.50\u{00A0}", 750),
            ("92233720368547758.07", Int64.max), ("-92233720368547758.08", Int64.min),
        ] as [(String, Int64)]
    )
    func parsesDecimalStrings(text: String, minor: Int64) throws {
        #expect(try usd.parse(text) == Money(minorUnits: minor))
    }

    @Test(arguments: [
        "12.345", "1,2,3", "abc", "1e5", "", "  ", ".5", "5.", "1.2.3", "--1", "1 000", "1,234.50", "0x10", "½", "١٢",
    ])
    func refusesMalformedAmounts(text: String) {
        #expect(throws: MoneyError.self) { try usd.parse(text) }
    }

    @Test func refusesAmountsThatOverflow() {
        // Int64.max is 9223372036854775807 cents, so one cent more cannot be represented.
        #expect(throws: MoneyError.overflow("92233720368547758.08")) { try usd.parse("92233720368547758.08") }
        #expect(throws: MoneyError.self) { try usd.parse("99999999999999999999999") }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(throws: MoneyError.malformed("12.345", reason: "USD amounts have at most 2 decimal places")) {
            try usd.parse("12.345")
        }
        let error = #expect(throws: MoneyError.self) { try usd.parse("abc") }
        #expect(error?.description.contains("\"abc\" is not an amount") == true)
    }

    @Test func readsDecimalCommasWhenAsked() throws {
        #expect(try usd.parse("12,50", decimalSeparator: ",") == cents(1250))
        #expect(throws: MoneyError.self) { try usd.parse("12.50", decimalSeparator: ",") }
    }

    @Test func followsTheCurrencysMinorDigits() throws {
        let yen = try Currency(code: "jpy")
        let dinar = try Currency(code: "KWD")
        #expect(yen.minorDigits == 0 && dinar.minorDigits == 3)
        #expect(try yen.parse("500") == cents(500))
        #expect(throws: MoneyError.self) { try yen.parse("500.5") }
        #expect(try dinar.parse("1.234") == cents(1234))
        #expect(yen.format(cents(500)) == "500")
        #expect(dinar.format(cents(-1234)) == "-1.234")
    }

    @Test(
        arguments: [
            (123450, "1234.50"), (-5, "-0.05"), (0, "0.00"), (100, "1.00"), (Int64.min, "-92233720368547758.08"),
        ] as [(Int64, String)]
    )
    func formatsWithExactlyTheMinorDigits(minor: Int64, text: String) {
        #expect(usd.format(cents(minor)) == text)
    }

    @Test func formatThenParseGivesTheSameAmount() throws {
        var random = SeededRandom(seed: 1)
        for _ in 0..<5_000 {
            let money = Money(minorUnits: Int64.random(in: .min ... .max, using: &random))
            #expect(try usd.parse(usd.format(money)) == money)
        }
    }

    @Test func refusesBadCurrencies() {
        #expect(throws: CurrencyError.invalidCode("US")) { try Currency(code: "US") }
        #expect(throws: CurrencyError.invalidCode("U$D")) { try Currency(code: "U$D") }
        #expect(throws: CurrencyError.invalidDigits(7)) { try Currency(code: "USD", minorDigits: 7) }
    }
}

@Suite struct MoneyArithmeticTests {
    @Test func overflowIsAnErrorNeverAWrappedNumber() {
        #expect(throws: MoneyError.self) { try Money(minorUnits: .max).adding(cents(1)) }
        #expect(throws: MoneyError.self) { try Money(minorUnits: .min).subtracting(cents(1)) }
        #expect(throws: MoneyError.self) { try Money(minorUnits: .max / 2 + 1).multiplied(by: 2) }
        #expect(throws: MoneyError.self) { try Money(minorUnits: .min).negated() }
        #expect(throws: MoneyError.self) { try Money.sum([Money(minorUnits: .max), cents(1)]) }
    }

    @Test func exactArithmetic() throws {
        #expect(try cents(1999).multiplied(by: 3) == cents(5997))
        #expect(try cents(-5).negated() == cents(5))
        #expect(try Money.sum([cents(10), cents(-3), cents(7)]) == cents(14))
    }
}

@Suite struct ShareTests {
    @Test(
        arguments: [
            ("40", 4000), ("37.5", 3750), ("37.50%", 3750), ("0", 0), ("100", 10000), ("0.01", 1), (" 55 % ", 5500),
        ] as [(String, Int)]
    )
    func parsesPercentages(text: String, basisPoints: Int) throws {
        #expect(try Share(parsing: text).basisPoints == basisPoints)
    }

    @Test(arguments: ["100.01", "37.555", "-5", "abc", "", "1e2", "40.", "1000"])
    func refusesBadPercentages(text: String) {
        #expect(throws: ShareError.self) { try Share(parsing: text) }
    }

    @Test func formatsWithTwoDecimals() throws {
        #expect(try Share(basisPoints: 3750).description == "37.50%")
        #expect(try Share(basisPoints: 5).description == "0.05%")
        #expect(throws: ShareError.self) { try Share(basisPoints: 10_001) }
    }
}

import CommissionCore
import Testing

/// How her pages write amounts and dates, and read what she types (`LocaleStyle`).
@Suite struct LocaleStyleTests {
    static let eur = try! Currency(code: "EUR")
    static let jpy = try! Currency(code: "JPY")

    @Test(arguments: [
        ("en_US", "USD", Int64(123_450), "$1,234.50"),
        ("en_US", "USD", Int64(-1_980), "\u{2212}$19.80"),
        ("en_GB", "GBP", Int64(5_000), "£50.00"),
        ("de_DE", "EUR", Int64(123_450), "1.234,50\u{00A0}€"),
        ("en_US", "EUR", Int64(123_456_789), "€1,234,567.89"),
        ("ja_JP", "JPY", Int64(1_500), "¥1,500"),
        ("de_CH", "CHF", Int64(123_450), "CHF\u{00A0}1’234.50"),
    ])
    func amountsCarryTheCurrencysSignAndGrouping(
        _ locale: String,
        _ code: String,
        _ minor: Int64,
        _ expected: String
    ) throws {
        let style = LocaleStyle(identifier: locale, currency: try Currency(code: code))
        #expect(style.format(Money(minorUnits: minor)) == expected)
    }

    /// A period in few words for a phone's column: a month by its name, its days otherwise.
    @Test func aPeriodInFewWords() throws {
        let us = LocaleStyle(identifier: "en_US", currency: .usd),
            de = LocaleStyle(identifier: "de_DE", currency: Self.eur)
        func period(_ start: String, _ end: String) throws -> PayPeriod {
            PayPeriod(start: try Day(parsing: start), end: try Day(parsing: end))
        }
        #expect(us.formatShort(try period("2026-11-01", "2026-11-30")) == "\(us.monthName(11)) 2026")
        #expect(us.formatShort(try period("2026-11-16", "2026-11-30")) == "\(us.monthName(11)) 16–30, 2026")
        #expect(de.formatShort(try period("2026-11-01", "2026-11-15")) == "1.–15. \(de.monthName(11)) 2026")
        #expect(
            us.formatShort(try period("2026-10-27", "2026-11-09"))
                == "\(us.monthName(10)) 27 – \(us.monthName(11)) 9, 2026"
        )
        #expect(us.formatShort(try period("2026-12-28", "2027-01-10")) == "12/28/2026 – 01/10/2027")
        #expect(us.formatShort(try period("2026-02-01", "2026-02-28")) == "\(us.monthName(2)) 2026")
    }

    @Test("Counts grouped as her locale groups them; differences signed with a real minus")
    func countsAndSignedDifferences() {
        let us = LocaleStyle(identifier: "en_US", currency: .usd),
            de = LocaleStyle(identifier: "de_DE", currency: Self.eur)
        #expect(
            us.formatCount(1_039) == "1,039" && us.formatCount(999) == "999" && us.formatCount(1_234_567) == "1,234,567"
        )
        #expect(de.formatCount(1_039) == "1.039")
        #expect(
            us.formatSigned(Money(minorUnits: -1_200)) == "\u{2212}$12.00"
                && us.formatSigned(Money(minorUnits: 500)) == "+$5.00"
                && us.formatSigned(.zero) == "$0.00"
        )
    }

    @Test("The input field gets the plain amount in her decimal separator") func inputFieldSeparator() {
        #expect(
            LocaleStyle(identifier: "de_DE", currency: Self.eur).formatInput(Money(minorUnits: 123_450)) == "1234,50"
        )
        #expect(LocaleStyle(identifier: "en_US", currency: .usd).formatInput(Money(minorUnits: 5_000)) == "50.00")
    }

    /// What she may type, read exactly: a comma or a point, grouping, a symbol.
    @Test(arguments: [
        ("en_US", "1,50", Int64(150)), ("en_US", "1.50", 150), ("en_US", "50", 5_000), ("en_US", "1,500", 150_000),
        ("en_US", "1,234.50", 123_450), ("en_US", "$1,234.50", 123_450), ("en_US", "1,234,567", 123_456_700),
        ("en_US", "-19.80", -1_980),
        ("de_DE", "1,50", 150), ("de_DE", "1.50", 150), ("de_DE", "1.500", 150_000), ("de_DE", "1.234,50", 123_450),
        ("de_DE", "1.234,50 €", 123_450), ("de_DE", "1 234,50", 123_450), ("de_CH", "1'234.50", 123_450),
        ("de_DE", "12,5", 1_250),
        ("fr_FR", "1\u{202F}234,50", 123_450), ("en_US", "0.05", 5),
    ])
    func typedAmountsReadExactly(_ locale: String, _ text: String, _ minor: Int64) throws {
        let currency = locale == "en_US" ? Currency.usd : locale == "de_CH" ? try Currency(code: "CHF") : Self.eur
        #expect(
            try LocaleStyle(identifier: locale, currency: currency).parse(text) == Money(minorUnits: minor),
            "\(locale) \(text)"
        )
    }

    @Test(arguments: [
        ("de_DE", "1,500"), ("en_US", "1.500"), ("en_US", "1,23,4"), ("en_US", "12.345"), ("en_US", "abc"),
        ("en_US", ""),
        ("en_US", "1,2345"), ("de_DE", "1.23.45"),
    ])
    func ambiguousOrMalformedAmountsAreRefusedWithAReason(_ locale: String, _ text: String) {
        #expect(throws: MoneyError.self, "\(locale) \(text)") {
            _ = try LocaleStyle(identifier: locale, currency: locale == "en_US" ? .usd : Self.eur).parse(text)
        }
    }

    @Test("A zero decimal currency reads three digits after a separator as grouping") func zeroDecimalCurrencyGrouping()
        throws
    {
        #expect(try LocaleStyle(identifier: "ja_JP", currency: Self.jpy).parse("1,500") == Money(minorUnits: 1_500))
    }

    @Test(arguments: [
        ("en_US", "11/23/2026"), ("en_GB", "23/11/2026"), ("de_DE", "23.11.2026"), ("sv_SE", "2026-11-23"),
        ("ja_JP", "2026/11/23"),
    ])
    func datesInHerOrder(_ locale: String, _ expected: String) throws {
        #expect(LocaleStyle(identifier: locale, currency: .usd).format(try Day(parsing: "2026-11-23")) == expected)
    }

    @Test func monthNamesAndKnownLocales() {
        #expect(LocaleStyle(identifier: "en_US", currency: .usd).monthName(11) == "Nov")
        // The pages speak English: a German or French book's month is named in English, in its own order.
        let de = LocaleStyle(identifier: "de_DE", currency: .usd), fr = LocaleStyle(identifier: "fr_FR", currency: .usd)
        #expect(de.monthName(10) == "Oct" && de.monthName(3) == "Mar" && fr.monthName(2) == "Feb")
        #expect(de.formatShort(try! Day(parsing: "2026-10-01")) == "1. Oct")
        #expect(LocaleStyle.isKnown("de_DE") && LocaleStyle.isKnown("en-GB") && !LocaleStyle.isKnown("xx_NOWHERE"))
    }
}

/// The share chart's percentages add up to 100.
@Suite struct PercentagesTests {
    @Test func percentagesAddUpByLargestRemainder() {
        // 32.4 + 40.3 + 7.6 + 19.7: rounded down 32 + 40 + 7 + 19 = 98; the two largest remainders (.7, .6) get the 2 points.
        #expect(Percentages.largestRemainder([324, 403, 76, 197]) == [32, 40, 8, 20])
        #expect(Percentages.largestRemainder([1, 1, 1]) == [34, 33, 33])
        #expect(Percentages.largestRemainder([0, 0]) == [0, 0])
        #expect(Percentages.largestRemainder([500, -200]) == [100, 0])
        #expect(Percentages.largestRemainder([.max, .max]) == [50, 50])
    }

    @Test func everyListAddsUpTo100() {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<500 {
            let amounts = (0..<Int(random.next() % 9 + 1)).map { _ in Int64(random.next() % 1_000_000) }
            let shares = Percentages.largestRemainder(amounts)
            #expect(
                amounts.allSatisfy { $0 == 0 } ? shares.allSatisfy { $0 == 0 } : shares.reduce(0, +) == 100,
                "\(amounts)"
            )
        }
    }
}

/// What a clinic owes, worked by hand (`Arrears`).
@Suite struct ArrearsTests {
    @Test("The usual lag is the median of the payouts, and never below a day") func usualLag() {
        #expect(Arrears.usualLag([]) == Arrears.defaultDueAfterDays)
        #expect(Arrears.usualLag([10, 30, 12]) == 12)
        #expect(Arrears.usualLag([10, 30, 12, 40]) == 12)  // the lower middle of an even count
        #expect(Arrears.usualLag([-5, -3]) == 1)  // paid ahead: due the day after a period ends
    }

    @Test func fromSums() throws {
        // 36.00 expected through the current period, 24.00 of it in the periods not yet due; 12.00 paid, none of it for those.
        let arrears = try Arrears(
            expected: Money(minorUnits: 3600),
            received: Money(minorUnits: 1200),
            expectedNotDue: Money(minorUnits: 2400),
            receivedNotDue: .zero,
            dueAfterDays: 10
        )
        #expect(arrears.owed == Money(minorUnits: 2400) && arrears.overdue == .zero)
        // An older period short by 5.00: overdue.
        let short = try Arrears(
            expected: Money(minorUnits: 3600),
            received: Money(minorUnits: 700),
            expectedNotDue: Money(minorUnits: 2400),
            receivedNotDue: .zero,
            dueAfterDays: 10
        )
        #expect(short.owed == Money(minorUnits: 2900) && short.overdue == Money(minorUnits: 500))
    }

    @Test func theFirstDayNotDue() throws {
        // Monthly, paid 10 days after: on 2026-11-23 October (ended 10-31, due 11-10) is due; November is not.
        #expect(
            Arrears.notDueFrom(PayCalendar(.monthly), today: try Day(parsing: "2026-11-23"), dueAfterDays: 10)
                == (try Day(parsing: "2026-11-01"))
        )
        // On 2026-11-09 October is not due yet.
        #expect(
            Arrears.notDueFrom(PayCalendar(.monthly), today: try Day(parsing: "2026-11-09"), dueAfterDays: 10)
                == (try Day(parsing: "2026-10-01"))
        )
    }
}

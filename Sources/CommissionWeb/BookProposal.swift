import CommissionCore
import CommissionStore
import Foundation

/// What the set-up form proposes for a new book: the language and region her browser asks for
/// (`Accept-Language`), that region's currency, and a time zone (the page's script puts the
/// phone's own in its place, from `Intl`). She changes any of them before the book is made. A
/// book that already holds amounts (imported before its first visit) keeps its currency.
struct BookProposal {
    var currency: String
    var timeZone: String
    var locale: String
    /// The book's currency when it already holds amounts: the only one it takes.
    let lockedCurrency: String?

    /// The currencies the form lists first (any other ISO code is taken too, from Settings).
    static let currencies = [
        "EUR", "USD", "GBP", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "JPY", "BRL", "MXN", "ZAR",
    ]

    init(acceptLanguage: String?, current: BookSettings, holdsAmounts: Bool) {
        let asked = Self.locale(acceptLanguage) ?? current.localeIdentifier
        locale = asked
        lockedCurrency = holdsAmounts ? current.currency.code : nil
        currency = lockedCurrency ?? Locale(identifier: asked).currency?.identifier ?? current.currency.code
        timeZone = current.timeZoneIdentifier
    }

    /// The proposal for `store`'s book, for a browser that asks for `acceptLanguage`.
    static func of(_ store: any CommissionStore, acceptLanguage: String?) async throws -> BookProposal {
        let holdsAmounts = try await !store.products(ProductQuery(includeArchived: true, page: Page(limit: 1))).isEmpty
        return BookProposal(
            acceptLanguage: acceptLanguage,
            current: try await store.settings(),
            holdsAmounts: holdsAmounts
        )
    }

    /// The first locale of `Accept-Language` ("de-DE,de;q=0.9,en;q=0.8") the form offers, or one of
    /// the same language.
    static func locale(_ header: String?) -> String? {
        let asked = (header ?? "").split(separator: ",").map {
            $0.split(separator: ";").first.map {
                String($0).trimmingWhitespace().replacingOccurrences(of: "-", with: "_")
            } ?? ""
        }.filter { !$0.isEmpty && $0 != "*" }
        let offered = LocaleStyle.common.map(\.identifier)
        for tag in asked {
            if let exact = offered.first(where: { $0.caseInsensitiveCompare(tag) == .orderedSame }) { return exact }
            let language = tag.split(separator: "_").first.map(String.init)?.lowercased() ?? ""
            if let same = offered.first(where: { $0.hasPrefix(language + "_") }) { return same }
        }
        return nil
    }

    /// What she chose on the form.
    mutating func take(_ form: Form) {
        if let code = form["currency"], lockedCurrency == nil { currency = code.uppercased() }
        if let zone = form["timeZone"] { timeZone = zone }
        if let asked = form["locale"] { locale = asked }
    }

    /// The book's settings, or the sentence that refuses them.
    func settings() throws -> BookSettings {
        let settings = BookSettings(
            currency: try Currency(code: currency),
            timeZoneIdentifier: timeZone,
            localeIdentifier: locale
        )
        try StoreInput.check(settings)
        return settings
    }

    /// The form's values: each list with her choice selected.
    /// The set-up page's fields for the book (`setup.mustache`): her currency among the common
    /// ones (or the one the book already holds), her zone, her locale.
    func view(
        username: String,
        propose: Bool,
        sampleOffered: Bool,
        firstClinic: FirstClinicFields?,
        csrf: String
    ) -> SetupPageView {
        let names = Locale(identifier: "en_US")
        var codes = lockedCurrency.map { [$0] } ?? Self.currencies
        if !codes.contains(currency) { codes.insert(currency, at: 0) }
        return SetupPageView(
            username: username,
            propose: propose,
            sampleOffered: sampleOffered,
            lockedCurrency: lockedCurrency,
            currencies: codes.map {
                .init(code: $0, name: names.localizedString(forCurrencyCode: $0) ?? $0, selected: $0 == currency)
            },
            timeZone: timeZone,
            locales: LocaleStyle.common.map {
                .init(id: $0.identifier, name: $0.name, selected: $0.identifier == locale)
            },
            firstClinic: firstClinic,
            csrf: csrf
        )
    }
}

/// The set-up page (`setup.mustache`): her account, her book's currency, zone and locale, and her first clinic.
package struct SetupPageView: PageView {
    package struct Currency: Sendable, TemplateValues {
        let code: String, name: String, selected: Bool
        package init(code: String, name: String, selected: Bool) {
            (self.code, self.name, self.selected) = (code, name, selected)
        }
    }

    /// A locale to choose, by its identifier (`de_DE`).
    package struct Choice: Sendable, TemplateValues {
        let id: String, name: String, selected: Bool
        package init(id: String, name: String, selected: Bool) {
            (self.id, self.name, self.selected) = (id, name, selected)
        }
    }

    let username: String
    /// The page may replace the time zone with the phone's own (app.js), on its first drawing.
    let propose: Bool
    let sampleOffered: Bool
    /// The currency the book already holds amounts in, which it keeps.
    let lockedCurrency: String?
    let currencies: [Currency]
    let timeZone: String
    let locales: [Choice]
    let firstClinic: FirstClinicFields?
    let csrf: String

    package init(
        username: String,
        propose: Bool,
        sampleOffered: Bool,
        lockedCurrency: String?,
        currencies: [Currency],
        timeZone: String,
        locales: [Choice],
        firstClinic: FirstClinicFields?,
        csrf: String
    ) {
        (self.username, self.propose, self.sampleOffered, self.lockedCurrency, self.currencies) = (
            username, propose, sampleOffered, lockedCurrency, currencies
        )
        (self.timeZone, self.locales, self.firstClinic, self.csrf) = (timeZone, locales, firstClinic, csrf)
    }
}

import CommissionCore
import CommissionStore
import Foundation

/// Which field of a refused form its sentence is about, for the form's template to mark it
/// beside the sentence at the top (`aria-invalid="true" aria-describedby="refusal" autofocus`):
/// a flag for each name the pages' forms give their fields (``Problem/field``). A form drawn
/// afresh, or refused about none of its fields, marks none.
package struct FieldMarks: Sendable, TemplateValues {
    let name: Bool, sku: Bool, price: Bool, cost: Bool
    let clinic: Bool, product: Bool, date: Bool, quantity: Bool, discount: Bool, note: Bool
    let basis: Bool, share: Bool, tiers: Bool, from: Bool, until: Bool, kind: Bool, value: Bool
    let scheduleKind: Bool, weekday: Bool, anchor: Bool, scheduleFrom: Bool
    let period: Bool, amount: Bool, received: Bool, reference: Bool
    let currency: Bool, timeZone: Bool, locale: Bool, rule: Bool, scope: Bool
    let text: Bool, dates: Bool, mapping: Bool, again: Bool

    /// The field's name as its form gives it (`price`, `from`…); nil or another name marks none.
    package init(_ field: String? = nil) {
        let field = field ?? ""
        (name, sku, price, cost) = (field == "name", field == "sku", field == "price", field == "cost")
        (clinic, product, date, quantity, discount, note) = (
            field == "clinic", field == "product", field == "date", field == "quantity", field == "discount",
            field == "note"
        )
        (basis, share, tiers, from, until, kind, value) = (
            field == "basis", field == "share", field == "tiers", field == "from", field == "until",
            field == "kind", field == "value"
        )
        (scheduleKind, weekday, anchor, scheduleFrom) = (
            field == "scheduleKind", field == "weekday", field == "anchor", field == "scheduleFrom"
        )
        (period, amount, received, reference) = (
            field == "period", field == "amount", field == "received", field == "reference"
        )
        (currency, timeZone, locale, rule, scope) = (
            field == "currency", field == "timeZone", field == "locale", field == "rule", field == "scope"
        )
        (text, dates, mapping, again) = (field == "text", field == "dates", field == "mapping", field == "again")
    }
}

extension LocaleStyle {
    /// Her locale writes a date's day first (`25.02.2026`): a file of hers likely does too.
    var writesDayFirst: Bool { dateFields.first == .day }
    /// Her locale writes amounts with a decimal comma (`12,50`).
    var usesDecimalComma: Bool { decimalSeparator == "," }
}

extension Problem {
    /// Runs `body` (the reading of one field of a form: a date, an amount, a share), naming
    /// `field` as what its refusal is about, for the page to mark it. The refusal's sentence is
    /// the one it would have had; a failure of the server (a 5xx) is left as it is.
    static func about<T>(_ field: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            var problem = Problem.from(error, on: .page)
            guard problem.status < 500 else { throw error }
            problem.field = field
            throw problem
        }
    }

    /// The refusal with its field named as the form names it: `renamed` maps the store's name
    /// (`amount`, `date`…) to the form's (`value`, `period`…), where the form says it otherwise.
    func field(renaming renamed: [String: String]) -> String? {
        field.map { renamed[$0] ?? $0 }
    }
}

import CommissionCore
import CommissionStore

/// Which of a sale's figures a form asks about: all of a new sale's, only what an edit changed
/// (an old sale saved again as it was is never questioned).
struct AskedFigures: OptionSet, Sendable {
    let rawValue: Int
    static let date = AskedFigures(rawValue: 1)
    static let price = AskedFigures(rawValue: 2)
    static let quantity = AskedFigures(rawValue: 4)
    static let all: AskedFigures = [.date, .price, .quantity]

    /// What an edit of `old` into `draft` changed: the date, the price (a new price, or the same
    /// price at another clinic or of another product), the quantity.
    static func changed(from old: Sale, to draft: SaleDraft) -> AskedFigures {
        var asked: AskedFigures = []
        if draft.date != old.date { asked.insert(.date) }
        if draft.unitPrice != old.line.unitPrice || draft.clinicID != old.clinicID || draft.productID != old.productID {
            asked.insert(.price)
        }
        if draft.quantity != old.quantity { asked.insert(.quantity) }
        return asked
    }
}

extension WebApp {
    /// How many of her latest sales the quantity of a sale is held to.
    static let usualQuantitySample = 200

    /// The question a sale's figures ask before it is saved (a 409 whose `confirm` is set, about its
    /// field), or nil when nothing is unusual: a date still to come; a price more than five times, or
    /// under a fifth of, `usualPrice` (the clinic's price of the product); a quantity above any of
    /// her latest sales. The same form sent with `confirmed` saves it. `asking`: which figures are
    /// hers to be asked about.
    func unusual(
        _ draft: SaleDraft,
        usualPrice: Money?,
        settings: BookSettings,
        asking: AskedFigures = .all
    ) async throws -> Problem? {
        let style = settings.style
        func ask(_ sentence: String, _ field: String) -> Problem {
            var problem = Problem(.conflict, sentence + " Save anyway?")
            problem.field = field
            problem.confirm = true
            return problem
        }
        if asking.contains(.date), draft.date > settings.today() {
            return ask(
                "The date is \(draft.date.weekday.shortName) \(style.format(draft.date)), a day still to come.",
                "date"
            )
        }
        if asking.contains(.price), let typed = draft.unitPrice, let usual = usualPrice, usual.isPositive {
            // try?: an overflow is as unusual as a price gets: it is asked about, as a high one
            let high = (try? typed.magnitude() > usual.multiplied(by: 5)) ?? true
            // try?: a price five times over that does not fit is above any usual price: not under a fifth of it
            let low = (try? typed.magnitude().multiplied(by: 5) < usual) ?? false
            if high || low {
                let product = try await store.product(draft.productID).name
                let clinic = try await store.clinic(draft.clinicID).name
                return ask(
                    "\(style.format(typed)) is \(high ? "more than five times" : "under a fifth of") \(product)'s price at \(clinic) (\(style.format(usual))).",
                    "price"
                )
            }
        }
        if asking.contains(.quantity), draft.quantity.magnitude > 2 {
            let latest = try await store.sales(
                SaleQuery(order: .latestRecorded, page: Page(limit: Self.usualQuantitySample))
            )
            let most = latest.map(\.quantity.magnitude).max() ?? 0
            if most > 0, draft.quantity.magnitude > most {
                return ask(
                    "\(draft.quantity.magnitude) units at once is more than you have sold at once before (\(most) at most).",
                    "quantity"
                )
            }
        }
        return nil
    }

    /// The clinic's price of the product on the day (its price list's entry in force, else the
    /// product's own): what a sale's price is held to.
    func listPrice(of product: Product.ID, at clinic: Clinic.ID, on day: Day) async throws -> Money {
        let entries = try await store.prices(PriceQuery(clinicID: clinic, productID: product))
        return SalePrice(try await store.product(product), at: clinic, on: day, entries: entries).unitPrice
    }
}

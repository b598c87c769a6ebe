import CommissionCore

/// The kinds of record a store keeps, for error messages and change notifications.
public enum StoreTable: String, Sendable, Hashable, CaseIterable, Codable {
    case book, clinics, products, terms, sales, payouts, periods, prices, deductions
}

/// Everything a store refuses, each with a sentence a user can act on.
///
/// A store never shows a raw database error: those become ``storage(_:)``, whose text is generic,
/// while the implementation logs the details.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(StoreTable, id: Int64)
    case unknownClinic(String)
    case unknownProduct(String)
    /// No column mapping (``ImportMapping``) is saved under this name.
    case unknownMapping(String)
    case duplicateName(StoreTable, String)
    case duplicateSKU(String)
    case archived(StoreTable, String)
    case noTermsInForce(clinic: String, product: String, on: Day)
    case periodClosed(clinic: String, period: PayPeriod)
    case notAPeriod(clinic: String, period: PayPeriod, schedule: PaySchedule)
    case hasHistory(StoreTable, name: String, sales: Int)
    case currencyLocked(current: String)
    case invalid(field: String, reason: String)
    case importRejected([ImportProblem], total: Int)
    /// A file imported before, byte for byte (its digest is on an earlier import's audit entry).
    case alreadyImported(file: String, on: Day)
    /// One stored row holds a value that cannot be read (the database was changed outside
    /// Commission): `what` names the row and the value. The rest of the book stays usable.
    case unreadable(String)
    case storage(String)
    /// The database does not answer now (it went away, or a connection to it was lost): nothing
    /// was changed, and the same request may be sent again in a few seconds. A server answers 503
    /// with `Retry-After`, and says the outage in its log once, not once per refused request.
    case unavailable(String)

    /// Whether the database is away: a refusal to try again later, not a failure to look into.
    public var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// Whether a name was not found (a clinic's or a product's).
    var isUnknownName: Bool {
        switch self {
        case .unknownClinic, .unknownProduct: true
        default: false
        }
    }

    /// Whether the store failed rather than refused (``storage(_:)``, ``unavailable(_:)``: a server
    /// answers 503): the same request may succeed later, and says nothing of the record.
    public var isServerFailure: Bool {
        switch self {
        case .storage, .unavailable: true
        default: false
        }
    }

    /// The sentence that refuses a file imported before; `again` says how to import it all the
    /// same on the surface that says it ("add --again", "add again=true to the request").
    public static func alreadyImported(_ file: String, on day: Day, again: String) -> String {
        "\(file) was imported before, on \(day) (the same file, byte for byte): nothing was imported, so that no sale is recorded twice. To import it again all the same, \(again)."
    }

    /// The sentence as the command line says it (``message(on:)``).
    public var description: String { message(on: .commandLine) }

    /// The sentence as `surface` says it: each refusal says what to do where she is — a command
    /// on the command line, a page and its form in the web app, a request in the API — and never
    /// sends her to another surface.
    public func message(on surface: Surface) -> String {
        switch self {
        case .notFound(let table, let id):
            return "There is no \(table.singular) with id \(id)."
        case .unknownClinic(let name):
            return "There is no clinic named \"\(name)\". "
                + surface.say(
                    commandLine: "See `commission clinic list`, or add it with `commission clinic add`.",
                    page: "Add it under Clinics & products first.",
                    api: "GET /api/v1/clinics lists them; POST /api/v1/clinics adds one."
                )
        case .unknownProduct(let name):
            return "There is no product named \"\(name)\". "
                + surface.say(
                    commandLine: "See `commission product list`, or add it with `commission product add`.",
                    page: "Add it under Clinics & products first.",
                    api: "GET /api/v1/products lists them; POST /api/v1/products adds one."
                )
        case .unknownMapping(let name):
            return "There is no saved column mapping named \"\(name)\". "
                + surface.say(
                    commandLine:
                        "See `commission mapping list`, or save one with `commission import … --map HEADER=FIELD --save-mapping NAME`.",
                    page:
                        "Choose one of the saved mappings, or say which column holds what and keep the mapping under that name.",
                    api: "mapping= names a mapping saved in this book by name; leave it out to read the file's headers."
                )
        case .duplicateName(let table, let name):
            return "A \(table.singular) named \"\(name)\" already exists (names are compared without regard to case)."
        case .duplicateSKU(let sku):
            return "Another product already has the SKU \"\(sku)\"."
        case .archived(let table, let name):
            return "The \(table.singular) \"\(name)\" is archived: restore it before recording new sales with it."
        case .noTermsInForce(let clinic, let product, let day):
            return "No commission terms for \(clinic) on \(day) (product \(product)). "
                + surface.say(
                    commandLine: "Add terms with `commission terms add`, or mark the sale as no commission.",
                    page: "Add \(clinic)'s terms from that day on, or mark the sale as no commission.",
                    api: "Add terms with POST /api/v1/terms, or send the sale with noCommission."
                )
        case .periodClosed(let clinic, let period):
            return "The pay period \(period) of \(clinic) is closed: "
                + surface.say(
                    commandLine: "reopen it with `commission period reopen` before changing it.",
                    page: "reopen it on the Payouts page before changing it.",
                    api: "reopen it with POST /api/v1/clinics/{id}/reopen before changing it."
                )
        case .notAPeriod(let clinic, let period, let schedule):
            return "\(period) is not a pay period of \(clinic), which is paid \(schedule)."
        case .hasHistory(let table, let name, let sales):
            return
                "The \(table.singular) \"\(name)\" has \(sales) sale\(sales == 1 ? "" : "s") on record and cannot be deleted: archive it instead."
        case .currencyLocked(let current):
            return "The book already holds amounts in \(current): its currency cannot change."
        case .invalid(let field, let reason):
            return "The \(field) is not valid: \(reason)"
        case .alreadyImported(let file, let day):
            return Self.alreadyImported(
                file,
                on: day,
                again: surface.say(
                    commandLine: "add --again",
                    page: "tick “Import it again” and import",
                    api: "add again=true to the request"
                )
            )
        case .importRejected(let problems, let total):
            let shown = ImportProblem.grouped(problems, on: surface).map(\.description).joined(separator: "\n  ")
            let more = total > problems.count ? "\n  … and \(total - problems.count) more" : ""
            return "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s").\n  \(shown)\(more)"
        case .unreadable(let what):
            return
                "\(what) cannot be read: the book was changed outside Commission. Correct or remove that row; the rest of the book is unaffected."
        case .storage(let summary):
            return "The database could not complete the operation (\(summary)). Nothing was changed."
        case .unavailable(let summary):
            return "The database does not answer now (\(summary)). Nothing was changed: try again in a few seconds."
        }
    }
}

/// Where a sentence is told: the command line, a page of the web app (and its script), or the
/// JSON API. Each says what to do in its own terms.
public enum Surface: Sendable, Hashable, CaseIterable {
    case commandLine, page, api

    /// This surface's version of a sentence.
    public func say(
        commandLine: @autoclosure () -> String,
        page: @autoclosure () -> String,
        api: @autoclosure () -> String
    ) -> String {
        switch self {
        case .commandLine: commandLine()
        case .page: page()
        case .api: api()
        }
    }
}

extension StoreTable {
    /// The name of one record of this table, for sentences.
    public var singular: String {
        switch self {
        case .book: "book"
        case .clinics: "clinic"
        case .products: "product"
        case .terms: "terms"
        case .sales: "sale"
        case .payouts: "payout"
        case .periods: "pay period"
        case .prices: "price-list entry"
        case .deductions: "deduction"
        }
    }
}

extension Day {
    /// A day as a store wrote it (`Day/reading(stored:)`); `row` names the row and column it
    /// comes from ("Sale 17's date"), for the error when it cannot be read.
    public static func stored(_ text: String, row: @autoclosure () -> String) throws -> Day {
        guard let day = Day.reading(stored: text) else { throw StoreError.unreadable("\(row()) (\"\(text)\")") }
        return day
    }
}

import CommissionCore

/// A ``StoreError`` as data: what the server puts in a problem's `error` member and a remote store
/// (`CommissionClient`) turns back into the same `StoreError`, so that an app catches one error
/// whichever store it talks to. The core's refusals a store passes on (`SaleLineError`,
/// `MoneyError`, `DateOutOfRange`) travel the same way.
///
/// One flat object: `code` names the case, the other members are its values (absent when the case
/// has none of them). A code this build does not know is read as ``StoreError/storage(_:)`` with
/// the server's sentence, never as a crash.
public struct StoreErrorWire: Codable, Sendable, Hashable {
    public var code: String
    public var table: String?
    public var id: Int64?
    public var name: String?
    public var clinic: String?
    public var product: String?
    public var day: String?
    public var periodStart: String?
    public var periodEnd: String?
    public var schedule: String?
    public var sales: Int?
    public var field: String?
    public var reason: String?
    public var problems: [Problem]?
    public var total: Int?
    /// A refused date's range: its last day.
    public var latest: String?
    /// A refused amount and the largest one taken, in minor units; a refused quantity.
    public var amount: Int64?
    public var limit: Int64?
    public var quantity: Int64?
    /// A refused discount and its line's total, in minor units, and the currency.
    public var discount: Int64?
    public var line: Int64?
    public var currency: String?

    /// One row problem of a refused import: its reason as the API says it, and the store's
    /// refusal of the row as data (`cause`), which a client says in its own words.
    public struct Problem: Codable, Sendable, Hashable {
        public var line: Int
        public var column: String?
        public var reason: String
        public var file: String?
        public var fileIndex: Int?
        public var cause: StoreErrorWire?
    }

    init(code: String) { self.code = code }

    /// The error as data, when it is one a store's caller may meet: a ``StoreError`` or a refusal
    /// of the core.
    public init?(_ error: any Error) {
        switch error {
        case let error as StoreError: self.init(error)
        case let error as SaleLineError:
            switch error {
            case .zeroQuantity: self.init(code: "zeroQuantity")
            case .negativeAmount(let field):
                self.init(code: "negativeAmount")
                self.field = field
            case .discountExceedsLine(let discount, let line, let currency):
                self.init(code: "discountExceedsLine")
                self.discount = discount.minorUnits
                self.line = line.minorUnits
                self.currency = currency?.code
            case .quantityTooLarge(let quantity):
                self.init(code: "quantityTooLarge")
                self.quantity = quantity
            case .amountTooLarge(let field, let amount, let limit, let currency):
                self.init(code: "amountTooLarge")
                self.field = field
                self.amount = amount.minorUnits
                self.limit = limit.minorUnits
                self.currency = currency?.code
            }
        case let error as MoneyError:
            switch error {
            case .overflow(let what):
                self.init(code: "moneyOverflow")
                self.reason = what
            case .malformed(let text, let reason):
                self.init(code: "moneyMalformed")
                self.name = text
                self.reason = reason
            }
        case let error as DateOutOfRange:
            self.init(code: "dateOutOfRange")
            self.field = error.field
            self.day = error.day.description
            self.latest = error.accepted.latest.description
        default: return nil
        }
    }

    /// The error this stands for, whichever kind it is (nil as for ``error``).
    public var anyError: (any Error)? {
        switch code {
        case "zeroQuantity": return SaleLineError.zeroQuantity
        case "negativeAmount": return field.map { SaleLineError.negativeAmount(field: $0) }
        case "discountExceedsLine":
            guard let discount, let line else { return nil }
            return SaleLineError.discountExceedsLine(
                discount: Money(minorUnits: discount),
                line: Money(minorUnits: line),
                // try?: an unknown currency code leaves the amounts unnamed in the message
                currency: currency.flatMap { try? Currency(code: $0) }
            )
        case "quantityTooLarge": return quantity.map { SaleLineError.quantityTooLarge($0) }
        case "amountTooLarge":
            guard let field, let amount, let limit else { return nil }
            return SaleLineError.amountTooLarge(
                field: field,
                amount: Money(minorUnits: amount),
                limit: Money(minorUnits: limit),
                // try?: an unknown currency code leaves the amounts unnamed in the message
                currency: currency.flatMap { try? Currency(code: $0) }
            )
        case "moneyOverflow": return reason.map { MoneyError.overflow($0) }
        case "moneyMalformed":
            guard let name, let reason else { return nil }
            return MoneyError.malformed(name, reason: reason)
        case "dateOutOfRange":
            // try?: a day it cannot read makes the error unknown (nil): the server's sentence is kept
            guard let field, let day = day.flatMap({ try? Day(parsing: $0) }),
                // try?: likewise, the latest day accepted
                let latest = latest.flatMap({ try? Day(parsing: $0) })
            else { return nil }
            return DateOutOfRange(field: field, day: day, accepted: AcceptedDays(latest: latest))
        default: return error
        }
    }

    public init(_ error: StoreError) {
        switch error {
        case .notFound(let table, let id):
            self.init(code: "notFound")
            self.table = table.rawValue
            self.id = id
        case .unknownClinic(let name):
            self.init(code: "unknownClinic")
            self.name = name
        case .unknownProduct(let name):
            self.init(code: "unknownProduct")
            self.name = name
        case .unknownMapping(let name):
            self.init(code: "unknownMapping")
            self.name = name
        case .duplicateName(let table, let name):
            self.init(code: "duplicateName")
            self.table = table.rawValue
            self.name = name
        case .duplicateSKU(let sku):
            self.init(code: "duplicateSKU")
            self.name = sku
        case .archived(let table, let name):
            self.init(code: "archived")
            self.table = table.rawValue
            self.name = name
        case .noTermsInForce(let clinic, let product, let day):
            self.init(code: "noTermsInForce")
            self.clinic = clinic
            self.product = product
            self.day = day.description
        case .periodClosed(let clinic, let period):
            self.init(code: "periodClosed")
            self.clinic = clinic
            self.period = period
        case .notAPeriod(let clinic, let period, let schedule):
            self.init(code: "notAPeriod")
            self.clinic = clinic
            self.period = period
            self.schedule = schedule.description
        case .hasHistory(let table, let name, let sales):
            self.init(code: "hasHistory")
            self.table = table.rawValue
            self.name = name
            self.sales = sales
        case .currencyLocked(let current):
            self.init(code: "currencyLocked")
            self.name = current
        case .invalid(let field, let reason):
            self.init(code: "invalid")
            self.field = field
            self.reason = reason
        case .importRejected(let problems, let total):
            self.init(code: "importRejected")
            self.total = total
            self.problems = problems.map {
                Problem(
                    line: $0.line,
                    column: $0.column,
                    reason: $0.reason(on: .api),
                    file: $0.file?.name,
                    fileIndex: $0.file?.index,
                    cause: $0.cause.map(StoreErrorWire.init)
                )
            }
        case .alreadyImported(let file, let day):
            self.init(code: "alreadyImported")
            self.name = file
            self.day = day.description
        case .unreadable(let what):
            self.init(code: "unreadable")
            self.reason = what
        case .storage(let summary):
            self.init(code: "storage")
            self.reason = summary
        case .unavailable(let summary):
            self.init(code: "unavailable")
            self.reason = summary
        }
    }

    private var period: PayPeriod? {
        get {
            // try?: a day it cannot read makes the period nil: the error is then unknown, the server's sentence kept
            guard let start = periodStart.flatMap({ try? Day(parsing: $0) }),
                // try?: likewise, the period's end
                let end = periodEnd.flatMap({ try? Day(parsing: $0) }),
                start <= end
            else { return nil }
            return PayPeriod(start: start, end: end)
        }
        set {
            periodStart = newValue?.start.description
            periodEnd = newValue?.end.description
        }
    }

    /// The error this stands for, or nil when a value it needs is missing or unreadable (the
    /// caller then keeps the server's sentence).
    public var error: StoreError? {
        let table = self.table.flatMap(StoreTable.init(rawValue:))
        // try?: a day it cannot read is nil: an error that needs one is then unknown, the server's sentence kept
        let day = self.day.flatMap { try? Day(parsing: $0) }
        switch code {
        case "notFound":
            guard let table, let id else { return nil }
            return .notFound(table, id: id)
        case "unknownClinic": return name.map { .unknownClinic($0) }
        case "unknownProduct": return name.map { .unknownProduct($0) }
        case "unknownMapping": return name.map { .unknownMapping($0) }
        case "duplicateName":
            guard let table, let name else { return nil }
            return .duplicateName(table, name)
        case "duplicateSKU": return name.map { .duplicateSKU($0) }
        case "archived":
            guard let table, let name else { return nil }
            return .archived(table, name)
        case "noTermsInForce":
            guard let clinic, let product, let day else { return nil }
            return .noTermsInForce(clinic: clinic, product: product, on: day)
        case "periodClosed":
            guard let clinic, let period else { return nil }
            return .periodClosed(clinic: clinic, period: period)
        case "notAPeriod":
            // try?: a schedule it cannot read makes the error unknown (nil): the server's sentence is kept
            guard let clinic, let period, let schedule = schedule.flatMap({ try? PaySchedule(parsing: $0) }) else {
                return nil
            }
            return .notAPeriod(clinic: clinic, period: period, schedule: schedule)
        case "hasHistory":
            guard let table, let name, let sales else { return nil }
            return .hasHistory(table, name: name, sales: sales)
        case "currencyLocked": return name.map { .currencyLocked(current: $0) }
        case "invalid":
            guard let field, let reason else { return nil }
            return .invalid(field: field, reason: reason)
        case "importRejected":
            guard let problems, let total else { return nil }
            return .importRejected(
                problems.map { problem in
                    ImportProblem(
                        line: problem.line,
                        column: problem.column,
                        reason: problem.cause?.error?.description ?? problem.reason,
                        file: problem.file.map { ImportFile(index: problem.fileIndex ?? 0, name: $0) },
                        cause: problem.cause?.error
                    )
                },
                total: total
            )
        case "alreadyImported":
            guard let name, let day else { return nil }
            return .alreadyImported(file: name, on: day)
        case "unreadable": return reason.map { .unreadable($0) }
        case "storage": return reason.map { .storage($0) }
        case "unavailable": return reason.map { .unavailable($0) }
        default: return nil
        }
    }
}

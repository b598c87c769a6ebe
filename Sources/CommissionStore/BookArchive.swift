import CommissionCore
import Foundation

// A whole book as a stream of records: how a book moves from one store to another (`commission
// migrate`), and the portable backup of any store (an archive file, `ArchiveFile`).
//
// A store streams its book out as a consistent snapshot (`BookArchiving.archive(into:)`), in the
// order a restore needs: the book's settings, clinics, products, terms, price-list entries, deductions, sales (in pages, by id),
// payouts, closed periods, the audit log (in pages, by id), accounts and API tokens. A restore takes
// the records in that order, in one transaction or into a scratch file swapped in at the end, so
// an archive that stops short or breaks a rule leaves the target as it was. Records carry the ids
// of the store they came from; a restore maps them to its own.

/// The book itself: its name (a PostgreSQL server's books have one; an SQLite book is named after
/// its file) and its settings.
public struct ArchivedBook: Sendable, Hashable {
    public var name: String
    public var settings: BookSettings

    public init(name: String, settings: BookSettings) {
        self.name = name
        self.settings = settings
    }
}

/// A sale with what only a store keeps of it: the idempotency key it was recorded with.
public struct ArchivedSale: Sendable, Hashable {
    public var sale: Sale
    public var idempotencyKey: String?

    public init(sale: Sale, idempotencyKey: String? = nil) {
        self.sale = sale
        self.idempotencyKey = idempotencyKey
    }
}

/// An account of the book, with its password hash (bcrypt): after a move she signs in with the
/// same name and password. Sessions do not move (browsers sign in again).
public struct ArchivedAccount: Sendable, Hashable {
    public var id: Account.ID
    public var username: String
    public var passwordHash: String
    /// Seconds since 1970, as the stores keep it.
    public var createdAt: Int64
    public var role: MemberRole

    public init(id: Account.ID, username: String, passwordHash: String, createdAt: Int64, role: MemberRole) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.role = role
    }
}

/// An API token of an account: only the digest of its secret, so the token keeps working after a move.
public struct ArchivedToken: Sendable, Hashable {
    public var accountID: Account.ID
    public var name: String
    public var tokenDigest: String
    public var createdAt: Int64
    public var lastUsedAt: Int64?
    public var revokedAt: Int64?

    public init(
        accountID: Account.ID,
        name: String,
        tokenDigest: String,
        createdAt: Int64,
        lastUsedAt: Int64?,
        revokedAt: Int64?
    ) {
        self.accountID = accountID
        self.name = name
        self.tokenDigest = tokenDigest
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// One record of a book archive, in the order they come (see the top of this file).
public enum ArchiveRecord: Sendable, Hashable {
    case book(ArchivedBook)
    case clinic(Clinic)
    case product(Product)
    case terms(Terms)
    case price(PriceListEntry)
    case deduction(Deduction)
    /// A page of sales, in increasing id order.
    case sales([ArchivedSale])
    case payout(Payout)
    case closedPeriod(clinic: Clinic.ID, period: PayPeriod)
    /// A page of audit entries, in increasing id order (the order they were recorded in).
    case audit([AuditEntry])
    case account(ArchivedAccount)
    case token(ArchivedToken)

    /// Where the record comes in an archive: records never go back to an earlier kind.
    var rank: Int {
        switch self {
        case .book: 0
        case .clinic: 1
        case .product: 2
        case .terms: 3
        case .price: 4
        case .deduction: 5
        case .sales: 6
        case .payout: 7
        case .closedPeriod: 8
        case .audit: 9
        case .account: 10
        case .token: 11
        }
    }

    static let kinds = [
        "book", "clinic", "product", "terms", "price-list entry", "deduction", "sale", "payout", "closed period",
        "audit entry", "account", "API token",
    ]
}

/// Receives the records of an archive, one at a time, in order.
public typealias ArchiveSink = (ArchiveRecord) async throws -> Void

/// How many of each kind an archive held.
public struct ArchiveCounts: Sendable, Hashable, CustomStringConvertible {
    public var clinics = 0, products = 0, terms = 0, prices = 0, deductions = 0, sales = 0, payouts = 0,
        closedPeriods = 0, auditEntries = 0, accounts = 0, tokens = 0

    public init() {}

    public mutating func add(_ record: ArchiveRecord) {
        switch record {
        case .book: break
        case .clinic: clinics += 1
        case .product: products += 1
        case .terms: terms += 1
        case .price: prices += 1
        case .deduction: deductions += 1
        case .sales(let page): sales += page.count
        case .payout: payouts += 1
        case .closedPeriod: closedPeriods += 1
        case .audit(let page): auditEntries += page.count
        case .account: accounts += 1
        case .token: tokens += 1
        }
    }

    /// "4 clinics, 12 products, …, 1 API token".
    public var description: String {
        func n(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        var parts = [n(clinics, "clinic", "clinics"), n(products, "product", "products"), n(terms, "terms", "terms")]
        if prices > 0 { parts.append(n(prices, "price-list entry", "price-list entries")) }
        if deductions > 0 { parts.append(n(deductions, "deduction", "deductions")) }
        parts += [
            n(sales, "sale", "sales"), n(payouts, "payout", "payouts"),
            n(closedPeriods, "closed period", "closed periods"),
            n(auditEntries, "audit entry", "audit entries"), n(accounts, "account", "accounts"),
            n(tokens, "API token", "API tokens"),
        ]
        return parts.joined(separator: ", ")
    }
}

/// A store whose book can be streamed out whole.
public protocol BookArchiving: Sendable {
    /// Streams the whole book to `sink` as one consistent snapshot (writes made meanwhile are
    /// either all in it or not at all), in the archive's order. Returns what was sent.
    func archive(into sink: ArchiveSink) async throws -> ArchiveCounts
}

/// A store whose whole book can be replaced with a backup, in place, by its owner: an SQLite book
/// (file or archive; its accounts come from the backup) and a book of a team server (an archive;
/// its members stay the server's).
public protocol BookRestoring: Sendable {
    /// Whether a restore replaces the book's accounts, sessions and tokens with the backup's (an
    /// SQLite book: everyone signs in again), or keeps them (a team server's book: accounts belong
    /// to the server, and the backup's are not restored).
    var restoreReplacesAccounts: Bool { get }
    /// What the backup at `path` holds, checked whole. Nothing changes.
    func inspectBackup(at path: String) async throws -> ArchiveCounts
    /// Replaces the whole book with the backup at `path`, in one step; a backup that is not sound
    /// changes nothing. What it replaces besides the records: see ``restoreReplacesAccounts``.
    func restoreBackup(at path: String) async throws -> ArchiveCounts
}

/// Checks an archive as it streams past, before a restore writes anything of a record: the book
/// comes first and once, the kinds come in order, pages in increasing id order, and every record
/// names only clinics, products, terms and accounts the archive has already given. A restore runs
/// every record through it; what it refuses is a ``StoreError/invalid(field:reason:)`` naming the record.
public struct ArchiveChecker: Sendable {
    public private(set) var counts = ArchiveCounts()
    public private(set) var book: ArchivedBook?
    private var rank = -1
    private var clinics = Set<Int64>(), products = Set<Int64>(), terms = Set<Int64>(), accounts = Set<Int64>()
    private var lastSale = Int64.min, lastAudit = Int64.min

    public init() {}

    static func refuse(_ reason: String) -> StoreError { .invalid(field: "archive", reason: reason) }

    /// Checks `record`; throws without counting it when it breaks a rule.
    public mutating func check(_ record: ArchiveRecord) throws {
        let kinds = ArchiveRecord.kinds
        if rank == -1, record.rank != 0 {
            throw Self.refuse(
                "it does not start with the book's settings (its first record is a \(kinds[record.rank]))."
            )
        }
        if record.rank < rank || (record.rank == 0 && rank == 0) {
            throw Self.refuse(
                "a \(kinds[record.rank]) comes after the \(kinds[rank]) records: the archive is out of order or was put together by hand."
            )
        }
        switch record {
        case .book(let book):
            guard TimeZone(identifier: book.settings.timeZoneIdentifier) != nil else {
                throw Self.refuse(
                    "its time zone \"\(book.settings.timeZoneIdentifier)\" is not one this machine knows."
                )
            }
            self.book = book
        case .clinic(let clinic):
            guard clinics.insert(clinic.id.rawValue).inserted else {
                throw Self.refuse("it holds clinic \(clinic.id) twice.")
            }
        case .product(let product):
            guard products.insert(product.id.rawValue).inserted else {
                throw Self.refuse("it holds product \(product.id) twice.")
            }
        case .terms(let item):
            try known(item.clinicID.rawValue, in: clinics, "Terms \(item.id)", "clinic")
            if let product = item.productID { try known(product.rawValue, in: products, "Terms \(item.id)", "product") }
            guard terms.insert(item.id.rawValue).inserted else { throw Self.refuse("it holds terms \(item.id) twice.") }
        case .price(let entry):
            try known(entry.clinicID.rawValue, in: clinics, "Price-list entry \(entry.id)", "clinic")
            try known(entry.productID.rawValue, in: products, "Price-list entry \(entry.id)", "product")
        case .deduction(let deduction):
            try known(deduction.clinicID.rawValue, in: clinics, "Deduction \(deduction.id)", "clinic")
        case .sales(let page):
            for item in page {
                let sale = item.sale
                guard sale.id.rawValue > lastSale else {
                    throw Self.refuse("sale \(sale.id) comes after sale \(lastSale): sales must come in id order.")
                }
                lastSale = sale.id.rawValue
                try known(sale.clinicID.rawValue, in: clinics, "Sale \(sale.id)", "clinic")
                try known(sale.productID.rawValue, in: products, "Sale \(sale.id)", "product")
                if let termsID = sale.termsID { try known(termsID.rawValue, in: terms, "Sale \(sale.id)", "terms") }
            }
        case .payout(let payout):
            try known(payout.clinicID.rawValue, in: clinics, "Payout \(payout.id)", "clinic")
        case .closedPeriod(let clinic, _):
            try known(clinic.rawValue, in: clinics, "A closed period", "clinic")
        case .audit(let page):
            for entry in page {
                guard entry.id.rawValue > lastAudit else {
                    throw Self.refuse(
                        "audit entry \(entry.id) comes after entry \(lastAudit): the log must come in the order it was written."
                    )
                }
                lastAudit = entry.id.rawValue
            }
        case .account(let account):
            guard accounts.insert(account.id.rawValue).inserted else {
                throw Self.refuse("it holds account \(account.id) twice.")
            }
        case .token(let token):
            try known(token.accountID.rawValue, in: accounts, "An API token", "account")
        }
        rank = record.rank
        counts.add(record)
    }

    private func known(_ id: Int64, in set: Set<Int64>, _ record: String, _ kind: String) throws {
        guard set.contains(id) else {
            throw Self.refuse("\(record) names \(kind) \(id), which the archive does not hold (before it).")
        }
    }

    /// Called when the stream ends: an archive without its book is no archive.
    public func finish() throws -> ArchivedBook {
        guard let book else { throw Self.refuse("it is empty: not even the book's settings.") }
        return book
    }
}

/// Old ids to new, for records a restore numbers afresh. Sales and audit entries come in id order
/// and are numbered in order, so their maps are two sorted arrays (16 bytes a sale), searched.
public struct IDMap: Sendable {
    private var old: [Int64] = []
    private var new: [Int64] = []
    private var unordered: [Int64: Int64] = [:]

    public init() {}

    public mutating func reserve(_ count: Int) {
        old.reserveCapacity(count)
        new.reserveCapacity(count)
    }

    /// Records `oldID → newID`; ids given in increasing order of `oldID` are kept compactly.
    public mutating func add(_ oldID: Int64, _ newID: Int64) {
        if let last = old.last, oldID <= last {
            unordered[oldID] = newID
        } else {
            old.append(oldID)
            new.append(newID)
        }
    }

    public subscript(_ oldID: Int64) -> Int64? {
        if let id = unordered[oldID] { return id }
        var low = 0, high = old.count
        while low < high {
            let middle = (low + high) / 2
            if old[middle] < oldID { low = middle + 1 } else { high = middle }
        }
        return low < old.count && old[low] == oldID ? new[low] : nil
    }

    public var count: Int { old.count + unordered.count }
}

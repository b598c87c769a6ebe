import CommissionCore

/// A page of a list: at most `limit` items after skipping `offset`.
public struct Page: Sendable, Hashable {
    public var limit: Int?
    public var offset: Int

    public init(limit: Int? = nil, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }

    public static let all = Page()
}

/// Which clinics to list. Clinics come in name order.
public struct ClinicQuery: Sendable, Hashable {
    /// Case-insensitive substring of the name.
    public var text: String?
    public var includeArchived: Bool
    public var page: Page

    public init(text: String? = nil, includeArchived: Bool = false, page: Page = .all) {
        self.text = text
        self.includeArchived = includeArchived
        self.page = page
    }
}

/// Which products to list.
public struct ProductQuery: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Alphabetical.
        case name
        /// Most units sold first (over non-voided sales), then by name: what a quick entry offers first.
        case mostSold = "most-sold"
    }

    /// Case-insensitive substring of the name or SKU.
    public var text: String?
    public var includeArchived: Bool
    public var order: Order
    public var page: Page

    public init(text: String? = nil, includeArchived: Bool = false, order: Order = .name, page: Page = .all) {
        self.text = text
        self.includeArchived = includeArchived
        self.order = order
        self.page = page
    }
}

/// Which terms to list. Terms come by clinic, then effective date, then id.
public struct TermsQuery: Sendable, Hashable {
    public var clinicID: Clinic.ID?
    public var productID: Product.ID?
    public var includeArchived: Bool

    public init(clinicID: Clinic.ID? = nil, productID: Product.ID? = nil, includeArchived: Bool = false) {
        self.clinicID = clinicID
        self.productID = productID
        self.includeArchived = includeArchived
    }
}

/// Which sales to list.
public struct SaleQuery: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Latest date first, then latest recorded first.
        case newestFirst = "newest-first"
        /// Earliest date first, then earliest recorded first.
        case oldestFirst = "oldest-first"
        /// The last recorded first, whatever their dates (a backdated sale just entered comes first).
        case latestRecorded = "latest-recorded"
    }

    public var clinicID: Clinic.ID?
    public var productID: Product.ID?
    /// Inclusive date range.
    public var from: Day?
    public var through: Day?
    /// Case-insensitive substring of the note or the product's name.
    public var text: String?
    public var includeVoided: Bool
    public var order: Order
    public var page: Page

    public init(
        clinicID: Clinic.ID? = nil,
        productID: Product.ID? = nil,
        from: Day? = nil,
        through: Day? = nil,
        text: String? = nil,
        includeVoided: Bool = false,
        order: Order = .newestFirst,
        page: Page = .all
    ) {
        self.clinicID = clinicID
        self.productID = productID
        self.from = from
        self.through = through
        self.text = text
        self.includeVoided = includeVoided
        self.order = order
        self.page = page
    }
}

/// Which payouts to list. Payouts come by period, then date received.
public struct PayoutQuery: Sendable, Hashable {
    public var clinicID: Clinic.ID?
    public var period: PayPeriod?
    public var page: Page

    public init(clinicID: Clinic.ID? = nil, period: PayPeriod? = nil, page: Page = .all) {
        self.clinicID = clinicID
        self.period = period
        self.page = page
    }
}

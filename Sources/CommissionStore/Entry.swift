import CommissionCore

/// What the quick entry of a sale starts from: the entry assistant, shared by the web page, the
/// command line (`commission sale add` with only a product, `commission sale repeat`) and an app.
///
/// - The clinic is the one she last recorded a sale at (else the first), unless one is asked for.
/// - Products come most sold first, each with the price and cost a sale at that clinic starts from
///   today (the clinic's price list, else the product's), and its price at every other clinic
///   whose list has it, so that a form can follow a change of clinic.
/// - The recent sales are the last she *recorded*, whatever their dates: a sale she just backdated
///   is among them.
/// - Missed days: days of the last two weeks, before today, on a weekday she usually works — one
///   she sold on in at least three of the eight weeks before, and in at least half of the weeks she
///   worked at all then (a Sunday she worked now and then is no working day) — with no sale entered.
public struct EntryForm: Sendable, Hashable {
    public var today: Day
    /// The active clinics, by name.
    public var clinics: [Clinic]
    /// The clinic the form starts at.
    public var clinic: Clinic?
    /// Active products, most sold first, with their starting prices.
    public var products: [EntryProduct]
    /// The latest recorded sales (voided ones left out).
    public var recent: [Sale]
    /// Clinic and product names for ``recent`` (archived ones included).
    public var clinicNames: [Clinic.ID: String]
    public var productNames: [Product.ID: String]
    public var missedDays: [Day]

    public init(
        today: Day,
        clinics: [Clinic],
        clinic: Clinic?,
        products: [EntryProduct],
        recent: [Sale],
        clinicNames: [Clinic.ID: String],
        productNames: [Product.ID: String],
        missedDays: [Day]
    ) {
        self.today = today
        self.clinics = clinics
        self.clinic = clinic
        self.products = products
        self.recent = recent
        self.clinicNames = clinicNames
        self.productNames = productNames
        self.missedDays = missedDays
    }

    /// How many recent sales the form shows.
    public static let recentCount = 5

    /// The weekdays she usually works, from the days she sold on in the eight weeks before the
    /// fortnight that ends before `today`: a weekday she sold on in at least three of those weeks
    /// and in at least half of the weeks she worked at all then.
    public static func usualWeekdays(today: Day, soldOn: Set<Day>) -> Set<Weekday> {
        var weeksPerWeekday: [Weekday: Set<Int>] = [:]
        var worked: Set<Int> = []
        for day in soldOn where day < today.adding(days: -14) && day >= today.adding(days: -70) {
            weeksPerWeekday[day.weekday, default: []].insert(day.ordinal / 7)
            worked.insert(day.ordinal / 7)
        }
        return Set(weeksPerWeekday.filter { $0.value.count >= 3 && 2 * $0.value.count >= worked.count }.keys)
    }

    /// The days of the fortnight before `today` she usually works but entered nothing on, oldest
    /// first, from the days she sold on in the ten weeks before `today` (see ``EntryForm``).
    public static func missedDays(today: Day, soldOn: Set<Day>) -> [Day] {
        let usual = usualWeekdays(today: today, soldOn: soldOn)
        return (1...14).map { today.adding(days: -$0) }.filter { usual.contains($0.weekday) && !soldOn.contains($0) }
            .reversed()
    }
}

/// A product as the entry form offers it: with the unit price and cost a sale starts from.
public struct EntryProduct: Sendable, Hashable {
    public var product: Product
    /// At the form's clinic, today.
    public var unitPrice: Money
    public var unitCost: Money
    /// Its price and cost today at each clinic whose price list has it (other clinics: the product's own).
    public var clinicPrices: [Clinic.ID: SalePrice]

    public init(product: Product, unitPrice: Money, unitCost: Money, clinicPrices: [Clinic.ID: SalePrice] = [:]) {
        self.product = product
        self.unitPrice = unitPrice
        self.unitCost = unitCost
        self.clinicPrices = clinicPrices
    }

    /// Its price and cost today at `clinic`.
    public func price(at clinic: Clinic.ID?) -> SalePrice {
        clinic.flatMap { clinicPrices[$0] } ?? SalePrice(unitPrice: product.unitPrice, unitCost: product.unitCost)
    }
}

/// The entry form of `today` (the book's today when nil), observable like every request.
public struct EntryRequest: StoreRequest {
    public var today: Day?
    /// The clinic to start at (a prefilled link's), instead of the last one used.
    public var clinic: Clinic.ID?

    public init(today: Day? = nil, clinic: Clinic.ID? = nil) {
        self.today = today
        self.clinic = clinic
    }

    public var tables: Set<StoreTable> { [.book, .clinics, .products, .sales, .prices] }

    public func fetch(from store: any CommissionStore) async throws -> EntryForm {
        var today = self.today
        if today == nil { today = try await store.settings().today() }
        let day = today!

        let clinics = try await store.clinics(ClinicQuery())
        let recent = try await store.sales(SaleQuery(order: .latestRecorded, page: Page(limit: EntryForm.recentCount)))
        let clinic =
            clinics.first { $0.id == self.clinic } ?? recent.first.flatMap { last in
                clinics.first { $0.id == last.clinicID }
            } ?? clinics.first
        // Each product's entries apart (each clinic's among them found in its few), not the
        // book's whole price list looked through once per product and clinic.
        let entries = Dictionary(grouping: try await store.prices(PriceQuery()), by: \.productID)
        let products = try await store.products(ProductQuery(order: .mostSold)).map { product in
            var prices: [Clinic.ID: SalePrice] = [:]
            let its = Dictionary(grouping: entries[product.id] ?? [], by: \.clinicID)
            for clinic in clinics {
                guard let listed = its[clinic.id] else { continue }
                let price = SalePrice(product, at: clinic.id, on: day, entries: listed)
                if price.entryID != nil { prices[clinic.id] = price }
            }
            var entry = EntryProduct(
                product: product,
                unitPrice: product.unitPrice,
                unitCost: product.unitCost,
                clinicPrices: prices
            )
            let here = entry.price(at: clinic?.id)
            (entry.unitPrice, entry.unitCost) = (here.unitPrice, here.unitCost)
            return entry
        }
        let soldOn = try await store.daysWithSales(from: day.adding(days: -70), through: day.adding(days: -1))
        var clinicNames = Dictionary(uniqueKeysWithValues: clinics.map { ($0.id, $0.name) })
        var productNames = Dictionary(uniqueKeysWithValues: products.map { ($0.product.id, $0.product.name) })
        for sale in recent {
            if clinicNames[sale.clinicID] == nil {
                clinicNames[sale.clinicID] = try await store.clinic(sale.clinicID).name
            }
            if productNames[sale.productID] == nil {
                productNames[sale.productID] = try await store.product(sale.productID).name
            }
        }
        return EntryForm(
            today: day,
            clinics: clinics,
            clinic: clinic,
            products: products,
            recent: recent,
            clinicNames: clinicNames,
            productNames: productNames,
            missedDays: EntryForm.missedDays(today: day, soldOn: soldOn)
        )
    }
}

extension SaleDraft {
    /// The sale again, on `day`: the same clinic, product, quantity, price, cost, discount, note and
    /// no-commission mark (what Repeat records).
    public init(repeating sale: Sale, on day: Day) {
        self.init(
            clinicID: sale.clinicID,
            productID: sale.productID,
            date: day,
            quantity: sale.quantity,
            unitPrice: sale.line.unitPrice,
            unitCost: sale.line.unitCost,
            discount: sale.line.discount,
            noCommission: sale.isNoCommission,
            note: sale.note
        )
    }
}

/// Commission per clinic per month over the months up to one day's: what the dashboard's chart
/// shows, from the maintained monthly summaries.
public struct MonthSeries: Sendable, Hashable {
    /// The first day of each month, oldest first.
    public var months: [Day]
    /// Each clinic with sales in those months: its commission per month, in the order of ``months``.
    public var clinics: [(id: Clinic.ID, commission: [Money])] {
        get { storage.map { ($0.id, $0.commission) } }
        set { storage = newValue.map { Entry(id: $0.id, commission: $0.commission) } }
    }

    private struct Entry: Sendable, Hashable {
        var id: Clinic.ID
        var commission: [Money]
    }
    private var storage: [Entry]

    public init(months: [Day], clinics: [(id: Clinic.ID, commission: [Money])]) {
        self.months = months
        self.storage = clinics.map { Entry(id: $0.id, commission: $0.commission) }
    }
}

/// The `count` months up to and including `through`'s month, per clinic.
public struct MonthSeriesRequest: StoreRequest {
    public var through: Day
    public var count: Int

    public init(through: Day, count: Int = 12) {
        self.through = through
        self.count = count
    }

    public var tables: Set<StoreTable> { [.book, .clinics, .sales] }

    public func fetch(from store: any CommissionStore) async throws -> MonthSeries {
        var months: [Day] = []
        var month = through.firstOfMonth
        for _ in 0..<max(1, count) {
            months.insert(month, at: 0)
            month = month.adding(days: -1).firstOfMonth
        }
        var series: [Clinic.ID: [Money]] = [:]
        for entry in try await store.clinicMonths(from: months[0], through: through) {
            guard let index = months.firstIndex(of: entry.month) else { continue }
            series[entry.clinicID, default: Array(repeating: .zero, count: months.count)][index] =
                entry.totals.commission
        }
        return MonthSeries(months: months, clinics: series.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}

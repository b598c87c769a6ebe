import CommissionCore
import CommissionStore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

#if canImport(Darwin)  // Apple's platforms, where the package links the URLSession transport
import OpenAPIURLSession
#endif

/// A book on a Commission server, through its JSON API (`/api/v1`): the same `CommissionStore`
/// as a local SQLite book, for an app that keeps its book on a team server or a laptop that
/// works on one.
///
/// Every call is one or a few requests made by a client generated from the server's own OpenAPI
/// document (swift-openapi-generator; the transport is the caller's — URLSession by default). The
/// server's refusals come back as the same `StoreError`s a local store throws (the problem's
/// `error` member); a server that cannot be reached is ``RemoteStoreError/unreachable(_:)``.
/// Live queries (`CommissionStore/observe(_:)`, `LiveValue`) refresh on the server's change
/// stream (`GET /api/v1/changes`), so a change made on the web, another device or the command line
/// reaches the app within the stream's latency.
///
/// ```swift
/// let store = HTTPStore(url: URL(string: "https://commission.example.org")!, token: "cm_…")
/// let sale = try await store.createSale(draft, idempotencyKey: UUID().uuidString)
/// ```
public final class HTTPStore: CommissionStore, BookChangesReading {
    let client: Client
    let broadcaster = ChangeBroadcaster()
    /// What the settings' freshness is measured by.
    let clock: any WallClock
    private let state = Mutex(State())
    /// The release the server last said it runs (``ServerRelease``).
    let serverRelease = ServerRelease()

    private struct State {
        var settings: BookSettings?
        var settingsRead = Date.distantPast
        var listening: Task<Void, Never>?
        var changesBytes = 0
    }

    /// How long the book's settings are taken as read when no change stream would say they
    /// changed (with one open, until it says so).
    static let settingsFreshFor = Duration.seconds(1)

    /// A store on the book a bearer token opens (`commission token create`, or the Settings page).
    /// - Parameters:
    ///   - url: The server's address, `https://host` (the token names the book).
    ///   - token: An API token of the book (`cm_…`).
    ///   - transport: How requests travel: swift-openapi-urlsession's `URLSessionTransport`, or
    ///     swift-openapi-async-http-client's `AsyncHTTPClientTransport` (on Linux, where URLSession
    ///     cannot stream the change stream).
    ///   - retries: How many times a write whose answer was lost (the connection dropped) is sent
    ///     again, with its idempotency key, before ``RemoteStoreError/unreachable(_:)`` is thrown:
    ///     after a quarter of a second, then a second, then four.
    ///   - clock: What the book's settings are kept fresh by (read again after a second without a
    ///     change stream); a test gives a `ManualClock` (CommissionStore), so that how many requests a store makes
    ///     does not depend on the machine's speed.
    public init(
        url: URL,
        token: String,
        transport: any ClientTransport,
        retries: Int = 2,
        clock: any WallClock = SystemClock()
    ) {
        self.clock = clock
        client = Client(
            serverURL: url,
            transport: transport,
            middlewares: [
                Authorization(token: token), serverRelease, Problems(), IdempotentWrites(retries: max(0, retries)),
            ]
        )
    }

    /// The idempotency key the writes made in `body` are sent with, instead of a fresh one each:
    /// for a caller that sends a change again later (an app's outbox, a sync resumed) and must
    /// have it made once. One key is one change — give each write its own.
    ///
    /// ```swift
    /// try await HTTPStore.$idempotencyKey.withValue("outbox-\(entry.id)") {
    ///     _ = try await store.createPayout(draft)
    /// }
    /// ```
    @TaskLocal public static var idempotencyKey: String?

    #if canImport(Darwin)  // Apple's platforms, where the package links the URLSession transport
    /// A store on the book a bearer token opens, over URLSession (Apple's platforms).
    /// - Parameters:
    ///   - url: The server's address, `https://host` (the token names the book).
    ///   - token: An API token of the book (`cm_…`).
    ///   - retries: How many times a write whose answer was lost is sent again (see
    ///     ``init(url:token:transport:retries:clock:)``).
    ///   - clock: What the book's settings are kept fresh by.
    public convenience init(url: URL, token: String, retries: Int = 2, clock: any WallClock = SystemClock()) {
        self.init(url: url, token: token, transport: URLSessionTransport(), retries: retries, clock: clock)
    }
    #endif

    deinit {
        state.withLock { $0.listening?.cancel() }
        broadcaster.finish()
    }

    // MARK: Calls

    /// Runs one call of the generated client, turning what it throws into the store's errors.
    /// An answer it cannot read from a server of another release says so, in one sentence.
    func call<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ClientError {
            throw serverRelease.told(Self.storeError(error.underlyingError, cause: error.causeDescription))
        } catch {
            throw serverRelease.told(Self.storeError(error, cause: nil))
        }
    }

    static func storeError(_ error: any Error, cause: String?) -> any Error {
        switch error {
        case let refusal as Problems.Refusal: return refusal.error
        case let error as StoreError: return error
        case let error as RemoteStoreError: return error
        case let error as ClientError: return storeError(error.underlyingError, cause: error.causeDescription)
        case is CancellationError: return error
        case is DecodingError: return RemoteStoreError.unexpectedAnswer("\(cause.map { "\($0): " } ?? "")\(error)")
        default: return RemoteStoreError.unreachable("\(cause.map { "\($0): " } ?? "")\(error)")
        }
    }

    /// A write made: tell this store's observers at once (the server's stream tells everyone else's).
    func wrote(_ tables: Set<StoreTable>) {
        if tables.contains(.book) { state.withLock { $0.settings = nil } }
        broadcaster.send(tables)
    }

    // MARK: Settings

    public func settings() async throws -> BookSettings {
        let cached = state.withLock { state in
            state.listening != nil
                || clock.now.timeIntervalSince(state.settingsRead) < Self.settingsFreshFor.timeInterval
                ? state.settings : nil
        }
        if let cached { return cached }
        let settings = try Wire.settings(try await call { try await client.getSettings().ok.body.json })
        state.withLock { state in
            state.settings = settings
            state.settingsRead = clock.now
        }
        return settings
    }

    func currency() async throws -> Currency { try await settings().currency }

    public func updateSettings(_ settings: BookSettings) async throws {
        _ = try await call {
            try await client.updateSettings(
                body: .json(
                    .init(
                        currency: settings.currency.code,
                        timeZone: settings.timeZoneIdentifier,
                        rounding: .init(rawValue: settings.rounding.rule.rawValue),
                        roundingScope: .init(rawValue: settings.rounding.scope.rawValue),
                        locale: settings.localeIdentifier
                    )
                )
            ).ok
        }
        wrote([.book, .sales])
    }

    // MARK: Clinics

    public func createClinic(_ draft: ClinicDraft) async throws -> Clinic {
        let made = try await call {
            try await client.createClinic(body: .json(Wire.clinicInput(draft))).created.body.json
        }
        wrote([.clinics])
        return try Wire.clinic(made)
    }

    public func clinic(_ id: Clinic.ID) async throws -> Clinic {
        try Wire.clinic(try await call { try await client.getClinic(path: .init(id: id.rawValue)).ok.body.json })
    }

    public func clinic(named name: String) async throws -> Clinic {
        do {
            guard
                let found = try await call({ try await client.listClinics(query: .init(name: name)).ok.body.json })
                    .first
            else {
                throw StoreError.unknownClinic(name)
            }
            return try Wire.clinic(found)
        } catch StoreError.notFound { throw StoreError.unknownClinic(name) }
    }

    public func clinics(_ query: ClinicQuery) async throws -> [Clinic] {
        try await call {
            try await client.listClinics(
                query: .init(
                    includeArchived: query.includeArchived,
                    q: query.text,
                    limit: query.page.limit,
                    offset: query.page.offset
                )
            ).ok.body.json
        }.map(Wire.clinic)
    }

    public func updateClinic(_ clinic: Clinic) async throws -> Clinic {
        let changed = try await call {
            try await client.patchClinic(
                path: .init(id: clinic.id.rawValue),
                body: .json(
                    .init(
                        name: clinic.name,
                        schedule: clinic.schedule.description,
                        archived: clinic.isArchived,
                        scheduleChanges: clinic.scheduleChanges.map {
                            .init(effectiveFrom: $0.effectiveFrom.description, schedule: $0.schedule.description)
                        }
                    )
                )
            ).ok.body.json
        }
        wrote([.clinics, .sales])
        return try Wire.clinic(changed)
    }

    public func deleteClinic(_ id: Clinic.ID) async throws {
        _ = try await call {
            try await client.archiveClinic(path: .init(id: id.rawValue), query: .init(permanently: ._true)).noContent
        }
        wrote([.clinics, .terms])
    }

    // MARK: Products

    public func createProduct(_ draft: ProductDraft) async throws -> Product {
        let currency = try await currency()
        let made = try await call {
            try await client.createProduct(body: .json(Wire.productInput(draft, currency: currency))).created.body.json
        }
        wrote([.products])
        return try Wire.product(made, currency: currency)
    }

    public func product(_ id: Product.ID) async throws -> Product {
        let currency = try await currency()
        return try Wire.product(
            try await call { try await client.getProduct(path: .init(id: id.rawValue)).ok.body.json },
            currency: currency
        )
    }

    public func product(named name: String) async throws -> Product {
        let currency = try await currency()
        do {
            guard
                let found = try await call({ try await client.listProducts(query: .init(name: name)).ok.body.json })
                    .first
            else {
                throw StoreError.unknownProduct(name)
            }
            return try Wire.product(found, currency: currency)
        } catch StoreError.notFound { throw StoreError.unknownProduct(name) }
    }

    public func products(_ query: ProductQuery) async throws -> [Product] {
        let currency = try await currency()
        return try await call {
            try await client.listProducts(
                query: .init(
                    includeArchived: query.includeArchived,
                    q: query.text,
                    order: .init(rawValue: query.order.rawValue),
                    limit: query.page.limit,
                    offset: query.page.offset
                )
            ).ok.body.json
        }.map { try Wire.product($0, currency: currency) }
    }

    public func updateProduct(_ product: Product) async throws -> Product {
        let currency = try await currency()
        let changed = try await call {
            try await client.patchProduct(
                path: .init(id: product.id.rawValue),
                body: .json(
                    .init(
                        name: product.name,
                        sku: product.sku ?? "",
                        unitPrice: currency.format(product.unitPrice),
                        unitCost: currency.format(product.unitCost),
                        archived: product.isArchived
                    )
                )
            ).ok.body.json
        }
        wrote([.products])
        return try Wire.product(changed, currency: currency)
    }

    public func deleteProduct(_ id: Product.ID) async throws {
        _ = try await call {
            try await client.archiveProduct(path: .init(id: id.rawValue), query: .init(permanently: ._true)).noContent
        }
        wrote([.products, .terms])
    }

    // MARK: Terms

    public func createTerms(_ draft: TermsDraft) async throws -> TermsChange {
        let currency = try await currency()
        let change = try await call {
            try await client.createTerms(body: .json(Wire.termsInput(draft, currency: currency))).created.body.json
        }
        wrote([.terms, .sales])
        return try Wire.termsChange(change, currency: currency)
    }

    public func terms(_ id: Terms.ID) async throws -> Terms {
        let currency = try await currency()
        return try Wire.terms(
            try await call { try await client.getTerms(path: .init(id: id.rawValue)).ok.body.json },
            currency: currency
        )
    }

    public func terms(_ query: TermsQuery) async throws -> [Terms] {
        let currency = try await currency()
        return try await call {
            try await client.listTerms(
                query: .init(
                    includeArchived: query.includeArchived,
                    clinicId: query.clinicID?.rawValue,
                    productId: query.productID?.rawValue
                )
            ).ok.body.json
        }.map { try Wire.terms($0, currency: currency) }
    }

    public func updateTerms(_ terms: Terms) async throws -> TermsChange {
        let currency = try await currency()
        let change = try await call {
            try await client.patchTerms(
                path: .init(id: terms.id.rawValue),
                body: .json(
                    .init(
                        share: terms.share.percentText,
                        basis: .init(rawValue: terms.basis.rawValue),
                        effectiveFrom: terms.effectiveFrom.description,
                        archived: terms.isArchived,
                        tiers: terms.tiers.map { $0.text(currency) }
                    )
                )
            ).ok.body.json
        }
        wrote([.terms, .sales])
        return try Wire.termsChange(change, currency: currency)
    }

    // MARK: Prices and deductions

    public func setPrice(_ draft: PriceDraft) async throws -> PriceListEntry {
        let currency = try await currency()
        let entry = try await call {
            try await client.setPrice(body: .json(Wire.priceInput(draft, currency: currency))).created.body.json
        }
        wrote([.prices])
        return try Wire.price(entry, currency: currency)
    }

    public func prices(_ query: PriceQuery) async throws -> [PriceListEntry] {
        let currency = try await currency()
        return try await call {
            try await client.listPrices(
                query: .init(clinicId: query.clinicID?.rawValue, productId: query.productID?.rawValue)
            ).ok.body.json
        }.map { try Wire.price($0, currency: currency) }
    }

    public func removePrice(_ id: PriceListEntry.ID) async throws {
        _ = try await call { try await client.removePrice(path: .init(id: id.rawValue)).noContent }
        wrote([.prices])
    }

    public func createDeduction(_ deduction: Deduction) async throws -> Deduction {
        let currency = try await currency()
        let made = try await call {
            try await client.createDeduction(body: .json(Wire.deductionInput(deduction, currency: currency))).created
                .body.json
        }
        wrote([.deductions])
        return try Wire.deduction(made, currency: currency)
    }

    public func deductions(clinic: Clinic.ID?) async throws -> [Deduction] {
        let currency = try await currency()
        return try await call { try await client.listDeductions(query: .init(clinicId: clinic?.rawValue)).ok.body.json }
            .map { try Wire.deduction($0, currency: currency) }
    }

    public func deduction(_ id: Deduction.ID) async throws -> Deduction {
        let currency = try await currency()
        return try Wire.deduction(
            try await call { try await client.getDeduction(path: .init(id: id.rawValue)).ok.body.json },
            currency: currency
        )
    }

    public func updateDeduction(_ deduction: Deduction) async throws -> Deduction {
        let currency = try await currency()
        let (amount, share) = Wire.amount(deduction.amount, currency: currency)
        let changed = try await call {
            try await client.updateDeduction(
                path: .init(id: deduction.id.rawValue),
                body: .json(
                    .init(
                        name: deduction.name,
                        amount: amount,
                        share: share,
                        effectiveFrom: deduction.effectiveFrom.description,
                        lastDay: deduction.lastDay?.description ?? ""
                    )
                )
            ).ok.body.json
        }
        wrote([.deductions])
        return try Wire.deduction(changed, currency: currency)
    }

    public func deleteDeduction(_ id: Deduction.ID) async throws {
        _ = try await call { try await client.deleteDeduction(path: .init(id: id.rawValue)).noContent }
        wrote([.deductions])
    }

    // MARK: Sales

    public func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale {
        let settings = try await settings()
        // The key travels as it is, set by `IdempotentWrites`: a header parameter of the generated
        // client would be percent-encoded ("a:b" as "a%3Ab"), and the server, which keeps the
        // header's text, would not know it again in a batch, whose keys are in the JSON body.
        let made = try await HTTPStore.$idempotencyKey.withValue(idempotencyKey ?? HTTPStore.idempotencyKey) {
            try await call {
                try await client.createSale(body: .json(Wire.saleInput(draft, currency: settings.currency))).created
                    .body.json
            }
        }
        wrote([.sales])
        return try Wire.sale(made, settings: settings)
    }

    public func sale(_ id: Sale.ID) async throws -> Sale {
        let settings = try await settings()
        return try Wire.sale(
            try await call { try await client.getSale(path: .init(id: id.rawValue)).ok.body.json },
            settings: settings
        )
    }

    /// One page of the server's list (at most 1,000 sales a request; a longer page is read in
    /// several).
    func salePage(_ query: SaleQuery, limit: Int, offset: Int) async throws -> Components.Schemas.SaleList {
        try await call {
            try await client.listSales(
                query: .init(
                    clinicId: query.clinicID?.rawValue,
                    productId: query.productID?.rawValue,
                    from: query.from?.description,
                    to: query.through?.description,
                    q: query.text,
                    voided: query.includeVoided ? ._true : ._false,
                    limit: limit,
                    offset: offset,
                    order: .init(rawValue: query.order.rawValue)
                )
            ).ok.body.json
        }
    }

    public func sales(_ query: SaleQuery) async throws -> [Sale] {
        let settings = try await settings()
        var sales: [Sale] = []
        var offset = query.page.offset
        while true {
            let wanted = query.page.limit.map { $0 - sales.count } ?? Int.max
            guard wanted > 0 else { break }
            let page = try await salePage(query, limit: min(wanted, 1000), offset: offset)
            sales += try page.sales.map { try Wire.sale($0, settings: settings) }
            offset += page.sales.count
            if page.sales.count < min(wanted, 1000) { break }
        }
        return sales
    }

    public func countSales(_ query: SaleQuery) async throws -> Int {
        var all = query
        all.page = Page()
        return try await salePage(all, limit: 1, offset: 0).total
    }

    public func daysWithSales(from first: Day, through last: Day) async throws -> Set<Day> {
        Set(
            try await call {
                try await client.daysWithSales(query: .init(from: first.description, to: last.description)).ok.body.json
            }.map(Wire.day)
        )
    }

    public func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale {
        let settings = try await settings()
        let changed = try await call {
            try await client.updateSale(
                path: .init(id: id.rawValue),
                body: .json(Wire.saleInput(draft, currency: settings.currency))
            ).ok.body.json
        }
        wrote([.sales])
        return try Wire.sale(changed, settings: settings)
    }

    public func voidSale(_ id: Sale.ID) async throws -> Sale {
        let settings = try await settings()
        let voided = try await call { try await client.voidSale(path: .init(id: id.rawValue)).ok.body.json }
        wrote([.sales])
        return try Wire.sale(voided, settings: settings)
    }

    // MARK: Payouts and periods

    public func createPayout(_ draft: PayoutDraft) async throws -> Payout {
        let currency = try await currency()
        let made = try await call {
            try await client.createPayout(body: .json(Wire.payoutInput(draft, currency: currency))).created.body.json
        }
        wrote([.payouts])
        return try Wire.payout(made, currency: currency)
    }

    public func createPayouts(_ drafts: [PayoutDraft]) async throws -> [Payout] {
        try await apply(drafts.map { .createPayout($0) }).compactMap {
            if case .payout(let payout) = $0 { payout } else { nil }
        }
    }

    public func payouts(_ query: PayoutQuery) async throws -> [Payout] {
        let currency = try await currency()
        return try await call {
            try await client.listPayouts(
                query: .init(
                    clinicId: query.clinicID?.rawValue,
                    periodStart: query.period?.start.description,
                    periodEnd: query.period?.end.description,
                    limit: query.page.limit,
                    offset: query.page.offset
                )
            ).ok.body.json
        }.map { try Wire.payout($0, currency: currency) }
    }

    public func deletePayout(_ id: Payout.ID) async throws {
        _ = try await call { try await client.deletePayout(path: .init(id: id.rawValue)).noContent }
        wrote([.payouts])
    }

    /// The server takes a period by any of its days: a period that is not one of the clinic's is
    /// refused here, as a local store refuses it.
    func checkPeriod(_ period: PayPeriod, of clinicID: Clinic.ID) async throws -> Clinic {
        let clinic = try await clinic(clinicID)
        guard clinic.calendar.period(containing: period.start) == period else {
            throw StoreError.notAPeriod(
                clinic: clinic.name,
                period: period,
                schedule: clinic.calendar.schedule(on: period.start)
            )
        }
        return clinic
    }

    public func closePeriod(clinic: Clinic.ID, period: PayPeriod) async throws {
        _ = try await checkPeriod(period, of: clinic)
        _ = try await call {
            try await client.closePeriod(path: .init(id: clinic.rawValue), query: .init(date: period.end.description))
                .ok
        }
        wrote([.periods])
    }

    public func reopenPeriod(clinic: Clinic.ID, period: PayPeriod) async throws {
        _ = try await checkPeriod(period, of: clinic)
        _ = try await call {
            try await client.reopenPeriod(path: .init(id: clinic.rawValue), query: .init(date: period.end.description))
                .ok
        }
        wrote([.periods])
    }

    // MARK: Transactions

    /// The writes in one request (`POST /api/v1/batch`), which the server makes in one transaction:
    /// all of them or none.
    public func apply(_ writes: [StoreWrite]) async throws -> [StoreWritten] {
        guard !writes.isEmpty else { return [] }
        let settings = try await settings()
        let currency = settings.currency
        let body: [Components.Schemas.BatchWrite] = writes.map { write in
            switch write {
            case .createClinic(let draft): .init(clinic: Wire.clinicInput(draft))
            case .createProduct(let draft): .init(product: Wire.productInput(draft, currency: currency))
            case .createTerms(let draft): .init(terms: Wire.termsInput(draft, currency: currency))
            case .createSale(let draft, let key):
                .init(sale: Wire.saleInput(draft, currency: currency), idempotencyKey: key)
            case .voidSale(let id): .init(voidSale: id.rawValue)
            case .createPayout(let draft): .init(payout: Wire.payoutInput(draft, currency: currency))
            case .setPrice(let draft): .init(price: Wire.priceInput(draft, currency: currency))
            case .createDeduction(let deduction): .init(deduction: Wire.deductionInput(deduction, currency: currency))
            }
        }
        let written = try await call {
            try await client.batch(body: .json(.init(writes: body))).created.body.json.written
        }
        wrote(writes.tables)
        return try written.map { item in
            if let clinic = item.clinic { return .clinic(try Wire.clinic(clinic)) }
            if let product = item.product { return .product(try Wire.product(product, currency: currency)) }
            if let terms = item.terms { return .terms(try Wire.termsChange(terms, currency: currency)) }
            if let sale = item.sale { return .sale(try Wire.sale(sale, settings: settings)) }
            if let payout = item.payout { return .payout(try Wire.payout(payout, currency: currency)) }
            if let price = item.price { return .price(try Wire.price(price, currency: currency)) }
            if let deduction = item.deduction { return .deduction(try Wire.deduction(deduction, currency: currency)) }
            throw RemoteStoreError.unexpectedAnswer("a batch's answer names no record")
        }
    }

    // MARK: Reports

    /// The dashboard, with the whole records of its clinics and products: three requests, made
    /// side by side (a clinic or product made between them is read on its own).
    public func dashboard(today: Day) async throws -> Dashboard {
        let currency = try await currency()
        async let answer = call { try await client.dashboard(query: .init(date: today.description)).ok.body.json }
        async let clinicList = clinics(ClinicQuery(includeArchived: true))
        async let productList = products(ProductQuery(includeArchived: true))
        let dashboard = try await answer
        var clinics = Dictionary(uniqueKeysWithValues: try await clinicList.map { ($0.id, $0) })
        var products = Dictionary(uniqueKeysWithValues: try await productList.map { ($0.id, $0) })
        for id in dashboard.clinics.map({ Clinic.ID(Int64($0.id)) }) where clinics[id] == nil {
            clinics[id] = try await clinic(id)
        }
        for id in dashboard.products.map({ Product.ID(Int64($0.id)) }) where products[id] == nil {
            products[id] = try await product(id)
        }
        return try Wire.dashboard(dashboard, currency: currency, clinics: clinics, products: products)
    }

    public func headline(today: Day) async throws -> Headline {
        let currency = try await currency()
        let answer = try await call { try await client.dashboard(query: .init(date: today.description)).ok.body.json }
        return Headline(
            today: try Wire.day(answer.today),
            currency: currency,
            todayTotals: try Wire.totals(answer.todayTotals, currency: currency),
            monthTotals: try Wire.totals(answer.month, currency: currency),
            yearTotals: try Wire.totals(answer.yearToDate, currency: currency)
        )
    }

    public func statement(clinic clinicID: Clinic.ID, period: PayPeriod) async throws -> Statement {
        let settings = try await settings()
        let clinic = try await checkPeriod(period, of: clinicID)
        let answer = try await call {
            try await client.statement(path: .init(id: clinicID.rawValue), query: .init(date: period.start.description))
                .ok.body.json
        }
        let terms = try await terms(TermsQuery(clinicID: clinicID, includeArchived: true))
        let deductions = try await deductions(clinic: clinicID)
        return try Wire.statement(
            answer,
            clinic: clinic,
            period: period,
            settings: settings,
            terms: terms,
            deductions: deductions
        )
    }

    public func clinicMonths(from first: Day, through last: Day) async throws -> [ClinicMonth] {
        let currency = try await currency()
        return try await call {
            try await client.clinicMonths(query: .init(from: first.description, to: last.description)).ok.body.json
        }.map {
            ClinicMonth(
                clinicID: Clinic.ID($0.clinicId),
                month: try Wire.day($0.month),
                totals: try Wire.totals($0.totals, currency: currency)
            )
        }
    }

    public func reconciliation(clinic clinicID: Clinic.ID, today: Day) async throws -> Reconciliation {
        let currency = try await currency()
        let clinic = try await clinic(clinicID)
        let answer = try await call {
            try await client.reconciliation(path: .init(id: clinicID.rawValue), query: .init(date: today.description))
                .ok.body.json
        }
        return try Wire.reconciliation(answer, clinic: clinic, currency: currency, today: today)
    }

    // MARK: Import and audit

    /// Reads the source here and sends its rows in one request (`POST /api/v1/import/rows`): the
    /// server imports them whole or not at all, as a local store does. A refused row's column is
    /// the source's own (the server names the field). The whole import travels in one body, so its
    /// size is bounded by the server's `--max-body-size`.
    public func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary {
        let currency = try await currency()
        var rows: [ImportRow] = []
        let read = try source.read { rows.append($0) }
        options.progress?(rows.count + read.count)
        let body = Components.Schemas.ImportRowsInput(
            rows: rows.map { Wire.importRow($0, currency: currency) },
            problems: read.map {
                .init(
                    line: $0.line,
                    column: $0.column,
                    reason: $0.reason,
                    file: $0.file?.name,
                    fileIndex: $0.file?.index
                )
            },
            digests: options.digests.map { .init(name: $0.name, sha256: $0.sha256) },
            dryRun: options.dryRun,
            again: options.again,
            problemLimit: options.problemLimit
        )
        let answer: Components.Schemas.ImportResult
        do {
            answer = try await call {
                switch try await client.importRows(body: .json(body)) {
                case .created(let created): try created.body.json
                case .ok(let ok): try ok.body.json
                default: throw RemoteStoreError.unexpectedAnswer("an import answered with neither 201 nor 200")
                }
            }
        } catch StoreError.importRejected(let problems, let total) {
            // The server names the field of a row it refused; the reading's own problems keep their column.
            let own = Set(read)
            throw StoreError.importRejected(
                problems.map { problem in
                    guard !own.contains(problem), let field = problem.column else { return problem }
                    var mapped = problem
                    mapped.column = source.column(for: field, file: problem.file) ?? field
                    return mapped
                },
                total: total
            )
        }
        if !options.dryRun { wrote([.clinics, .products, .terms, .sales, .prices, .deductions]) }
        return ImportSummary(
            clinics: answer.clinics,
            products: answer.products,
            terms: answer.terms,
            sales: answer.sales,
            prices: answer.prices,
            scheduleChanges: answer.scheduleChanges,
            deductions: answer.deductions,
            dryRun: answer.dryRun
        )
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        try await call {
            try await client.auditLog(
                query: .init(
                    subject: query.subject.flatMap { .init(rawValue: $0.rawValue) },
                    subjectId: query.subjectID,
                    limit: query.page.limit,
                    offset: query.page.offset
                )
            ).ok.body.json
        }.map(Wire.audit)
    }

    // MARK: Sync

    /// Writes the whole book as a book archive to `path` (without the server's accounts and
    /// tokens), streamed; a download cut off midway lacks the archive's end line, and no restore
    /// takes it.
    public func downloadArchive(to path: String) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw StoreError.storage("could not write \(path)") }
        // try?: FileHandle does not buffer; a short file lacks the end line that a restore requires
        defer { try? handle.close() }
        try await call {
            let body = try await client.archive().ok.body.applicationJsonl
            for try await chunk in body { try handle.write(contentsOf: chunk) }
        }
    }

    /// What changed in the book after `revision` of the history `epoch` ("" for a device that knows
    /// none yet), as `BookChanges`; or, when the server cannot tell them from there, where its
    /// book stands (`ChangesAnswer.gone`). Also counts the bytes the answer took.
    public func changes(since revision: Int64, epoch: String) async throws -> ChangesAnswer {
        try await call {
            switch try await client.changesSince(path: .init(revision: revision), query: .init(epoch: epoch)) {
            case .ok(let answer):
                let data = try await Data(collecting: try answer.body.applicationJsonl, upTo: 1 << 30)
                state.withLock { $0.changesBytes += data.count }
                return .changes(try ArchiveFile.changes(from: data))
            case .gone(let answer):
                let position = try answer.body.json
                return .gone(BookPosition(epoch: position.epoch, revision: position.revision))
            case let other:
                throw RemoteStoreError.unexpectedAnswer("the changes of the book: \(other)")
            }
        }
    }

    /// The bytes the answers of ``changes(since:epoch:)`` took so far (what a sync pulled).
    public var changesBytes: Int { state.withLock { $0.changesBytes } }

    // MARK: Changes

    public func changes() -> StoreChanges {
        let stream = broadcaster.stream()
        state.withLock { state in
            if state.listening == nil { state.listening = listen() }
        }
        return stream
    }

    /// Reads the server's change stream for as long as the store lives, reconnecting after a
    /// failure (1 s, doubling to 30 s). Every connection, the first too, is told as a change of
    /// everything: what was written before the stream opened is unknown — after a reconnection,
    /// and also between an observer's first fetch and the first connection, which opens while
    /// that fetch runs.
    func listen() -> Task<Void, Never> {
        Task { [weak self, client, broadcaster] in
            var delay = Duration.seconds(1)
            while !Task.isCancelled, self != nil {
                do {
                    let body = try await client.changes().ok.body.textEventStream
                    // What changed before the stream opened is unknown: the settings are read again.
                    self?.state.withLock { $0.settings = nil }
                    broadcaster.send(Set(StoreTable.allCases))
                    delay = .seconds(1)
                    for try await event in body.asDecodedServerSentEvents() where event.event == "change" {
                        if let data = event.data,
                            // try?: data that is not a list of table names (all the server sends) names no change
                            let names = try? JSONDecoder().decode([String].self, from: Data(data.utf8))
                        {
                            let tables = Set(names.compactMap(StoreTable.init(rawValue:)))
                            if tables.contains(.book) { self?.state.withLock { $0.settings = nil } }
                            broadcaster.send(tables)
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                }
                // try?: Task.sleep throws only when cancelled, which the loop's condition checks
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            }
        }
    }
}

/// What a remote store throws beyond the `StoreError`s the server sends back.
public enum RemoteStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached, or its answer was lost (no network, the server down), also
    /// when the write was sent again: a change sent may or may not have been made. Sent again with
    /// the same idempotency key (``HTTPStore/idempotencyKey``), it is made once.
    case unreachable(String)
    /// The server refused the request for a reason of its own (no valid token: 401; a request
    /// this client should not have made: 400) — its sentence.
    case refused(status: Int, detail: String)
    /// The server answered with something this client cannot read.
    case unexpectedAnswer(String)
    /// The server answered with something this client cannot read, and runs another release than
    /// this client (`server`: the release it says, nil when it says none — a release before
    /// 2026.12.03): the sentence says which is older, and what to upgrade.
    case otherRelease(server: String?, what: String)
    /// What a remote store does not do (yet); the sentence says what to do instead.
    case unsupported(String)

    public var description: String {
        switch self {
        case .unreachable(let why):
            "The server cannot be reached (\(why)). A change sent may not have been made: try again when it answers."
        case .refused(let status, let detail): "The server refused the request (\(status)): \(detail)"
        case .unexpectedAnswer(let what):
            "The server's answer cannot be read (\(what)): is it a Commission server of the same version?"
        case .otherRelease(let server?, let what) where server > CommissionRelease.version:
            "The server runs Commission \(server), newer than this app's \(CommissionRelease.version), and answered what this app cannot read (\(what)): update the app."
        case .otherRelease(let server?, let what):
            "The server runs Commission \(server), older than this app's \(CommissionRelease.version), and answered what this app cannot read (\(what)): upgrade the server, or use the app of its release."
        case .otherRelease(nil, let what):
            "The server does not say its release — a Commission before 2026.12.03, older than this app's \(CommissionRelease.version), or not a Commission server — and answered what this app cannot read (\(what)): upgrade the server, or check its address."
        case .unsupported(let what): what
        }
    }
}

/// Gives every write an idempotency key (``HTTPStore/idempotencyKey``, else a fresh one) and sends
/// it again, with that key, when its answer was lost or the server asks to retry (409 with
/// `Retry-After`: the first try is still being answered): the server makes the change once.
struct IdempotentWrites: ClientMiddleware {
    let retries: Int

    static let key = HTTPField.Name("Idempotency-Key")!

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method != .get, request.method != .head else { return try await next(request, body, baseURL) }
        var request = request
        if request.headerFields[Self.key] == nil {
            request.headerFields[Self.key] = HTTPStore.idempotencyKey ?? UUID().uuidString
        }
        // A body that can be sent only once is not sent again.
        let retries = body == nil || body?.iterationBehavior == .multiple ? self.retries : 0
        var pause = Duration.milliseconds(250), attempt = 0
        while true {
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                guard response.status.code == 409, response.headerFields[.retryAfter] != nil, attempt < retries else {
                    return (response, responseBody)
                }
            } catch {
                guard attempt < retries, !(error is CancellationError) else { throw error }
            }
            try await Task.sleep(for: pause)
            pause *= 4
            attempt += 1
        }
    }
}

/// Sends the bearer token with every request.
struct Authorization: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Turns an error answer (a problem detail, RFC 9457) into the error it stands for before the
/// generated code reads it: the store's own error when the problem carries one, else
/// ``RemoteStoreError``.
struct Problems: ClientMiddleware {
    /// What the server refused, as the error the caller gets.
    struct Refusal: Error {
        let error: any Error
    }

    struct Problem: Decodable {
        var status: Int?
        var detail: String?
        var error: StoreErrorWire?
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        // Not a refusal: where the book stands, when its changes cannot be told from the device's revision.
        if operationID == "changesSince", response.status.code == 410 { return (response, responseBody) }
        var problem: Problem?
        if let responseBody {
            // try?: a body that is not the API's problem (a proxy's page): the status and its phrase are said
            problem = try? JSONDecoder().decode(Problem.self, from: await Data(collecting: responseBody, upTo: 1 << 20))
        }
        let detail = problem?.detail ?? response.status.reasonPhrase
        throw Refusal(
            error: problem?.error?.anyError ?? RemoteStoreError.refused(status: response.status.code, detail: detail)
        )
    }
}

/// The release the server says it runs, from the `Commission-Release` of its last answer
/// ("2026.12.03 (digest)"; a server before 2026.12.03 says none): an answer this client cannot
/// read from a server of another release says which is older (``RemoteStoreError/otherRelease(server:what:)``).
final class ServerRelease: ClientMiddleware, Sendable {
    static let header = HTTPField.Name("Commission-Release")!
    private let said = Mutex<(seen: Bool, release: String?)>((false, nil))

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, answer) = try await next(request, body, baseURL)
        let release = response.headerFields[Self.header].flatMap { $0.split(separator: " ").first.map(String.init) }
        said.withLock { $0 = (true, release) }
        return (response, answer)
    }

    /// `error` as this client tells it: an answer it cannot read, from a server that answered as
    /// another release, says which.
    func told(_ error: any Error) -> any Error {
        guard case RemoteStoreError.unexpectedAnswer(let what) = error else { return error }
        let (seen, release) = said.withLock { $0 }
        guard seen, release != CommissionRelease.version else { return error }
        return RemoteStoreError.otherRelease(server: release, what: what)
    }
}

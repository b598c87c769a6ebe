import CommissionCore

/// What an import has learned of the book and what it has done — the algorithm of an import
/// session, which both stores run inside their transaction: which names and clinic records a row
/// needs read, what it makes (through the ledger), and what that changes of what was read (a clinic's
/// new terms, its price list read again after a price, a schedule changed), with the counts of the
/// summary and the clinics whose sales the new terms recompute.
///
/// It does no I/O (an SQLite transaction is a synchronous closure, a PostgreSQL one asynchronous):
/// for each row a store asks what is ``missing(for:)`` and reads it (``learn(_:)``), takes the
/// ``write(for:)`` to perform, performs it and tells what it made (``wrote(_:)``).
public struct ImportState: Sendable {
    /// The book's rounding and the dates it takes, read once for the whole import.
    public let rules: EntryRules
    public private(set) var summary = ImportSummary()
    /// The earliest effective date of imported terms, per clinic: existing sales from then on are recomputed.
    public private(set) var recomputeFrom: [Clinic.ID: Day] = [:]
    /// How the book compares names (SQLite's NOCASE, PostgreSQL's `lower`).
    let fold: @Sendable (String) -> String
    /// Clinics and products by name as the file spells it and folded.
    private var clinics: [String: Clinic] = [:]
    private var products: [String: Product] = [:]
    private var candidates: [Clinic.ID: [Terms]] = [:]
    private var closed: [Clinic.ID: ClosedPeriods] = [:]
    private var prices: [Clinic.ID: [PriceListEntry]] = [:]

    public init(rules: EntryRules, fold: @escaping @Sendable (String) -> String) {
        self.rules = rules
        self.fold = fold
    }

    /// What a store reads for a row.
    public enum Lookup: Sendable, Hashable {
        /// The clinic or product of this name (``StoreError/unknownClinic(_:)`` when there is none).
        case clinic(String), product(String)
        /// A clinic's terms (archived ones too), closed periods, price list.
        case terms(Clinic.ID), closedPeriods(Clinic.ID), prices(Clinic.ID)
    }

    /// What a store read.
    public enum Learned: Sendable {
        case clinic(name: String, Clinic), product(name: String, Product)
        case terms(Clinic.ID, [Terms]), closedPeriods(Clinic.ID, ClosedPeriods), prices(Clinic.ID, [PriceListEntry])
    }

    /// A row's change to the book, as the store writes it.
    public enum Write: Sendable {
        case clinic(ClinicDraft)
        case product(ProductDraft)
        /// Terms the ledger accepted.
        case terms(TermsDraft)
        /// A sale the ledger made, not yet inserted.
        case sale(Sale)
        case price(PriceDraft)
        /// The clinic with its new schedule change.
        case scheduleChange(Clinic)
        case deduction(Deduction)
    }

    /// What a write made, when the rows that follow need it.
    public enum Written: Sendable {
        case clinic(Clinic), product(Product), terms(Terms), price(Clinic.ID), scheduleChange(Clinic), deduction
        /// A sale of that day.
        case sale(Day)
    }

    /// The first thing `record` needs that is not yet read, or nil when it can be written.
    public func missing(for record: ImportRecord) -> Lookup? {
        func clinic(_ name: String, then needs: (Clinic.ID) -> [Lookup]) -> Lookup? {
            guard let clinic = known(clinic: name) else { return .clinic(name) }
            return needs(clinic.id).first { !has($0) }
        }
        // Terms name no product for all of the clinic's; a sale or a price always names one (an
        // empty name is looked up, and refused as unknown).
        func product(_ name: String?, optional: Bool = false) -> Lookup? {
            guard let name, !(optional && name.isEmpty), known(product: name) == nil else { return nil }
            return .product(name)
        }
        switch record {
        case .clinic, .product:
            return nil
        case .terms(let draft):
            return clinic(draft.clinic) { [.terms($0)] } ?? product(draft.product, optional: true)
        case .sale(let named):
            return clinic(named.clinic) { [.terms($0), .closedPeriods($0), .prices($0)] } ?? product(named.product)
        case .price(let draft):
            return clinic(draft.clinic) { _ in [] } ?? product(draft.product)
        case .scheduleChange(let change):
            return clinic(change.clinic) { _ in [] }
        case .deduction(let draft):
            return clinic(draft.clinic) { _ in [] }
        }
    }

    public mutating func learn(_ learned: Learned) {
        switch learned {
        case .clinic(let name, let clinic):
            clinics[fold(name)] = clinic
            clinics[name] = clinic  // as spelled, which the next rows most likely repeat
        case .product(let name, let product):
            products[fold(name)] = product
            products[name] = product
        case .terms(let id, let terms): candidates[id] = terms
        case .closedPeriods(let id, let periods): closed[id] = periods
        case .prices(let id, let entries): prices[id] = entries
        }
    }

    /// What the row changes, once nothing is ``missing(for:)``; a refusal of the ledger or of the
    /// input is thrown, which the store reports as the row's problem.
    public func write(for record: ImportRecord) throws -> Write {
        switch record {
        case .clinic(let draft):
            return .clinic(
                ClinicDraft(
                    name: try StoreInput.name(draft.name, field: "name"),
                    schedule: try Ledger.schedule(draft.schedule, rules: rules)
                )
            )
        case .product(let draft):
            return .product(try StoreInput.product(draft, currency: rules.currency))
        case .terms(let draft):
            let clinic = try need(clinic: draft.clinic)
            let productID = try draft.product.flatMap { $0.isEmpty ? nil : try need(product: $0).id }
            let terms = TermsDraft(
                clinicID: clinic.id,
                productID: productID,
                basis: draft.basis,
                share: draft.share,
                tiers: draft.tiers,
                effectiveFrom: draft.effectiveFrom
            )
            _ = try Ledger.terms(terms, rules: rules)
            return .terms(terms)
        case .sale(let named):
            // read first: see missing(for:)
            guard let sale = try sale(for: named) else { throw StoreError.unknownClinic(named.clinic) }
            return .sale(sale)
        case .price(let draft):
            let clinic = try need(clinic: draft.clinic)
            return .price(
                PriceDraft(
                    clinicID: clinic.id,
                    productID: try need(product: draft.product).id,
                    unitPrice: draft.unitPrice,
                    unitCost: draft.unitCost,
                    effectiveFrom: draft.effectiveFrom
                )
            )
        case .scheduleChange(let change):
            var clinic = try need(clinic: change.clinic)
            clinic.scheduleChanges.append(
                ScheduleChange(effectiveFrom: change.effectiveFrom, schedule: change.schedule)
            )
            return .scheduleChange(clinic)
        case .deduction(let draft):
            return .deduction(
                Deduction(
                    id: Deduction.ID(0),
                    clinicID: try need(clinic: draft.clinic).id,
                    name: draft.name,
                    amount: draft.amount,
                    effectiveFrom: draft.effectiveFrom,
                    lastDay: draft.lastDay
                )
            )
        }
    }

    /// The sale a row makes, not yet inserted — or nil while something it needs is not read
    /// (``missing(for:)``). One look-up of each thing it needs: an import's rows are mostly sales
    /// of clinics and products already read, and this is their path.
    public func sale(for named: NamedSaleDraft) throws -> Sale? {
        guard let clinic = known(clinic: named.clinic), let product = known(product: named.product),
            let candidates = candidates[clinic.id],
            let closed = closed[clinic.id], let prices = prices[clinic.id]
        else { return nil }
        let draft = SaleDraft(
            clinicID: clinic.id,
            productID: product.id,
            date: named.date,
            quantity: named.quantity,
            unitPrice: named.unitPrice,
            unitCost: named.unitCost,
            discount: named.discount,
            noCommission: named.noCommission,
            note: named.note
        )
        return try Ledger.sale(
            draft,
            in: SaleContext(
                clinic: clinic,
                product: product,
                candidates: candidates,
                rules: rules,
                closed: closed,
                prices: prices
            )
        )
    }

    /// Takes what a write made into what the rows that follow read, and counts it.
    public mutating func wrote(_ written: Written) {
        switch written {
        case .clinic(let clinic):
            learn(.clinic(name: clinic.name, clinic))
            summary.clinics += 1
        case .product(let product):
            learn(.product(name: product.name, product))
            summary.products += 1
        case .terms(let terms):
            candidates[terms.clinicID, default: []].append(terms)
            recomputeFrom[terms.clinicID] = min(
                recomputeFrom[terms.clinicID] ?? terms.effectiveFrom,
                terms.effectiveFrom
            )
            summary.terms += 1
        case .sale(let day):
            summary.sales += 1
            summary.lastSaleDate = max(summary.lastSaleDate ?? day, day)
        case .price(let clinic):
            prices[clinic] = nil  // the sales that follow read the list again, with it
            summary.prices += 1
        case .scheduleChange(let clinic):
            for (key, cached) in clinics where cached.id == clinic.id { clinics[key] = clinic }
            summary.scheduleChanges += 1
        case .deduction:
            summary.deductions += 1
        }
    }

    // MARK: What was read

    private func known(clinic name: String) -> Clinic? { clinics[name] ?? clinics[fold(name)] }
    private func known(product name: String) -> Product? { products[name] ?? products[fold(name)] }

    private func has(_ lookup: Lookup) -> Bool {
        switch lookup {
        case .clinic(let name): known(clinic: name) != nil
        case .product(let name): known(product: name) != nil
        case .terms(let id): candidates[id] != nil
        case .closedPeriods(let id): closed[id] != nil
        case .prices(let id): prices[id] != nil
        }
    }

    private func need(clinic name: String) throws -> Clinic {
        guard let clinic = known(clinic: name) else { throw StoreError.unknownClinic(name) }
        return clinic
    }

    private func need(product name: String) throws -> Product {
        guard let product = known(product: name) else { throw StoreError.unknownProduct(name) }
        return product
    }
}

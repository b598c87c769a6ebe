import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Terms

    public func createTerms(_ draft: TermsDraft) async throws -> TermsChange {
        try await write([.terms, .sales]) { db in try Self.createTerms(db, draft) }
    }

    /// Adds terms and recomputes the sales they apply to, with the audit entry.
    static func createTerms(_ db: Database, _ draft: TermsDraft) throws -> TermsChange {
        let clinic = try Self.clinic(db, draft.clinicID)
        if let productID = draft.productID { _ = try Self.product(db, productID) }
        let draft = try Ledger.terms(draft, rules: try Self.rules(db))
        try db.execute(
            sql:
                "INSERT INTO terms (clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                draft.clinicID.rawValue, draft.productID?.rawValue, draft.basis.rawValue,
                draft.share.basisPoints, draft.effectiveFrom.description, Tier.stored(draft.tiers),
            ]
        )
        let terms = Terms(
            id: Terms.ID(db.lastInsertedRowID),
            clinicID: draft.clinicID,
            productID: draft.productID,
            basis: draft.basis,
            share: draft.share,
            tiers: draft.tiers,
            effectiveFrom: draft.effectiveFrom
        )
        try Self.record(db, Audit.Change(.terms, terms.id.rawValue, "create", before: nil, after: Audit.json(terms)))
        let (changed, closed) = try Self.recompute(db, clinic: clinic, from: draft.effectiveFrom)
        return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
    }

    public func terms(_ id: Terms.ID) async throws -> Terms {
        try await read { db in try Self.terms(db, id) }
    }

    static func terms(_ db: Database, _ id: Terms.ID) throws -> Terms {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT \(Rows.termsColumns) FROM terms WHERE id = ?",
                arguments: [id.rawValue]
            )
        else {
            throw StoreError.notFound(.terms, id: id.rawValue)
        }
        return try Rows.terms(row)
    }

    public func terms(_ query: TermsQuery) async throws -> [Terms] {
        try await read { db in
            var sql = "SELECT \(Rows.termsColumns) FROM terms WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID {
                sql += " AND clinicId = ?"
                arguments += [clinic.rawValue]
            }
            if let product = query.productID {
                sql += " AND productId = ?"
                arguments += [product.rawValue]
            }
            if !query.includeArchived { sql += " AND isArchived = 0" }
            sql += " ORDER BY clinicId, effectiveFrom, id"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.terms($0) }
        }
    }

    public func updateTerms(_ terms: Terms) async throws -> TermsChange {
        return try await write([.terms, .sales]) { db in
            let old = try Self.terms(db, terms.id)
            let (terms, from) = try Ledger.termsChange(from: old, to: terms, rules: try Self.rules(db))
            let clinic = try Self.clinic(db, terms.clinicID)
            if let productID = terms.productID { _ = try Self.product(db, productID) }
            if terms.tiers != old.tiers {
                let closedWithSales = try Self.closedPeriods(db, clinic: clinic.id).periods.filter { period in
                    try Int.fetchOne(
                        db,
                        sql: "SELECT count(*) FROM sale WHERE termsId = ? AND date BETWEEN ? AND ? AND isVoided = 0",
                        arguments: [terms.id.rawValue, period.start.description, period.end.description]
                    ) ?? 0 > 0
                }
                try Ledger.tiersChange(of: terms, clinic: clinic, closedWithSales: closedWithSales)
            }
            try db.execute(
                sql:
                    "UPDATE terms SET productId = ?, basis = ?, shareBasisPoints = ?, effectiveFrom = ?, isArchived = ?, tiers = ? WHERE id = ?",
                arguments: [
                    terms.productID?.rawValue, terms.basis.rawValue, terms.share.basisPoints,
                    terms.effectiveFrom.description, terms.isArchived, Tier.stored(terms.tiers), terms.id.rawValue,
                ]
            )
            try Self.record(
                db,
                Audit.Change(.terms, terms.id.rawValue, "update", before: Audit.json(old), after: Audit.json(terms))
            )
            let (changed, closed) = try Self.recompute(db, clinic: clinic, from: from)
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    /// Writes what the ledger plans for the clinic's sales from `from` on (``Ledger/recompute(_:clinic:candidates:rules:closed:productName:)``).
    static func recompute(_ db: Database, clinic: Clinic, from: Day) throws -> (changed: Int, closed: Int) {
        let sales = try Row.fetchAll(
            db,
            sql: """
                SELECT \(Rows.saleColumns) FROM sale
                WHERE clinicId = ? AND date >= ? AND isVoided = 0 AND termsId IS NOT NULL
                """,
            arguments: [clinic.id.rawValue, from.description]
        ).map { try Rows.sale($0) }
        let plan = try Ledger.recompute(
            sales,
            clinic: clinic,
            candidates: try termsCandidates(db, clinic: clinic.id),
            rules: try rules(db),
            closed: try closedPeriods(db, clinic: clinic.id),
            productName: { try Self.product(db, $0).name }
        )
        for (before, after) in plan.changes {
            try db.execute(
                sql: """
                    UPDATE sale SET termsId = ?, shareBasisPoints = ?, basis = ?, commissionExact = ?, commissionMinor = ?
                    WHERE id = ?
                    """,
                arguments: [
                    after.termsID?.rawValue, after.line.rate?.share.basisPoints, after.line.rate?.basis.rawValue,
                    after.figures.exactCommission.tenThousandths, after.figures.commission.minorUnits,
                    after.id.rawValue,
                ]
            )
            try record(
                db,
                Audit.Change(
                    .sale,
                    after.id.rawValue,
                    "recompute",
                    before: Audit.json(before),
                    after: Audit.json(after)
                )
            )
        }
        return (plan.changes.count, plan.inClosedPeriods)
    }

    static func termsCandidates(_ db: Database, clinic: Clinic.ID) throws -> [Terms] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(Rows.termsColumns) FROM terms WHERE clinicId = ? AND isArchived = 0"),
            arguments: [clinic.rawValue]
        ).map { try Rows.terms($0) }
    }

    /// The book's rounding and the dates it takes, as of now.
    static func rules(_ db: Database) throws -> EntryRules { EntryRules(try settings(db)) }

    /// A clinic's closed periods.
    static func closedPeriods(_ db: Database, clinic: Clinic.ID) throws -> ClosedPeriods {
        ClosedPeriods(
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT periodStart, periodEnd FROM closedPeriod WHERE clinicId = ?"),
                arguments: [clinic.rawValue]
            ).map {
                PayPeriod(
                    start: try Day.stored($0[0], row: "A closed period of clinic \(clinic)"),
                    end: try Day.stored($0[1], row: "A closed period of clinic \(clinic)")
                )
            }
        )
    }

    /// What a change to a sale at this clinic of this product needs to know.
    static func saleContext(_ db: Database, clinic: Clinic.ID, product: Product.ID) throws -> SaleContext {
        try saleContextParts(db, clinic: clinic, product: product).context()
    }

    /// ``saleContext(_:clinic:product:)`` but for its entry rules, which depend on the day: what
    /// ``SaleContextCache`` keeps.
    static func saleContextParts(
        _ db: Database,
        clinic: Clinic.ID,
        product: Product.ID
    ) throws -> SaleContextCache.Parts {
        SaleContextCache.Parts(
            clinic: try Self.clinic(db, clinic),
            product: try Self.product(db, product),
            candidates: try termsCandidates(db, clinic: clinic),
            settings: try settings(db),
            closed: try closedPeriods(db, clinic: clinic),
            prices: try priceEntries(db, clinic: clinic, product: product)
        )
    }

    // MARK: Sales

    public func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale {
        let key = try StoreInput.idempotencyKey(idempotencyKey)
        return try await write([.sales]) { [saleContexts] db in
            try Self.createSale(db, draft, key: key, contexts: saleContexts)
        }
    }

    /// Records a sale (or, for a key already used, returns the sale it recorded), with its audit entry.
    /// With `contexts` (a write that does nothing else), what it reads of its clinic and product may
    /// come from what an earlier sale read.
    static func createSale(
        _ db: Database,
        _ draft: SaleDraft,
        key: String?,
        contexts: SaleContextCache? = nil
    ) throws -> Sale {
        if let key,
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.saleColumns) FROM sale WHERE idempotencyKey = ?"),
                arguments: [key]
            )
        {
            return try Ledger.replay(draft, of: try Rows.sale(row), key: key)
        }
        let context =
            if let contexts {
                try contexts.context(db, clinic: draft.clinicID, product: draft.productID) { db in
                    try saleContextParts(db, clinic: draft.clinicID, product: draft.productID)
                }
            } else {
                try Self.saleContext(db, clinic: draft.clinicID, product: draft.productID)
            }
        var sale = try Ledger.sale(draft, in: context)
        try FastStatement.execute(try db.cachedStatement(sql: Self.insertSaleSQL)) { row in
            Self.bind(sale, idempotencyKey: key, to: &row)
        }
        sale.id = Sale.ID(db.lastInsertedRowID)
        try Self.record(db, Audit.Change(.sale, sale.id.rawValue, "create", before: nil, after: Audit.json(sale)))
        return sale
    }

    /// The insert of a sale, bound by ``bind(_:idempotencyKey:to:)`` (an import inserts through ``SaleFeed``).
    static let insertSaleSQL = """
        INSERT INTO sale (\(SaleRow.columns.joined(separator: ", ")), idempotencyKey)
        VALUES (\(repeatElement("?", count: SaleRow.columns.count + 1).joined(separator: ", ")))
        """

    /// Binds a sale's columns (``SaleRow/columns``), then its idempotency key.
    static func bind(_ sale: Sale, idempotencyKey: String?, to statement: inout FastStatement) {
        let row = SaleRow(sale)
        statement.bind(row.clinicID)
        statement.bind(row.productID)
        statement.bind(row.date)
        statement.bind(row.quantity)
        statement.bind(row.unitPriceMinor)
        statement.bind(row.unitCostMinor)
        statement.bind(row.discountMinor)
        statement.bind(row.termsID)
        statement.bind(row.shareBasisPoints.map(Int64.init))
        statement.bind(row.basis)
        statement.bind(row.revenueMinor)
        statement.bind(row.costMinor)
        statement.bind(row.profitMinor)
        statement.bind(row.commissionExact)
        statement.bind(row.commissionMinor)
        statement.bind(row.note)
        statement.bind(idempotencyKey)
    }

    public func sale(_ id: Sale.ID) async throws -> Sale {
        try await read { db in try Self.sale(db, id) }
    }

    static func sale(_ db: Database, _ id: Sale.ID) throws -> Sale {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT \(Rows.saleColumns) FROM sale WHERE id = ?",
                arguments: [id.rawValue]
            )
        else {
            throw StoreError.notFound(.sales, id: id.rawValue)
        }
        return try Rows.sale(row)
    }

    private static func saleFilter(_ query: SaleQuery) -> (String, StatementArguments) {
        var sql = " WHERE 1"
        var arguments = StatementArguments()
        if let clinic = query.clinicID {
            sql += " AND sale.clinicId = ?"
            arguments += [clinic.rawValue]
        }
        if let product = query.productID {
            sql += " AND sale.productId = ?"
            arguments += [product.rawValue]
        }
        if let from = query.from {
            sql += " AND sale.date >= ?"
            arguments += [from.description]
        }
        if let through = query.through {
            sql += " AND sale.date <= ?"
            arguments += [through.description]
        }
        if !query.includeVoided { sql += " AND sale.isVoided = 0" }
        if let text = query.text, !text.isEmpty {
            sql +=
                " AND (sale.note LIKE ? ESCAPE '\\' OR sale.productId IN (SELECT id FROM product WHERE name LIKE ? ESCAPE '\\'))"
            arguments += [StoreInput.likePattern(text), StoreInput.likePattern(text)]
        }
        return (sql, arguments)
    }

    /// The sales list's statement: in the order of `sale_date` (date, id), which every filter
    /// but the clinic's (`sale_clinic_date`) scans without a sort.
    package static func salesStatement(_ query: SaleQuery) -> (sql: String, arguments: StatementArguments) {
        var (filter, arguments) = saleFilter(query)
        let order =
            switch query.order {
            case .newestFirst: "sale.date DESC, sale.id DESC"
            case .oldestFirst: "sale.date, sale.id"
            case .latestRecorded: "sale.id DESC"
            }
        return (
            "SELECT \(Rows.saleColumns) FROM sale" + filter + " ORDER BY \(order)"
                + limitClause(query.page, &arguments), arguments
        )
    }

    /// The count beside the sales list. Sales that are not voided, filtered by clinic and dates only
    /// (the sales page as it opens), are counted by the day summary, which the triggers keep exact:
    /// a sum over at most a row per clinic and day, where counting the sales scanned an index of
    /// every sale (60–100 ms at a million). Other filters count the sales themselves.
    package static func countSalesStatement(_ query: SaleQuery) -> (sql: String, arguments: StatementArguments) {
        // Everything but the clinic, the dates, the order and the page as a plain query has it: a
        // filter added to `SaleQuery` later counts the sales until the summary is taught it.
        var others = query
        (others.clinicID, others.from, others.through, others.order, others.page) = (
            nil, nil, nil, SaleQuery().order, .all
        )
        if others.text?.isEmpty == true { others.text = nil }
        if others == SaleQuery() {
            var sql = "SELECT coalesce(sum(saleCount), 0) FROM clinicDayTotal WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID {
                sql += " AND clinicId = ?"
                arguments += [clinic.rawValue]
            }
            if let from = query.from {
                sql += " AND date >= ?"
                arguments += [from.description]
            }
            if let through = query.through {
                sql += " AND date <= ?"
                arguments += [through.description]
            }
            return (sql, arguments)
        }
        let (filter, arguments) = saleFilter(query)
        return ("SELECT count(*) FROM sale" + filter, arguments)
    }

    public func sales(_ query: SaleQuery) async throws -> [Sale] {
        try await read { db in
            let (sql, arguments) = Self.salesStatement(query)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.sale($0) }
        }
    }

    public func daysWithSales(from first: Day, through last: Day) async throws -> Set<Day> {
        try await read { db in
            // The day summary has a row per clinic and day with sales (voided ones count nowhere);
            // naming the clinics lets its key (clinicId, date) find each clinic's range of days.
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT date FROM clinicDayTotal WHERE clinicId IN (SELECT id FROM clinic) AND date BETWEEN ? AND ? AND saleCount > 0
                        """,
                    arguments: [first.description, last.description]
                ).compactMap(Day.reading(stored:))
            )
        }
    }

    public func countSales(_ query: SaleQuery) async throws -> Int {
        try await read { db in
            let (sql, arguments) = Self.countSalesStatement(query)
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }

    public func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale {
        return try await write([.sales]) { db in
            let old = try Self.sale(db, id)
            let sale = try Ledger.edit(
                old,
                oldContext: try Self.closedPeriods(db, clinic: old.clinicID),
                oldClinic: try Self.clinic(db, old.clinicID),
                to: draft,
                in: try Self.saleContext(db, clinic: draft.clinicID, product: draft.productID)
            )
            let row = SaleRow(sale)
            try db.execute(
                sql: """
                    UPDATE sale SET \(SaleRow.columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
                    """,
                arguments: [
                    row.clinicID, row.productID, row.date, row.quantity, row.unitPriceMinor, row.unitCostMinor,
                    row.discountMinor,
                    row.termsID, row.shareBasisPoints, row.basis, row.revenueMinor, row.costMinor, row.profitMinor,
                    row.commissionExact, row.commissionMinor, row.note, id.rawValue,
                ]
            )
            try Self.record(
                db,
                Audit.Change(.sale, id.rawValue, "update", before: Audit.json(old), after: Audit.json(sale))
            )
            return sale
        }
    }

    public func voidSale(_ id: Sale.ID) async throws -> Sale {
        try await write([.sales]) { db in try Self.voidSale(db, id) }
    }

    /// Voids a sale, with its audit entry.
    static func voidSale(_ db: Database, _ id: Sale.ID) throws -> Sale {
        let sale = try Self.sale(db, id)
        guard
            let voided = try Ledger.void(
                sale,
                clinic: try Self.clinic(db, sale.clinicID),
                closed: try Self.closedPeriods(db, clinic: sale.clinicID)
            )
        else {
            return sale
        }
        try db.execute(sql: "UPDATE sale SET isVoided = 1 WHERE id = ?", arguments: [id.rawValue])
        try Self.record(
            db,
            Audit.Change(.sale, id.rawValue, "void", before: Audit.json(sale), after: Audit.json(voided))
        )
        return voided
    }

    // MARK: Payouts and periods

    public func createPayout(_ draft: PayoutDraft) async throws -> Payout {
        try await write([.payouts]) { db in try Self.createPayout(db, draft) }
    }

    public func createPayouts(_ drafts: [PayoutDraft]) async throws -> [Payout] {
        try await write([.payouts]) { db in try drafts.map { try Self.createPayout(db, $0) } }
    }

    /// Records a payout, with its audit entry.
    static func createPayout(_ db: Database, _ draft: PayoutDraft) throws -> Payout {
        let clinic = try Self.clinic(db, draft.clinicID)
        let draft = try Ledger.payout(
            draft,
            clinic: clinic,
            rules: try Self.rules(db),
            closed: try Self.closedPeriods(db, clinic: clinic.id)
        )
        try db.execute(
            sql: """
                INSERT INTO payout (clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference) VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                clinic.id.rawValue, draft.period.start.description, draft.period.end.description,
                draft.amount.minorUnits, draft.receivedOn.description, draft.reference,
            ]
        )
        let payout = Payout(
            id: Payout.ID(db.lastInsertedRowID),
            clinicID: clinic.id,
            period: draft.period,
            amount: draft.amount,
            receivedOn: draft.receivedOn,
            reference: draft.reference
        )
        try Self.record(db, Audit.Change(.payout, payout.id.rawValue, "create", before: nil, after: Audit.json(payout)))
        return payout
    }

    public func payouts(_ query: PayoutQuery) async throws -> [Payout] {
        try await read { db in
            var sql = "SELECT \(Rows.payoutColumns) FROM payout WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID {
                sql += " AND clinicId = ?"
                arguments += [clinic.rawValue]
            }
            if let period = query.period {
                sql += " AND periodStart = ? AND periodEnd = ?"
                arguments += [period.start.description, period.end.description]
            }
            sql += " ORDER BY periodStart, receivedOn, id" + Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.payout($0) }
        }
    }

    public func deletePayout(_ id: Payout.ID) async throws {
        try await write([.payouts]) { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT \(Rows.payoutColumns) FROM payout WHERE id = ?",
                    arguments: [id.rawValue]
                )
            else {
                throw StoreError.notFound(.payouts, id: id.rawValue)
            }
            let payout = try Rows.payout(row)
            try Ledger.payoutRemoval(
                payout,
                clinic: try Self.clinic(db, payout.clinicID),
                closed: try Self.closedPeriods(db, clinic: payout.clinicID)
            )
            try db.execute(sql: "DELETE FROM payout WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.payout, id.rawValue, "delete", before: Audit.json(payout), after: nil))
        }
    }

    public func closePeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { db in
            try Ledger.closing(period, of: try Self.clinic(db, id), rules: try Self.rules(db))
            try db.execute(
                sql: "INSERT OR IGNORE INTO closedPeriod (clinicId, periodStart, periodEnd) VALUES (?, ?, ?)",
                arguments: [id.rawValue, period.start.description, period.end.description]
            )
            if db.changesCount > 0 {
                try Self.record(
                    db,
                    Audit.Change(
                        .period,
                        id.rawValue,
                        "close",
                        before: Audit.json(clinic: id, period: period, closed: false),
                        after: Audit.json(clinic: id, period: period, closed: true)
                    )
                )
            }
        }
    }

    public func reopenPeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { db in
            try Ledger.reopening(period, of: try Self.clinic(db, id))
            try db.execute(
                sql: "DELETE FROM closedPeriod WHERE clinicId = ? AND periodStart = ?",
                arguments: [id.rawValue, period.start.description]
            )
            if db.changesCount > 0 {
                try Self.record(
                    db,
                    Audit.Change(
                        .period,
                        id.rawValue,
                        "reopen",
                        before: Audit.json(clinic: id, period: period, closed: true),
                        after: Audit.json(clinic: id, period: period, closed: false)
                    )
                )
            }
        }
    }

    // MARK: Audit

    /// Records a change in the audit log, in the transaction that makes it, as made by `Audit.actor`
    /// (which ``write(_:bump:_:)`` carries onto the writer's thread).
    /// Bound through SQLite's C API (``FastStatement``): an entry is written with every sale
    /// entered, in the writer's transaction. No observer of this connection watches the audit log.
    static func record(_ db: Database, _ change: Audit.Change) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO auditEntry (at, actor, subject, subjectId, lastSubjectId, action, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        try FastStatement.execute(statement) { row in
            row.bind(Int64(Date().timeIntervalSince1970))
            row.bind(Audit.actor)
            row.bind(change.subject.rawValue)
            row.bind(change.subjectID)
            row.bind(change.lastSubjectID)
            row.bind(change.action)
            row.bind(change.before)
            row.bind(change.after)
        }
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        try await read { db in
            var sql = "SELECT \(Rows.auditColumns) FROM auditEntry WHERE 1"
            var arguments = StatementArguments()
            if let subject = query.subject {
                sql += " AND subject = ?"
                arguments += [subject.rawValue]
                if let id = query.subjectID {
                    // An import covers a range of sale ids.
                    sql +=
                        " AND (subjectId = ? OR (lastSubjectId IS NOT NULL AND subjectId <= ? AND lastSubjectId >= ?))"
                    arguments += [id, id, id]
                }
            }
            sql += " ORDER BY id DESC" + Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Rows.audit)
        }
    }
}

extension SQLiteStore {
    // MARK: Transactions

    public func apply(_ writes: [StoreWrite]) async throws -> [StoreWritten] {
        // What needs no database is checked before the transaction starts.
        let writes = try writes.map { try $0.cleaned() }
        return try await write(writes.tables) { db in try writes.map { try Self.apply(db, $0) } }
    }

    static func apply(_ db: Database, _ write: StoreWrite) throws -> StoreWritten {
        switch write {
        case .createClinic(let draft): return .clinic(try createClinic(db, draft))
        case .createProduct(let draft): return .product(try insertProduct(db, draft))
        case .createTerms(let draft): return .terms(try createTerms(db, draft))
        case .createSale(let draft, let key): return .sale(try createSale(db, draft, key: key))
        case .voidSale(let id): return .sale(try voidSale(db, id))
        case .createPayout(let draft): return .payout(try createPayout(db, draft))
        case .setPrice(let draft): return .price(try setPrice(db, draft))
        case .createDeduction(let deduction): return .deduction(try createDeduction(db, deduction))
        }
    }
}

import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore {
    // MARK: Terms

    public func createTerms(_ draft: TermsDraft) async throws -> TermsChange {
        try await write([.terms, .sales]) { connection in try await createTerms(connection, draft) }
    }

    /// Adds terms and recomputes the sales they apply to, with the audit entry.
    func createTerms(_ connection: PostgresConnection, _ draft: TermsDraft) async throws -> TermsChange {
        let clinic = try await clinic(connection, draft.clinicID)
        if let productID = draft.productID { _ = try await product(connection, productID) }
        let draft = try Ledger.terms(draft, rules: try await rules(connection))
        let id = try await int(
            connection,
            """
            INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom, tiers)
            VALUES (\(book), \(draft.clinicID.rawValue), \(draft.productID?.rawValue), \(draft.basis.rawValue),
                    \(draft.share.basisPoints), \(draft.effectiveFrom.description)::date, \(Tier.stored(draft.tiers)))
            RETURNING id
            """
        )
        let terms = Terms(
            id: Terms.ID(id),
            clinicID: draft.clinicID,
            productID: draft.productID,
            basis: draft.basis,
            share: draft.share,
            tiers: draft.tiers,
            effectiveFrom: draft.effectiveFrom
        )
        try await record(connection, Audit.Change(.terms, id, "create", before: nil, after: Audit.json(terms)))
        let (changed, closed) = try await recompute(connection, clinic: clinic, from: draft.effectiveFrom)
        return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
    }

    public func terms(_ id: Terms.ID) async throws -> Terms {
        try await read { connection in try await terms(connection, id) }
    }

    func terms(_ connection: PostgresConnection, _ id: Terms.ID) async throws -> Terms {
        guard
            let terms = try await termsList(
                connection,
                try SQL("SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND id = ?", book, id.rawValue).query
            ).first
        else {
            throw StoreError.notFound(.terms, id: id.rawValue)
        }
        return terms
    }

    public func terms(_ query: TermsQuery) async throws -> [Terms] {
        var sql = try SQL("SELECT \(Columns.terms) FROM terms WHERE bookId = ?", book)
        if let clinic = query.clinicID { try sql.add(" AND clinicId = ?", clinic.rawValue) }
        if let product = query.productID { try sql.add(" AND productId = ?", product.rawValue) }
        if !query.includeArchived { try sql.add(" AND NOT isArchived") }
        try sql.add(" ORDER BY clinicId, effectiveFrom, id")
        let built = sql.query
        return try await read { connection in try await termsList(connection, built) }
    }

    func termsList(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Terms] {
        try await connection.query(query, logger: logger).decode(
            (Int64, Int64, Int64?, String, Int, String, Bool, String?).self
        ).all()
            .map { id, clinic, product, basis, points, from, archived, tiers in
                // try?: a share out of range is thrown just after, as malformed stored terms
                guard let basis = CommissionBasis(rawValue: basis), let share = try? Share(basisPoints: points) else {
                    throw StoreError.storage("stored terms are malformed")
                }
                return Terms(
                    id: Terms.ID(id),
                    clinicID: Clinic.ID(clinic),
                    productID: product.map { Product.ID($0) },
                    basis: basis,
                    share: share,
                    tiers: try Tier.reading(stored: tiers, terms: id),
                    effectiveFrom: try Day.stored(from, row: "Terms \(id)'s effective date"),
                    isArchived: archived
                )
            }
    }

    func termsCandidates(_ connection: PostgresConnection, clinic: Clinic.ID) async throws -> [Terms] {
        try await termsList(
            connection,
            try SQL(
                "SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND clinicId = ? AND NOT isArchived",
                book,
                clinic.rawValue
            ).query
        )
    }

    public func updateTerms(_ terms: Terms) async throws -> TermsChange {
        return try await write([.terms, .sales]) { connection in
            let old = try await self.terms(connection, terms.id)
            let (terms, from) = try Ledger.termsChange(from: old, to: terms, rules: try await rules(connection))
            let clinic = try await clinic(connection, terms.clinicID)
            if let productID = terms.productID { _ = try await product(connection, productID) }
            if terms.tiers != old.tiers {
                var closedWithSales: [PayPeriod] = []
                for period in try await closedPeriods(connection, clinic: clinic.id).periods
                where try await int(
                    connection,
                    """
                    SELECT count(*) FROM sale WHERE bookId = \(book) AND termsId = \(terms.id.rawValue) AND NOT isVoided
                    AND date BETWEEN \(period.start.description)::date AND \(period.end.description)::date
                    """
                ) > 0 {
                    closedWithSales.append(period)
                }
                try Ledger.tiersChange(of: terms, clinic: clinic, closedWithSales: closedWithSales)
            }
            try await connection.query(
                """
                UPDATE terms SET productId = \(terms.productID?.rawValue), basis = \(terms.basis.rawValue),
                    shareBasisPoints = \(terms.share.basisPoints), effectiveFrom = \(terms.effectiveFrom.description)::date,
                    isArchived = \(terms.isArchived), tiers = \(Tier.stored(terms.tiers))
                WHERE bookId = \(book) AND id = \(terms.id.rawValue)
                """,
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.terms, terms.id.rawValue, "update", before: Audit.json(old), after: Audit.json(terms))
            )
            let (changed, closed) = try await recompute(connection, clinic: clinic, from: from)
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    /// Writes what the ledger plans for the clinic's sales from `from` on (``Ledger/recompute(_:clinic:candidates:rules:closed:productName:)``).
    func recompute(
        _ connection: PostgresConnection,
        clinic: Clinic,
        from: Day
    ) async throws -> (changed: Int, closed: Int) {
        let sales = try await sales(
            connection,
            try SQL(
                """
                SELECT \(Columns.sale) FROM sale
                WHERE bookId = ? AND clinicId = ? AND date >= ?::date AND NOT isVoided AND termsId IS NOT NULL
                """,
                book,
                clinic.id.rawValue,
                from.description
            ).query
        )
        var names: [Product.ID: String] = [:]
        for id in Set(sales.map(\.productID)) { names[id] = try await product(connection, id).name }
        let plan = try Ledger.recompute(
            sales,
            clinic: clinic,
            candidates: try await termsCandidates(connection, clinic: clinic.id),
            rules: try await rules(connection),
            closed: try await closedPeriods(connection, clinic: clinic.id),
            productName: { names[$0] ?? "product \($0)" }
        )
        for (before, after) in plan.changes {
            try await connection.query(
                """
                UPDATE sale SET termsId = \(after.termsID?.rawValue), shareBasisPoints = \(after.line.rate?.share.basisPoints),
                    basis = \(after.line.rate?.basis.rawValue), commissionExact = \(after.figures.exactCommission.tenThousandths),
                    commissionMinor = \(after.figures.commission.minorUnits)
                WHERE bookId = \(book) AND id = \(after.id.rawValue)
                """,
                logger: logger
            )
            try await record(
                connection,
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

    /// The book's rounding and the dates it takes, as of now.
    func rules(_ connection: PostgresConnection) async throws -> EntryRules {
        EntryRules(try await settings(connection))
    }

    /// A clinic's closed periods.
    func closedPeriods(_ connection: PostgresConnection, clinic: Clinic.ID) async throws -> ClosedPeriods {
        ClosedPeriods(
            try await connection.query(
                """
                SELECT periodStart::text, periodEnd::text FROM closedPeriod WHERE bookId = \(book) AND clinicId = \(clinic.rawValue)
                """,
                logger: logger
            ).decode((String, String).self).all().map {
                PayPeriod(
                    start: try Day.stored($0, row: "A closed period of clinic \(clinic)"),
                    end: try Day.stored($1, row: "A closed period of clinic \(clinic)")
                )
            }
        )
    }

    /// What a change to a sale at this clinic of this product needs to know.
    func saleContext(
        _ connection: PostgresConnection,
        clinic: Clinic.ID,
        product: Product.ID,
        rules: EntryRules? = nil
    ) async throws -> SaleContext {
        var rules = rules
        if rules == nil { rules = try await self.rules(connection) }
        return SaleContext(
            clinic: try await self.clinic(connection, clinic),
            product: try await self.product(connection, product),
            candidates: try await termsCandidates(connection, clinic: clinic),
            rules: rules!,
            closed: try await closedPeriods(connection, clinic: clinic),
            prices: try await priceEntries(connection, clinic: clinic, product: product)
        )
    }

    // MARK: Sales

    public func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale {
        let key = try StoreInput.idempotencyKey(idempotencyKey)
        return try await write([.sales], lock: .sharedWithSales) { connection in
            // Two sales sent with one key wait for each other here, so the second finds the first.
            if let key {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(LockSpace.saleKey.rawValue), hashtext(\(key)))",
                    logger: logger
                )
            }
            let (sale, kept) = try await createSale(connection, draft, key: key)
            // Written beside other sales, it settles its own kept figures (a write of its own lock does not).
            if kept { try await settlePeriodFigures(connection) }
            return sale
        }
    }

    /// Records a sale (or, for a key already used, returns the sale it recorded), with its audit
    /// entry; and whether its clinic's figures are kept by period (``settlePeriodFigures(_:)``).
    ///
    /// Its id is drawn first, so that the sale and its audit entry are written by one statement,
    /// the last before the commit: sales written side by side wait for each other (at their
    /// summary rows and the commit order) only from there.
    func createSale(
        _ connection: PostgresConnection,
        _ draft: SaleDraft,
        key: String?
    ) async throws -> (sale: Sale, kept: Bool) {
        let rows = try await connection.query(
            """
            SELECT nextval(pg_get_serial_sequence('sale', 'id')),
                   (SELECT id FROM sale WHERE bookId = \(book) AND idempotencyKey = \(key)),
                   EXISTS (SELECT 1 FROM clinicPeriodKept WHERE bookId = \(book) AND clinicId = \(draft.clinicID.rawValue))
            """,
            logger: logger
        ).decode((Int64, Int64?, Bool).self).all()
        guard let (id, earlier, kept) = rows.first else { throw StoreError.storage("the sale's id was not drawn") }
        if let key, let earlier {
            return (try Ledger.replay(draft, of: try await sale(connection, Sale.ID(earlier)), key: key), false)
        }
        var sale = try Ledger.sale(
            draft,
            in: try await saleContext(connection, clinic: draft.clinicID, product: draft.productID)
        )
        sale.id = Sale.ID(id)
        let row = SaleRow(sale), change = Audit.Change(.sale, id, "create", before: nil, after: Audit.json(sale))
        try await connection.query(
            """
            WITH commitOrder AS MATERIALIZED (SELECT \(unescaped: commitOrder.sql)),
            inserted AS (
                INSERT INTO sale (id, bookId, \(unescaped: SaleRow.columns.joined(separator: ", ")), idempotencyKey)
                SELECT \(id), \(book), \(row.clinicID), \(row.productID), \(row.date)::date, \(row.quantity), \(row.unitPriceMinor),
                       \(row.unitCostMinor), \(row.discountMinor), \(row.termsID), \(row.shareBasisPoints), \(row.basis), \(row.revenueMinor),
                       \(row.costMinor), \(row.profitMinor), \(row.commissionExact), \(row.commissionMinor), \(row.note), \(key)
                FROM commitOrder
            )
            INSERT INTO auditEntry (\(unescaped: Columns.auditWritten.joined(separator: ", ")))
            SELECT \(book), \(Int64(Date().timeIntervalSince1970)), \(Audit.actor), \(change.subject.rawValue), \(change.subjectID),
                   \(change.lastSubjectID), \(change.action), \(change.before), \(change.after)
            FROM commitOrder
            """,
            logger: logger
        )
        return (sale, kept)
    }

    /// Inserts a sale the ledger made (``SaleRow/columns``), and returns it with its id.
    func insert(_ connection: PostgresConnection, _ sale: Sale, idempotencyKey: String?) async throws -> Sale {
        let row = SaleRow(sale)
        let id = try await int(
            connection,
            """
            INSERT INTO sale (bookId, \(unescaped: SaleRow.columns.joined(separator: ", ")), idempotencyKey)
            VALUES (\(book), \(row.clinicID), \(row.productID), \(row.date)::date, \(row.quantity), \(row.unitPriceMinor), \(row.unitCostMinor),
                    \(row.discountMinor), \(row.termsID), \(row.shareBasisPoints), \(row.basis), \(row.revenueMinor), \(row.costMinor),
                    \(row.profitMinor), \(row.commissionExact), \(row.commissionMinor), \(row.note), \(idempotencyKey))
            RETURNING id
            """
        )
        var inserted = sale
        inserted.id = Sale.ID(id)
        return inserted
    }

    public func sale(_ id: Sale.ID) async throws -> Sale {
        try await read { connection in try await sale(connection, id) }
    }

    func sale(_ connection: PostgresConnection, _ id: Sale.ID) async throws -> Sale {
        guard
            let sale = try await sales(
                connection,
                try SQL("SELECT \(Columns.sale) FROM sale WHERE bookId = ? AND id = ?", book, id.rawValue).query
            ).first
        else {
            throw StoreError.notFound(.sales, id: id.rawValue)
        }
        return sale
    }

    func sales(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Sale] {
        try await connection.query(query, logger: logger).all().map { try Self.saleRow($0).sale() }
    }

    /// The row ``Columns/sale`` selects; with `keyed`, the idempotency key follows it.
    static func saleRow(_ row: PostgresRow, keyed: Bool = false) throws -> SaleRow {
        guard keyed else {
            var cells = row.makeIterator()
            return try saleRow(&cells)
        }
        var (sale, key) = try saleRow(row, then: String?.self)
        sale.idempotencyKey = key
        return sale
    }

    /// The row ``Columns/sale`` selects, and the column after it.
    static func saleRow<Next: PostgresDecodable>(_ row: PostgresRow, then next: Next.Type) throws -> (SaleRow, Next) {
        var cells = row.makeIterator()
        let sale = try saleRow(&cells)
        guard let cell = cells.next() else { throw StoreError.storage("a sale's row is short of a column") }
        return (sale, try cell.decode(Next.self))
    }

    /// The sale of the row's next cells, read one by one: a row's whole tuple decoded at once
    /// instantiates generic metadata for every cell, which was most of a long statement's time.
    private static func saleRow(_ cells: inout PostgresRow.Iterator) throws -> SaleRow {
        func next<Value: PostgresDecodable>(_: Value.Type) throws -> Value {
            guard let cell = cells.next() else { throw StoreError.storage("a sale's row is short of a column") }
            return try cell.decode(Value.self)
        }
        return SaleRow(
            id: try next(Int64.self),
            clinicID: try next(Int64.self),
            productID: try next(Int64.self),
            date: try next(String.self),
            quantity: try next(Int64.self),
            unitPriceMinor: try next(Int64.self),
            unitCostMinor: try next(Int64.self),
            discountMinor: try next(Int64.self),
            termsID: try next(Int64?.self),
            shareBasisPoints: try next(Int?.self),
            basis: try next(String?.self),
            revenueMinor: try next(Int64.self),
            costMinor: try next(Int64.self),
            profitMinor: try next(Int64.self),
            commissionExact: try next(Int64.self),
            commissionMinor: try next(Int64.self),
            note: try next(String?.self),
            isVoided: try next(Bool.self),
            idempotencyKey: nil
        )
    }

    private func saleFilter(_ query: SaleQuery, into sql: inout SQL) throws {
        try sql.add(" WHERE sale.bookId = ?", book)
        if let clinic = query.clinicID { try sql.add(" AND sale.clinicId = ?", clinic.rawValue) }
        if let product = query.productID { try sql.add(" AND sale.productId = ?", product.rawValue) }
        if let from = query.from { try sql.add(" AND sale.date >= ?::date", from.description) }
        if let through = query.through { try sql.add(" AND sale.date <= ?::date", through.description) }
        if !query.includeVoided { try sql.add(" AND NOT sale.isVoided") }
        if let text = query.text, !text.isEmpty {
            let pattern = StoreInput.likePattern(text)
            try sql.add(
                """
                 AND (sale.note ILIKE ? ESCAPE '\\' OR sale.productId IN (SELECT id FROM product WHERE bookId = ? AND name ILIKE ? ESCAPE '\\'))
                """,
                pattern,
                book,
                pattern
            )
        }
    }

    public func sales(_ query: SaleQuery) async throws -> [Sale] {
        var sql = SQL("SELECT \(Columns.sale) FROM sale")
        try saleFilter(query, into: &sql)
        switch query.order {
        case .newestFirst: try sql.add(" ORDER BY sale.date DESC, sale.id DESC")
        case .oldestFirst: try sql.add(" ORDER BY sale.date, sale.id")
        case .latestRecorded: try sql.add(" ORDER BY sale.id DESC")
        }
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await sales(connection, built) }
    }

    public func daysWithSales(from first: Day, through last: Day) async throws -> Set<Day> {
        try await read { connection in
            Set(
                try await connection.query(
                    try SQL(
                        """
                        SELECT DISTINCT date::text FROM clinicDayTotal
                        WHERE bookId = ? AND clinicId = ANY(ARRAY(SELECT id FROM clinic WHERE bookId = ?)) AND date BETWEEN ?::date AND ?::date AND saleCount > 0
                        """,
                        book,
                        book,
                        first.description,
                        last.description
                    ).query,
                    logger: logger
                ).decode(String.self).all().compactMap(Day.reading(stored:))
            )
        }
    }

    public func countSales(_ query: SaleQuery) async throws -> Int {
        var sql = SQL("SELECT count(*) FROM sale")
        try saleFilter(query, into: &sql)
        let built = sql.query
        return Int(try await read { connection in try await int(connection, built) })
    }

    public func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale {
        return try await write([.sales]) { connection in
            let old = try await sale(connection, id)
            let sale = try Ledger.edit(
                old,
                oldContext: try await closedPeriods(connection, clinic: old.clinicID),
                oldClinic: try await clinic(connection, old.clinicID),
                to: draft,
                in: try await saleContext(connection, clinic: draft.clinicID, product: draft.productID)
            )
            let row = SaleRow(sale)
            try await connection.query(
                """
                UPDATE sale SET clinicId = \(row.clinicID), productId = \(row.productID), date = \(row.date)::date, quantity = \(row.quantity),
                    unitPriceMinor = \(row.unitPriceMinor), unitCostMinor = \(row.unitCostMinor), discountMinor = \(row.discountMinor),
                    termsId = \(row.termsID), shareBasisPoints = \(row.shareBasisPoints), basis = \(row.basis), revenueMinor = \(row.revenueMinor),
                    costMinor = \(row.costMinor), profitMinor = \(row.profitMinor), commissionExact = \(row.commissionExact),
                    commissionMinor = \(row.commissionMinor), note = \(row.note)
                WHERE bookId = \(book) AND id = \(id.rawValue)
                """,
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.sale, id.rawValue, "update", before: Audit.json(old), after: Audit.json(sale))
            )
            return sale
        }
    }

    public func voidSale(_ id: Sale.ID) async throws -> Sale {
        try await write([.sales]) { connection in try await voidSale(connection, id) }
    }

    /// Voids a sale, with its audit entry.
    func voidSale(_ connection: PostgresConnection, _ id: Sale.ID) async throws -> Sale {
        let sale = try await sale(connection, id)
        guard
            let voided = try Ledger.void(
                sale,
                clinic: try await clinic(connection, sale.clinicID),
                closed: try await closedPeriods(connection, clinic: sale.clinicID)
            )
        else { return sale }
        try await connection.query(
            "UPDATE sale SET isVoided = true WHERE bookId = \(book) AND id = \(id.rawValue)",
            logger: logger
        )
        try await record(
            connection,
            Audit.Change(.sale, id.rawValue, "void", before: Audit.json(sale), after: Audit.json(voided))
        )
        return voided
    }

    // MARK: Payouts and periods

    public func createPayout(_ draft: PayoutDraft) async throws -> Payout {
        try await write([.payouts]) { connection in try await createPayout(connection, draft) }
    }

    public func createPayouts(_ drafts: [PayoutDraft]) async throws -> [Payout] {
        try await write([.payouts]) { connection in
            var payouts: [Payout] = []
            for draft in drafts { payouts.append(try await createPayout(connection, draft)) }
            return payouts
        }
    }

    /// Records a payout, with its audit entry.
    func createPayout(_ connection: PostgresConnection, _ draft: PayoutDraft) async throws -> Payout {
        let clinic = try await clinic(connection, draft.clinicID)
        let draft = try Ledger.payout(
            draft,
            clinic: clinic,
            rules: try await rules(connection),
            closed: try await closedPeriods(connection, clinic: clinic.id)
        )
        let id = try await int(
            connection,
            """
            INSERT INTO payout (bookId, clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference)
            VALUES (\(book), \(clinic.id.rawValue), \(draft.period.start.description)::date, \(draft.period.end.description)::date,
                    \(draft.amount.minorUnits), \(draft.receivedOn.description)::date, \(draft.reference))
            RETURNING id
            """
        )
        let payout = Payout(
            id: Payout.ID(id),
            clinicID: clinic.id,
            period: draft.period,
            amount: draft.amount,
            receivedOn: draft.receivedOn,
            reference: draft.reference
        )
        try await record(connection, Audit.Change(.payout, id, "create", before: nil, after: Audit.json(payout)))
        return payout
    }

    public func payouts(_ query: PayoutQuery) async throws -> [Payout] {
        var sql = try SQL("SELECT \(Columns.payout) FROM payout WHERE bookId = ?", book)
        if let clinic = query.clinicID { try sql.add(" AND clinicId = ?", clinic.rawValue) }
        if let period = query.period {
            try sql.add(
                " AND periodStart = ?::date AND periodEnd = ?::date",
                period.start.description,
                period.end.description
            )
        }
        try sql.add(" ORDER BY periodStart, receivedOn, id")
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await payouts(connection, built) }
    }

    func payouts(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Payout] {
        try await connection.query(query, logger: logger).decode(
            (Int64, Int64, String, String, Int64, String, String?).self
        ).all()
            .map { id, clinic, start, end, amount, received, reference in
                Payout(
                    id: Payout.ID(id),
                    clinicID: Clinic.ID(clinic),
                    period: PayPeriod(
                        start: try Day.stored(start, row: "Payout \(id)'s period"),
                        end: try Day.stored(end, row: "Payout \(id)'s period")
                    ),
                    amount: Money(minorUnits: amount),
                    receivedOn: try Day.stored(received, row: "Payout \(id)'s date received"),
                    reference: reference
                )
            }
    }

    public func deletePayout(_ id: Payout.ID) async throws {
        try await write([.payouts]) { connection in
            guard
                let payout = try await payouts(
                    connection,
                    try SQL(
                        "SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND id = ?",
                        book,
                        id.rawValue
                    ).query
                ).first
            else {
                throw StoreError.notFound(.payouts, id: id.rawValue)
            }
            try Ledger.payoutRemoval(
                payout,
                clinic: try await clinic(connection, payout.clinicID),
                closed: try await closedPeriods(connection, clinic: payout.clinicID)
            )
            try await connection.query(
                "DELETE FROM payout WHERE bookId = \(book) AND id = \(id.rawValue)",
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.payout, id.rawValue, "delete", before: Audit.json(payout), after: nil)
            )
        }
    }

    public func closePeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { connection in
            try Ledger.closing(period, of: try await clinic(connection, id), rules: try await rules(connection))
            let inserted = try await int(
                connection,
                """
                WITH inserted AS (
                    INSERT INTO closedPeriod (bookId, clinicId, periodStart, periodEnd)
                    VALUES (\(book), \(id.rawValue), \(period.start.description)::date, \(period.end.description)::date)
                    ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) FROM inserted
                """
            )
            if inserted > 0 {
                try await record(
                    connection,
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
        try await write([.periods]) { connection in
            try Ledger.reopening(period, of: try await clinic(connection, id))
            let deleted = try await int(
                connection,
                """
                WITH deleted AS (
                    DELETE FROM closedPeriod WHERE bookId = \(book) AND clinicId = \(id.rawValue) AND periodStart = \(period.start.description)::date
                    RETURNING 1)
                SELECT count(*) FROM deleted
                """
            )
            if deleted > 0 {
                try await record(
                    connection,
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
    /// (a transaction runs in the task that asked for it, so the task's actor is the one).
    ///
    /// The entry's id is drawn under the book's commit order (``lockCommitOrder(_:)``, taken in the
    /// same statement), so ids follow commits even when new sales are written side by side.
    func record(_ connection: PostgresConnection, _ change: Audit.Change) async throws {
        try await connection.query(
            """
            INSERT INTO auditEntry (\(unescaped: Columns.auditWritten.joined(separator: ", ")))
            SELECT \(book), \(Int64(Date().timeIntervalSince1970)), \(Audit.actor), \(change.subject.rawValue), \(change.subjectID),
                    \(change.lastSubjectID), \(change.action), \(change.before), \(change.after)
            FROM (SELECT \(unescaped: commitOrder.sql)) AS commitOrder
            """,
            logger: logger
        )
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        var sql = try SQL("SELECT \(Columns.audit) FROM auditEntry WHERE bookId = ?", book)
        if let subject = query.subject {
            try sql.add(" AND subject = ?", subject.rawValue)
            if let id = query.subjectID {
                // An import covers a range of sale ids.
                try sql.add(
                    " AND (subjectId = ? OR (lastSubjectId IS NOT NULL AND subjectId <= ? AND lastSubjectId >= ?))",
                    id,
                    id,
                    id
                )
            }
        }
        try sql.add(" ORDER BY id DESC")
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await auditEntries(connection, built) }
    }

    func auditEntries(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [AuditEntry] {
        try await connection.query(query, logger: logger)
            .decode((Int64, Int64, String, String, Int64?, Int64?, String, String?, String?).self).all()
            .map { id, at, actor, subject, subjectID, lastSubjectID, action, before, after in
                AuditEntry(
                    id: AuditEntry.ID(id),
                    at: Date(timeIntervalSince1970: TimeInterval(at)),
                    actor: actor,
                    subject: AuditSubject(rawValue: subject) ?? .sale,
                    subjectID: subjectID,
                    lastSubjectID: lastSubjectID,
                    action: action,
                    before: before,
                    after: after
                )
            }
    }
}

extension PostgresStore {
    // MARK: Transactions

    public func apply(_ writes: [StoreWrite]) async throws -> [StoreWritten] {
        // What needs no database is checked before the transaction starts.
        let writes = try writes.map { try $0.cleaned() }
        return try await write(writes.tables) { connection in
            var made: [StoreWritten] = []
            for write in writes { made.append(try await apply(connection, write)) }
            return made
        }
    }

    func apply(_ connection: PostgresConnection, _ write: StoreWrite) async throws -> StoreWritten {
        switch write {
        case .createClinic(let draft): return .clinic(try await createClinic(connection, draft))
        case .createProduct(let draft): return .product(try await insertProduct(connection, draft))
        case .createTerms(let draft): return .terms(try await createTerms(connection, draft))
        case .createSale(let draft, let key): return .sale(try await createSale(connection, draft, key: key).sale)
        case .voidSale(let id): return .sale(try await voidSale(connection, id))
        case .createPayout(let draft): return .payout(try await createPayout(connection, draft))
        case .setPrice(let draft): return .price(try await setPrice(connection, draft))
        case .createDeduction(let deduction): return .deduction(try await createDeduction(connection, deduction))
        }
    }
}

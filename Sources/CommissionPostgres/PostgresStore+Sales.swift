import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore {
    // MARK: Terms

    public func createTerms(_ draft: TermsDraft) async throws -> TermsChange {
        return try await write([.terms, .sales]) { connection in
            let clinic = try await clinic(connection, draft.clinicID)
            if let productID = draft.productID { _ = try await product(connection, productID) }
            try EntryRules(try await settings(connection)).days.check(draft.effectiveFrom, field: "effective from")
            let id = try await int(connection, """
                INSERT INTO terms (bookId, clinicId, productId, basis, shareBasisPoints, effectiveFrom)
                VALUES (\(book), \(draft.clinicID.rawValue), \(draft.productID?.rawValue), \(draft.basis.rawValue),
                        \(draft.share.basisPoints), \(draft.effectiveFrom.description)::date)
                RETURNING id
                """)
            let terms = Terms(id: Terms.ID(id), clinicID: draft.clinicID, productID: draft.productID, basis: draft.basis,
                              share: draft.share, effectiveFrom: draft.effectiveFrom)
            try await record(connection, Audit.Change(.terms, id, "create", before: nil, after: Audit.json(terms)))
            let (changed, closed) = try await recompute(connection, clinic: clinic, from: draft.effectiveFrom)
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    public func terms(_ id: Terms.ID) async throws -> Terms {
        try await read { connection in try await terms(connection, id) }
    }

    func terms(_ connection: PostgresConnection, _ id: Terms.ID) async throws -> Terms {
        guard let terms = try await termsList(connection, try SQL("SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND id = ?", book, id.rawValue).query).first else {
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
        try await connection.query(query, logger: logger).decode((Int64, Int64, Int64?, String, Int, String, Bool).self).all()
            .map { id, clinic, product, basis, points, from, archived in
                guard let basis = CommissionBasis(rawValue: basis), let share = try? Share(basisPoints: points) else {
                    throw StoreError.storage("stored terms are malformed")
                }
                return Terms(id: Terms.ID(id), clinicID: Clinic.ID(clinic), productID: product.map { Product.ID($0) }, basis: basis,
                             share: share, effectiveFrom: try Day.stored(from, row: "Terms \(id)'s effective date"), isArchived: archived)
            }
    }

    func termsCandidates(_ connection: PostgresConnection, clinic: Clinic.ID) async throws -> [Terms] {
        try await termsList(connection, try SQL("SELECT \(Columns.terms) FROM terms WHERE bookId = ? AND clinicId = ? AND NOT isArchived",
                                               book, clinic.rawValue).query)
    }

    public func updateTerms(_ terms: Terms) async throws -> TermsChange {
        return try await write([.terms, .sales]) { connection in
            let old = try await self.terms(connection, terms.id)
            guard old.clinicID == terms.clinicID else {
                throw StoreError.invalid(field: "clinic", reason: "terms cannot move to another clinic; archive them and add new terms there.")
            }
            let clinic = try await clinic(connection, terms.clinicID)
            if let productID = terms.productID { _ = try await product(connection, productID) }
            if terms.effectiveFrom != old.effectiveFrom {
                try EntryRules(try await settings(connection)).days.check(terms.effectiveFrom, field: "effective from")
            }
            try await connection.query("""
                UPDATE terms SET productId = \(terms.productID?.rawValue), basis = \(terms.basis.rawValue),
                    shareBasisPoints = \(terms.share.basisPoints), effectiveFrom = \(terms.effectiveFrom.description)::date,
                    isArchived = \(terms.isArchived)
                WHERE bookId = \(book) AND id = \(terms.id.rawValue)
                """, logger: logger)
            try await record(connection, Audit.Change(.terms, terms.id.rawValue, "update", before: Audit.json(old), after: Audit.json(terms)))
            let (changed, closed) = try await recompute(connection, clinic: clinic, from: min(old.effectiveFrom, terms.effectiveFrom))
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    /// Resolves the terms of every commission-bearing sale of `clinic` on or after `from` again, and
    /// rewrites those whose split changed — except in closed periods, which are only counted.
    func recompute(_ connection: PostgresConnection, clinic: Clinic, from: Day) async throws -> (changed: Int, closed: Int) {
        let rounding = try await settings(connection).rounding.rule
        let candidates = try await termsCandidates(connection, clinic: clinic.id)
        var closedPeriods = ClosedPeriods()
        var changed = 0, closed = 0
        let sales = try await sales(connection, try SQL("""
            SELECT \(Columns.sale) FROM sale
            WHERE bookId = ? AND clinicId = ? AND date >= ?::date AND NOT isVoided AND termsId IS NOT NULL
            """, book, clinic.id.rawValue, from.description).query)
        for sale in sales {
            guard let terms = Terms.inForce(among: candidates, clinic: clinic.id, product: sale.productID, on: sale.date) else {
                let product = try await product(connection, sale.productID)
                throw StoreError.noTermsInForce(clinic: clinic.name, product: product.name, on: sale.date)
            }
            var line = sale.line
            line.rate = CommissionRate(share: terms.share, basis: terms.basis)
            guard line != sale.line || terms.id != sale.termsID else { continue }
            if try await closedPeriods.contains(self, connection, clinic: clinic.id.rawValue, day: sale.date) {
                closed += 1
                continue
            }
            let figures = try line.figures(rounding: rounding)
            try await connection.query("""
                UPDATE sale SET termsId = \(terms.id.rawValue), shareBasisPoints = \(terms.share.basisPoints), basis = \(terms.basis.rawValue),
                    commissionExact = \(figures.exactCommission.tenThousandths), commissionMinor = \(figures.commission.minorUnits)
                WHERE bookId = \(book) AND id = \(sale.id.rawValue)
                """, logger: logger)
            var after = sale
            (after.line, after.termsID, after.figures) = (line, terms.id, figures)
            try await record(connection, Audit.Change(.sale, sale.id.rawValue, "recompute", before: Audit.json(sale), after: Audit.json(after)))
            changed += 1
        }
        return (changed, closed)
    }

    // MARK: Sales

    public func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale {
        let key = try StoreInput.idempotencyKey(idempotencyKey)
        let note = try StoreInput.note(draft.note)
        return try await write([.sales]) { connection in
            if let key, let sale = try await sales(connection, try SQL("SELECT \(Columns.sale) FROM sale WHERE bookId = ? AND idempotencyKey = ?",
                                                                       book, key).query).first {
                return try StoreInput.replay(draft, of: sale, key: key)
            }
            let clinic = try await clinic(connection, draft.clinicID)
            let product = try await product(connection, draft.productID)
            if clinic.isArchived { throw StoreError.archived(.clinics, clinic.name) }
            if product.isArchived { throw StoreError.archived(.products, product.name) }
            var draft = draft
            draft.note = note
            var closed = ClosedPeriods()
            let sale = try await insertSale(connection, draft, clinic: clinic, product: product, unitPrice: draft.unitPrice ?? product.unitPrice,
                                            unitCost: draft.unitCost ?? product.unitCost,
                                            candidates: try await termsCandidates(connection, clinic: clinic.id),
                                            rules: EntryRules(try await settings(connection)), closed: &closed, idempotencyKey: key)
            try await record(connection, Audit.Change(.sale, sale.id.rawValue, "create", before: nil, after: Audit.json(sale)))
            return sale
        }
    }

    /// Computes a sale's figures under the terms in force and inserts it.
    func insertSale(_ connection: PostgresConnection, _ draft: SaleDraft, clinic: Clinic, product: Product, unitPrice: Money, unitCost: Money,
                    candidates: [Terms], rules: EntryRules, closed: inout ClosedPeriods, idempotencyKey: String?) async throws -> Sale {
        let (line, terms, figures) = try StoreInput.sale(draft, clinic: clinic, product: product, unitPrice: unitPrice, unitCost: unitCost,
                                                         candidates: candidates, rules: rules)
        if try await closed.contains(self, connection, clinic: clinic.id.rawValue, day: draft.date) {
            throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: draft.date))
        }
        let id = try await int(connection, """
            INSERT INTO sale (bookId, clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor, termsId,
                              shareBasisPoints, basis, revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor,
                              note, idempotencyKey)
            VALUES (\(book), \(clinic.id.rawValue), \(product.id.rawValue), \(draft.date.description)::date, \(line.quantity),
                    \(line.unitPrice.minorUnits), \(line.unitCost.minorUnits), \(line.discount.minorUnits), \(terms?.id.rawValue),
                    \(line.rate?.share.basisPoints), \(line.rate?.basis.rawValue), \(figures.revenue.minorUnits), \(figures.cost.minorUnits),
                    \(figures.profit.minorUnits), \(figures.exactCommission.tenThousandths), \(figures.commission.minorUnits),
                    \(draft.note), \(idempotencyKey))
            RETURNING id
            """)
        return Sale(id: Sale.ID(id), clinicID: clinic.id, productID: product.id, date: draft.date, line: line,
                    termsID: terms?.id, figures: figures, note: draft.note)
    }


    public func sale(_ id: Sale.ID) async throws -> Sale {
        try await read { connection in try await sale(connection, id) }
    }

    func sale(_ connection: PostgresConnection, _ id: Sale.ID) async throws -> Sale {
        guard let sale = try await sales(connection, try SQL("SELECT \(Columns.sale) FROM sale WHERE bookId = ? AND id = ?", book, id.rawValue).query).first else {
            throw StoreError.notFound(.sales, id: id.rawValue)
        }
        return sale
    }

    func sales(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Sale] {
        let rows = try await connection.query(query, logger: logger).all()
        return try rows.map { row in
            let (id, clinic, product, date, quantity, price, cost, discount, termsID, points, basis, revenue, costTotal, profit, exact,
                 commission, note, voided) = try row.decode(
                (Int64, Int64, Int64, String, Int64, Int64, Int64, Int64, Int64?, Int?, String?, Int64, Int64, Int64, Int64, Int64,
                 String?, Bool).self)
            var rate: CommissionRate?
            if let points, let basis {
                guard let share = try? Share(basisPoints: points), let basis = CommissionBasis(rawValue: basis) else {
                    throw StoreError.storage("a stored sale's split is malformed")
                }
                rate = CommissionRate(share: share, basis: basis)
            }
            let line = SaleLine(quantity: quantity, unitPrice: Money(minorUnits: price), unitCost: Money(minorUnits: cost),
                                discount: Money(minorUnits: discount), rate: rate)
            let figures = SaleFigures(revenue: Money(minorUnits: revenue), cost: Money(minorUnits: costTotal), profit: Money(minorUnits: profit),
                                      exactCommission: ExactCommission(tenThousandths: exact), commission: Money(minorUnits: commission))
            return Sale(id: Sale.ID(id), clinicID: Clinic.ID(clinic), productID: Product.ID(product), date: try Day.stored(date, row: "Sale \(id)'s date"), line: line,
                        termsID: termsID.map { Terms.ID($0) }, figures: figures, note: note, isVoided: voided)
        }
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
            try sql.add("""
                 AND (sale.note ILIKE ? ESCAPE '\\' OR sale.productId IN (SELECT id FROM product WHERE bookId = ? AND name ILIKE ? ESCAPE '\\'))
                """, pattern, book, pattern)
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
            Set(try await connection.query(try SQL("""
                SELECT DISTINCT date::text FROM clinicDayTotal
                WHERE bookId = ? AND clinicId = ANY(ARRAY(SELECT id FROM clinic WHERE bookId = ?)) AND date BETWEEN ?::date AND ?::date AND saleCount > 0
                """, book, book, first.description, last.description).query, logger: logger).decode(String.self).all().compactMap(Day.reading(stored:)))
        }
    }

    public func countSales(_ query: SaleQuery) async throws -> Int {
        var sql = SQL("SELECT count(*) FROM sale")
        try saleFilter(query, into: &sql)
        let built = sql.query
        return Int(try await read { connection in try await int(connection, built) })
    }

    public func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale {
        let note = try StoreInput.note(draft.note)
        return try await write([.sales]) { connection in
            let old = try await sale(connection, id)
            var closed = ClosedPeriods()
            if try await closed.contains(self, connection, clinic: old.clinicID.rawValue, day: old.date) {
                let clinic = try await clinic(connection, old.clinicID)
                throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: old.date))
            }
            if old.isVoided { throw StoreError.invalid(field: "sale", reason: "sale \(id) is voided and cannot be edited.") }
            let clinic = try await clinic(connection, draft.clinicID)
            let product = try await product(connection, draft.productID)
            var draft = draft
            draft.note = note
            let (line, terms, figures) = try StoreInput.sale(
                draft, clinic: clinic, product: product,
                unitPrice: draft.unitPrice ?? old.line.unitPrice, unitCost: draft.unitCost ?? old.line.unitCost,
                candidates: try await termsCandidates(connection, clinic: clinic.id), rules: EntryRules(try await settings(connection)))
            if try await closed.contains(self, connection, clinic: clinic.id.rawValue, day: draft.date) {
                throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: draft.date))
            }
            try await connection.query("""
                UPDATE sale SET clinicId = \(clinic.id.rawValue), productId = \(product.id.rawValue), date = \(draft.date.description)::date,
                    quantity = \(line.quantity), unitPriceMinor = \(line.unitPrice.minorUnits), unitCostMinor = \(line.unitCost.minorUnits),
                    discountMinor = \(line.discount.minorUnits), termsId = \(terms?.id.rawValue), shareBasisPoints = \(line.rate?.share.basisPoints),
                    basis = \(line.rate?.basis.rawValue), revenueMinor = \(figures.revenue.minorUnits), costMinor = \(figures.cost.minorUnits),
                    profitMinor = \(figures.profit.minorUnits), commissionExact = \(figures.exactCommission.tenThousandths),
                    commissionMinor = \(figures.commission.minorUnits), note = \(draft.note)
                WHERE bookId = \(book) AND id = \(id.rawValue)
                """, logger: logger)
            let sale = Sale(id: id, clinicID: clinic.id, productID: product.id, date: draft.date, line: line, termsID: terms?.id,
                            figures: figures, note: draft.note)
            try await record(connection, Audit.Change(.sale, id.rawValue, "update", before: Audit.json(old), after: Audit.json(sale)))
            return sale
        }
    }

    public func voidSale(_ id: Sale.ID) async throws -> Sale {
        return try await write([.sales]) { connection in
            var sale = try await sale(connection, id)
            guard !sale.isVoided else { return sale }
            var closed = ClosedPeriods()
            if try await closed.contains(self, connection, clinic: sale.clinicID.rawValue, day: sale.date) {
                let clinic = try await clinic(connection, sale.clinicID)
                throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: sale.date))
            }
            try await connection.query("UPDATE sale SET isVoided = true WHERE bookId = \(book) AND id = \(id.rawValue)", logger: logger)
            let before = Audit.json(sale)
            sale.isVoided = true
            try await record(connection, Audit.Change(.sale, id.rawValue, "void", before: before, after: Audit.json(sale)))
            return sale
        }
    }

    // MARK: Payouts and periods

    public func createPayout(_ draft: PayoutDraft) async throws -> Payout {
        let reference = try StoreInput.note(draft.reference)
        return try await write([.payouts]) { connection in
            let clinic = try await clinic(connection, draft.clinicID)
            try Self.checkPeriod(draft.period, of: clinic)
            let days = EntryRules(try await settings(connection)).days
            try days.check(draft.period, field: "period")
            try days.check(draft.receivedOn, field: "received on")
            if try await isClosed(connection, clinic: clinic.id, period: draft.period) {
                throw StoreError.periodClosed(clinic: clinic.name, period: draft.period)
            }
            let id = try await int(connection, """
                INSERT INTO payout (bookId, clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference)
                VALUES (\(book), \(clinic.id.rawValue), \(draft.period.start.description)::date, \(draft.period.end.description)::date,
                        \(draft.amount.minorUnits), \(draft.receivedOn.description)::date, \(reference))
                RETURNING id
                """)
            let payout = Payout(id: Payout.ID(id), clinicID: clinic.id, period: draft.period, amount: draft.amount,
                                receivedOn: draft.receivedOn, reference: reference)
            try await record(connection, Audit.Change(.payout, id, "create", before: nil, after: Audit.json(payout)))
            return payout
        }
    }

    static func checkPeriod(_ period: PayPeriod, of clinic: Clinic) throws {
        guard clinic.schedule.period(containing: period.start) == period else {
            throw StoreError.notAPeriod(clinic: clinic.name, period: period, schedule: clinic.schedule)
        }
    }

    func isClosed(_ connection: PostgresConnection, clinic: Clinic.ID, period: PayPeriod) async throws -> Bool {
        try await int(connection, """
            SELECT count(*) FROM closedPeriod
            WHERE bookId = \(book) AND clinicId = \(clinic.rawValue) AND periodStart <= \(period.end.description)::date
              AND periodEnd >= \(period.start.description)::date
            """) > 0
    }

    public func payouts(_ query: PayoutQuery) async throws -> [Payout] {
        var sql = try SQL("SELECT \(Columns.payout) FROM payout WHERE bookId = ?", book)
        if let clinic = query.clinicID { try sql.add(" AND clinicId = ?", clinic.rawValue) }
        if let period = query.period {
            try sql.add(" AND periodStart = ?::date AND periodEnd = ?::date", period.start.description, period.end.description)
        }
        try sql.add(" ORDER BY periodStart, receivedOn, id")
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await payouts(connection, built) }
    }

    func payouts(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Payout] {
        try await connection.query(query, logger: logger).decode((Int64, Int64, String, String, Int64, String, String?).self).all()
            .map { id, clinic, start, end, amount, received, reference in
                Payout(id: Payout.ID(id), clinicID: Clinic.ID(clinic), period: PayPeriod(start: try Day.stored(start, row: "Payout \(id)'s period"), end: try Day.stored(end, row: "Payout \(id)'s period")),
                       amount: Money(minorUnits: amount), receivedOn: try Day.stored(received, row: "Payout \(id)'s date received"), reference: reference)
            }
    }

    public func deletePayout(_ id: Payout.ID) async throws {
        try await write([.payouts]) { connection in
            guard let payout = try await payouts(connection, try SQL("SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND id = ?",
                                                                     book, id.rawValue).query).first else {
                throw StoreError.notFound(.payouts, id: id.rawValue)
            }
            if try await isClosed(connection, clinic: payout.clinicID, period: payout.period) {
                throw StoreError.periodClosed(clinic: try await clinic(connection, payout.clinicID).name, period: payout.period)
            }
            try await connection.query("DELETE FROM payout WHERE bookId = \(book) AND id = \(id.rawValue)", logger: logger)
            try await record(connection, Audit.Change(.payout, id.rawValue, "delete", before: Audit.json(payout), after: nil))
        }
    }

    public func closePeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { connection in
            let clinic = try await clinic(connection, id)
            try Self.checkPeriod(period, of: clinic)
            // Reopening takes any period, so that one stored before dates were bounded can be reopened.
            try EntryRules(try await settings(connection)).days.check(period, field: "period")
            let inserted = try await int(connection, """
                WITH inserted AS (
                    INSERT INTO closedPeriod (bookId, clinicId, periodStart, periodEnd)
                    VALUES (\(book), \(id.rawValue), \(period.start.description)::date, \(period.end.description)::date)
                    ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) FROM inserted
                """)
            if inserted > 0 {
                try await record(connection, Audit.Change(.period, id.rawValue, "close", before: Audit.json(clinic: id, period: period, closed: false),
                                                                 after: Audit.json(clinic: id, period: period, closed: true)))
            }
        }
    }

    public func reopenPeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { connection in
            let clinic = try await clinic(connection, id)
            try Self.checkPeriod(period, of: clinic)
            let deleted = try await int(connection, """
                WITH deleted AS (
                    DELETE FROM closedPeriod WHERE bookId = \(book) AND clinicId = \(id.rawValue) AND periodStart = \(period.start.description)::date
                    RETURNING 1)
                SELECT count(*) FROM deleted
                """)
            if deleted > 0 {
                try await record(connection, Audit.Change(.period, id.rawValue, "reopen", before: Audit.json(clinic: id, period: period, closed: true),
                                                                 after: Audit.json(clinic: id, period: period, closed: false)))
            }
        }
    }

    // MARK: Audit

    /// Records a change in the audit log, in the transaction that makes it, as made by `Audit.actor`
    /// (a transaction runs in the task that asked for it, so the task's actor is the one).
    func record(_ connection: PostgresConnection, _ change: Audit.Change) async throws {
        try await connection.query("""
            INSERT INTO auditEntry (bookId, at, actor, subject, subjectId, lastSubjectId, action, before, after)
            VALUES (\(book), \(Int64(Date().timeIntervalSince1970)), \(Audit.actor), \(change.subject.rawValue), \(change.subjectID),
                    \(change.lastSubjectID), \(change.action), \(change.before), \(change.after))
            """, logger: logger)
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        var sql = try SQL("SELECT id, at, actor, subject, subjectId, lastSubjectId, action, before, after FROM auditEntry WHERE bookId = ?", book)
        if let subject = query.subject {
            try sql.add(" AND subject = ?", subject.rawValue)
            if let id = query.subjectID {
                // An import covers a range of sale ids.
                try sql.add(" AND (subjectId = ? OR (lastSubjectId IS NOT NULL AND subjectId <= ? AND lastSubjectId >= ?))", id, id, id)
            }
        }
        try sql.add(" ORDER BY id DESC")
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in
            try await connection.query(built, logger: logger)
                .decode((Int64, Int64, String, String, Int64?, Int64?, String, String?, String?).self).all()
                .map { id, at, actor, subject, subjectID, lastSubjectID, action, before, after in
                    AuditEntry(id: AuditEntry.ID(id), at: Date(timeIntervalSince1970: TimeInterval(at)), actor: actor,
                               subject: AuditSubject(rawValue: subject) ?? .sale, subjectID: subjectID, lastSubjectID: lastSubjectID,
                               action: action, before: before, after: after)
                }
        }
    }
}

/// Remembers which periods of which clinics are closed, while a transaction walks many sales.
struct ClosedPeriods {
    private var ranges: [Int64: [(start: Day, end: Day)]] = [:]

    mutating func contains(_ store: PostgresStore, _ connection: PostgresConnection, clinic: Int64, day: Day) async throws -> Bool {
        if ranges[clinic] == nil {
            ranges[clinic] = try await connection.query("""
                SELECT periodStart::text, periodEnd::text FROM closedPeriod WHERE bookId = \(store.book) AND clinicId = \(clinic)
                """, logger: store.logger).decode((String, String).self).all().map { (try Day.stored($0, row: "A closed period of clinic \(clinic)"), try Day.stored($1, row: "A closed period of clinic \(clinic)")) }
        }
        return ranges[clinic]!.contains { $0.start <= day && day <= $0.end }
    }
}

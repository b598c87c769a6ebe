import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Terms

    public func createTerms(_ draft: TermsDraft) async throws -> TermsChange {
        return try await write([.terms, .sales]) { db in
            let clinic = try Self.clinic(db, draft.clinicID)
            if let productID = draft.productID { _ = try Self.product(db, productID) }
            try EntryRules(try Self.settings(db)).days.check(draft.effectiveFrom, field: "effective from")
            try db.execute(
                sql: "INSERT INTO terms (clinicId, productId, basis, shareBasisPoints, effectiveFrom) VALUES (?, ?, ?, ?, ?)",
                arguments: [draft.clinicID.rawValue, draft.productID?.rawValue, draft.basis.rawValue,
                            draft.share.basisPoints, draft.effectiveFrom.description])
            let terms = Terms(id: Terms.ID(db.lastInsertedRowID), clinicID: draft.clinicID, productID: draft.productID,
                              basis: draft.basis, share: draft.share, effectiveFrom: draft.effectiveFrom)
            try Self.record(db, Audit.Change(.terms, terms.id.rawValue, "create", before: nil, after: Audit.json(terms)))
            let (changed, closed) = try Self.recompute(db, clinic: clinic, from: draft.effectiveFrom)
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    public func terms(_ id: Terms.ID) async throws -> Terms {
        try await read { db in try Self.terms(db, id) }
    }

    static func terms(_ db: Database, _ id: Terms.ID) throws -> Terms {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Rows.termsColumns) FROM terms WHERE id = ?", arguments: [id.rawValue]) else {
            throw StoreError.notFound(.terms, id: id.rawValue)
        }
        return try Rows.terms(row)
    }

    public func terms(_ query: TermsQuery) async throws -> [Terms] {
        try await read { db in
            var sql = "SELECT \(Rows.termsColumns) FROM terms WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID { sql += " AND clinicId = ?"; arguments += [clinic.rawValue] }
            if let product = query.productID { sql += " AND productId = ?"; arguments += [product.rawValue] }
            if !query.includeArchived { sql += " AND isArchived = 0" }
            sql += " ORDER BY clinicId, effectiveFrom, id"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.terms($0) }
        }
    }

    public func updateTerms(_ terms: Terms) async throws -> TermsChange {
        return try await write([.terms, .sales]) { db in
            let old = try Self.terms(db, terms.id)
            guard old.clinicID == terms.clinicID else {
                throw StoreError.invalid(field: "clinic", reason: "terms cannot move to another clinic; archive them and add new terms there.")
            }
            let clinic = try Self.clinic(db, terms.clinicID)
            if let productID = terms.productID { _ = try Self.product(db, productID) }
            if terms.effectiveFrom != old.effectiveFrom {
                try EntryRules(try Self.settings(db)).days.check(terms.effectiveFrom, field: "effective from")
            }
            try db.execute(
                sql: "UPDATE terms SET productId = ?, basis = ?, shareBasisPoints = ?, effectiveFrom = ?, isArchived = ? WHERE id = ?",
                arguments: [terms.productID?.rawValue, terms.basis.rawValue, terms.share.basisPoints,
                            terms.effectiveFrom.description, terms.isArchived, terms.id.rawValue])
            try Self.record(db, Audit.Change(.terms, terms.id.rawValue, "update", before: Audit.json(old), after: Audit.json(terms)))
            let (changed, closed) = try Self.recompute(db, clinic: clinic, from: min(old.effectiveFrom, terms.effectiveFrom))
            return TermsChange(terms: terms, recomputedSales: changed, salesInClosedPeriods: closed)
        }
    }

    /// Resolves the terms of every commission-bearing sale of `clinic` on or after `from` again, and
    /// rewrites those whose split changed — except in closed periods, which are only counted.
    /// - Throws: ``StoreError/noTermsInForce(clinic:product:on:)`` when a sale would be left without terms.
    static func recompute(_ db: Database, clinic: Clinic, from: Day) throws -> (changed: Int, closed: Int) {
        let settings = try settings(db)
        let candidates = try termsCandidates(db, clinic: clinic.id)
        var closedPeriods = ClosedPeriods()
        var changed = 0, closed = 0
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(Rows.saleColumns) FROM sale
            WHERE clinicId = ? AND date >= ? AND isVoided = 0 AND termsId IS NOT NULL
            """, arguments: [clinic.id.rawValue, from.description])
        for row in rows {
            let sale = try Rows.sale(row)
            guard let terms = Terms.inForce(among: candidates, clinic: clinic.id, product: sale.productID, on: sale.date) else {
                let product = try Self.product(db, sale.productID)
                throw StoreError.noTermsInForce(clinic: clinic.name, product: product.name, on: sale.date)
            }
            var line = sale.line
            line.rate = CommissionRate(share: terms.share, basis: terms.basis)
            guard line != sale.line || terms.id != sale.termsID else { continue }
            if try closedPeriods.contains(db, clinic: clinic.id.rawValue, day: sale.date) {
                closed += 1
                continue
            }
            let figures = try line.figures(rounding: settings.rounding.rule)
            try db.execute(sql: """
                UPDATE sale SET termsId = ?, shareBasisPoints = ?, basis = ?, commissionExact = ?, commissionMinor = ?
                WHERE id = ?
                """, arguments: [terms.id.rawValue, terms.share.basisPoints, terms.basis.rawValue,
                                 figures.exactCommission.tenThousandths, figures.commission.minorUnits, sale.id.rawValue])
            var after = sale
            (after.line, after.termsID, after.figures) = (line, terms.id, figures)
            try record(db, Audit.Change(.sale, sale.id.rawValue, "recompute", before: Audit.json(sale), after: Audit.json(after)))
            changed += 1
        }
        return (changed, closed)
    }

    static func termsCandidates(_ db: Database, clinic: Clinic.ID) throws -> [Terms] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Rows.termsColumns) FROM terms WHERE clinicId = ? AND isArchived = 0"),
                         arguments: [clinic.rawValue]).map { try Rows.terms($0) }
    }

    // MARK: Sales

    public func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale {
        let key = try StoreInput.idempotencyKey(idempotencyKey)
        let note = try StoreInput.note(draft.note)
        return try await write([.sales]) { db in
            if let key, let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Rows.saleColumns) FROM sale WHERE idempotencyKey = ?"), arguments: [key]) {
                return try StoreInput.replay(draft, of: try Rows.sale(row), key: key)
            }
            let clinic = try Self.clinic(db, draft.clinicID)
            let product = try Self.product(db, draft.productID)
            if clinic.isArchived { throw StoreError.archived(.clinics, clinic.name) }
            if product.isArchived { throw StoreError.archived(.products, product.name) }
            var draft = draft
            draft.note = note
            var closed = ClosedPeriods()
            let sale = try Self.insertSale(db, draft, clinic: clinic, product: product, unitPrice: draft.unitPrice ?? product.unitPrice,
                                           unitCost: draft.unitCost ?? product.unitCost,
                                           candidates: try Self.termsCandidates(db, clinic: clinic.id),
                                           rules: EntryRules(try Self.settings(db)), closed: &closed, idempotencyKey: key)
            try Self.record(db, Audit.Change(.sale, sale.id.rawValue, "create", before: nil, after: Audit.json(sale)))
            return sale
        }
    }

    /// Computes a sale's figures under the terms in force and inserts it.
    static func insertSale(_ db: Database, _ draft: SaleDraft, clinic: Clinic, product: Product, unitPrice: Money, unitCost: Money,
                           candidates: [Terms], rules: EntryRules, closed: inout ClosedPeriods,
                           idempotencyKey: String?) throws -> Sale {
        var sale = try prepareSale(db, draft, clinic: clinic, product: product, unitPrice: unitPrice, unitCost: unitCost,
                                   candidates: candidates, rules: rules, closed: &closed)
        try FastStatement.execute(try db.cachedStatement(sql: insertSaleSQL)) { row in
            bind(sale, idempotencyKey: idempotencyKey, to: &row)
        }
        sale.id = Sale.ID(db.lastInsertedRowID)
        return sale
    }

    /// The sale a draft makes, figures computed under the terms in force, once its period is known
    /// to be open; its id is 0 until it is inserted.
    static func prepareSale(_ db: Database, _ draft: SaleDraft, clinic: Clinic, product: Product, unitPrice: Money, unitCost: Money,
                            candidates: [Terms], rules: EntryRules, closed: inout ClosedPeriods) throws -> Sale {
        let (line, terms, figures) = try StoreInput.sale(draft, clinic: clinic, product: product, unitPrice: unitPrice, unitCost: unitCost,
                                                         candidates: candidates, rules: rules)
        if try closed.contains(db, clinic: clinic.id.rawValue, day: draft.date) {
            throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: draft.date))
        }
        return Sale(id: Sale.ID(0), clinicID: clinic.id, productID: product.id, date: draft.date, line: line,
                    termsID: terms?.id, figures: figures, note: draft.note)
    }

    /// The insert of a sale, bound by ``bind(_:idempotencyKey:to:)`` (an import inserts through ``SaleFeed``).
    static let insertSaleSQL = """
        INSERT INTO sale (clinicId, productId, date, quantity, unitPriceMinor, unitCostMinor, discountMinor, termsId,
                          shareBasisPoints, basis, revenueMinor, costMinor, profitMinor, commissionExact, commissionMinor,
                          note, idempotencyKey)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func bind(_ sale: Sale, idempotencyKey: String?, to row: inout FastStatement) {
        row.bind(sale.clinicID.rawValue)
        row.bind(sale.productID.rawValue)
        row.bind(sale.date.description)
        row.bind(sale.line.quantity)
        row.bind(sale.line.unitPrice.minorUnits)
        row.bind(sale.line.unitCost.minorUnits)
        row.bind(sale.line.discount.minorUnits)
        row.bind(sale.termsID?.rawValue)
        row.bind((sale.line.rate?.share.basisPoints).map(Int64.init))
        row.bind(sale.line.rate?.basis.rawValue)
        row.bind(sale.figures.revenue.minorUnits)
        row.bind(sale.figures.cost.minorUnits)
        row.bind(sale.figures.profit.minorUnits)
        row.bind(sale.figures.exactCommission.tenThousandths)
        row.bind(sale.figures.commission.minorUnits)
        row.bind(sale.note)
        row.bind(idempotencyKey)
    }



    public func sale(_ id: Sale.ID) async throws -> Sale {
        try await read { db in try Self.sale(db, id) }
    }

    static func sale(_ db: Database, _ id: Sale.ID) throws -> Sale {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Rows.saleColumns) FROM sale WHERE id = ?", arguments: [id.rawValue]) else {
            throw StoreError.notFound(.sales, id: id.rawValue)
        }
        return try Rows.sale(row)
    }

    private static func saleFilter(_ query: SaleQuery) -> (String, StatementArguments) {
        var sql = " WHERE 1"
        var arguments = StatementArguments()
        if let clinic = query.clinicID { sql += " AND sale.clinicId = ?"; arguments += [clinic.rawValue] }
        if let product = query.productID { sql += " AND sale.productId = ?"; arguments += [product.rawValue] }
        if let from = query.from { sql += " AND sale.date >= ?"; arguments += [from.description] }
        if let through = query.through { sql += " AND sale.date <= ?"; arguments += [through.description] }
        if !query.includeVoided { sql += " AND sale.isVoided = 0" }
        if let text = query.text, !text.isEmpty {
            sql += " AND (sale.note LIKE ? ESCAPE '\\' OR sale.productId IN (SELECT id FROM product WHERE name LIKE ? ESCAPE '\\'))"
            arguments += [StoreInput.likePattern(text), StoreInput.likePattern(text)]
        }
        return (sql, arguments)
    }

    /// The sales list's statement: in the order of `sale_date` (date, id), which every filter
    /// but the clinic's (`sale_clinic_date`) scans without a sort.
    static func salesStatement(_ query: SaleQuery) -> (sql: String, arguments: StatementArguments) {
        var (filter, arguments) = saleFilter(query)
        let order = switch query.order {
        case .newestFirst: "sale.date DESC, sale.id DESC"
        case .oldestFirst: "sale.date, sale.id"
        case .latestRecorded: "sale.id DESC"
        }
        return ("SELECT \(Rows.saleColumns) FROM sale" + filter + " ORDER BY \(order)" + limitClause(query.page, &arguments), arguments)
    }

    /// The count beside the sales list. Sales that are not voided, filtered by clinic and dates only
    /// (the sales page as it opens), are counted by the day summary, which the triggers keep exact:
    /// a sum over at most a row per clinic and day, where counting the sales scanned an index of
    /// every sale (60–100 ms at a million). Other filters count the sales themselves.
    static func countSalesStatement(_ query: SaleQuery) -> (sql: String, arguments: StatementArguments) {
        // Everything but the clinic, the dates, the order and the page as a plain query has it: a
        // filter added to `SaleQuery` later counts the sales until the summary is taught it.
        var others = query
        (others.clinicID, others.from, others.through, others.order, others.page) = (nil, nil, nil, SaleQuery().order, .all)
        if others.text?.isEmpty == true { others.text = nil }
        if others == SaleQuery() {
            var sql = "SELECT coalesce(sum(saleCount), 0) FROM clinicDayTotal WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID { sql += " AND clinicId = ?"; arguments += [clinic.rawValue] }
            if let from = query.from { sql += " AND date >= ?"; arguments += [from.description] }
            if let through = query.through { sql += " AND date <= ?"; arguments += [through.description] }
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
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT date FROM clinicDayTotal WHERE clinicId IN (SELECT id FROM clinic) AND date BETWEEN ? AND ? AND saleCount > 0
                """,
                                    arguments: [first.description, last.description]).compactMap(Day.reading(stored:)))
        }
    }

    public func countSales(_ query: SaleQuery) async throws -> Int {
        try await read { db in
            let (sql, arguments) = Self.countSalesStatement(query)
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }

    public func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale {
        let note = try StoreInput.note(draft.note)
        return try await write([.sales]) { db in
            let old = try Self.sale(db, id)
            let oldClinic = try Self.clinic(db, old.clinicID)
            var closed = ClosedPeriods()
            if try closed.contains(db, clinic: old.clinicID.rawValue, day: old.date) {
                throw StoreError.periodClosed(clinic: oldClinic.name, period: oldClinic.schedule.period(containing: old.date))
            }
            if old.isVoided { throw StoreError.invalid(field: "sale", reason: "sale \(id) is voided and cannot be edited.") }
            let clinic = try Self.clinic(db, draft.clinicID)
            let product = try Self.product(db, draft.productID)
            var draft = draft
            draft.note = note
            let (line, terms, figures) = try StoreInput.sale(
                draft, clinic: clinic, product: product,
                unitPrice: draft.unitPrice ?? old.line.unitPrice, unitCost: draft.unitCost ?? old.line.unitCost,
                candidates: try Self.termsCandidates(db, clinic: clinic.id), rules: EntryRules(try Self.settings(db)))
            if try closed.contains(db, clinic: clinic.id.rawValue, day: draft.date) {
                throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: draft.date))
            }
            try db.execute(sql: """
                UPDATE sale SET clinicId = ?, productId = ?, date = ?, quantity = ?, unitPriceMinor = ?, unitCostMinor = ?,
                    discountMinor = ?, termsId = ?, shareBasisPoints = ?, basis = ?, revenueMinor = ?, costMinor = ?,
                    profitMinor = ?, commissionExact = ?, commissionMinor = ?, note = ?
                WHERE id = ?
                """, arguments: [
                    clinic.id.rawValue, product.id.rawValue, draft.date.description, line.quantity, line.unitPrice.minorUnits,
                    line.unitCost.minorUnits, line.discount.minorUnits, terms?.id.rawValue, line.rate?.share.basisPoints,
                    line.rate?.basis.rawValue, figures.revenue.minorUnits, figures.cost.minorUnits, figures.profit.minorUnits,
                    figures.exactCommission.tenThousandths, figures.commission.minorUnits, draft.note, id.rawValue,
                ])
            let sale = Sale(id: id, clinicID: clinic.id, productID: product.id, date: draft.date, line: line, termsID: terms?.id,
                            figures: figures, note: draft.note)
            try Self.record(db, Audit.Change(.sale, id.rawValue, "update", before: Audit.json(old), after: Audit.json(sale)))
            return sale
        }
    }

    public func voidSale(_ id: Sale.ID) async throws -> Sale {
        return try await write([.sales]) { db in
            var sale = try Self.sale(db, id)
            guard !sale.isVoided else { return sale }
            var closed = ClosedPeriods()
            if try closed.contains(db, clinic: sale.clinicID.rawValue, day: sale.date) {
                let clinic = try Self.clinic(db, sale.clinicID)
                throw StoreError.periodClosed(clinic: clinic.name, period: clinic.schedule.period(containing: sale.date))
            }
            try db.execute(sql: "UPDATE sale SET isVoided = 1 WHERE id = ?", arguments: [id.rawValue])
            let before = Audit.json(sale)
            sale.isVoided = true
            try Self.record(db, Audit.Change(.sale, id.rawValue, "void", before: before, after: Audit.json(sale)))
            return sale
        }
    }

    // MARK: Payouts and periods

    public func createPayout(_ draft: PayoutDraft) async throws -> Payout {
        let reference = try StoreInput.note(draft.reference)
        return try await write([.payouts]) { db in
            let clinic = try Self.clinic(db, draft.clinicID)
            try Self.checkPeriod(draft.period, of: clinic)
            let days = EntryRules(try Self.settings(db)).days
            try days.check(draft.period, field: "period")
            try days.check(draft.receivedOn, field: "received on")
            if try Self.isClosed(db, clinic: clinic.id, period: draft.period) {
                throw StoreError.periodClosed(clinic: clinic.name, period: draft.period)
            }
            try db.execute(sql: """
                INSERT INTO payout (clinicId, periodStart, periodEnd, amountMinor, receivedOn, reference) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [clinic.id.rawValue, draft.period.start.description, draft.period.end.description,
                                 draft.amount.minorUnits, draft.receivedOn.description, reference])
            let payout = Payout(id: Payout.ID(db.lastInsertedRowID), clinicID: clinic.id, period: draft.period, amount: draft.amount,
                                receivedOn: draft.receivedOn, reference: reference)
            try Self.record(db, Audit.Change(.payout, payout.id.rawValue, "create", before: nil, after: Audit.json(payout)))
            return payout
        }
    }

    static func checkPeriod(_ period: PayPeriod, of clinic: Clinic) throws {
        guard clinic.schedule.period(containing: period.start) == period else {
            throw StoreError.notAPeriod(clinic: clinic.name, period: period, schedule: clinic.schedule)
        }
    }

    static func isClosed(_ db: Database, clinic: Clinic.ID, period: PayPeriod) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM closedPeriod WHERE clinicId = ? AND periodStart <= ? AND periodEnd >= ?",
                         arguments: [clinic.rawValue, period.end.description, period.start.description]) ?? 0 > 0
    }

    public func payouts(_ query: PayoutQuery) async throws -> [Payout] {
        try await read { db in
            var sql = "SELECT \(Rows.payoutColumns) FROM payout WHERE 1"
            var arguments = StatementArguments()
            if let clinic = query.clinicID { sql += " AND clinicId = ?"; arguments += [clinic.rawValue] }
            if let period = query.period { sql += " AND periodStart = ? AND periodEnd = ?"; arguments += [period.start.description, period.end.description] }
            sql += " ORDER BY periodStart, receivedOn, id" + Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.payout($0) }
        }
    }

    public func deletePayout(_ id: Payout.ID) async throws {
        try await write([.payouts]) { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(Rows.payoutColumns) FROM payout WHERE id = ?", arguments: [id.rawValue]) else {
                throw StoreError.notFound(.payouts, id: id.rawValue)
            }
            let payout = try Rows.payout(row)
            if try Self.isClosed(db, clinic: payout.clinicID, period: payout.period) {
                throw StoreError.periodClosed(clinic: try Self.clinic(db, payout.clinicID).name, period: payout.period)
            }
            try db.execute(sql: "DELETE FROM payout WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.payout, id.rawValue, "delete", before: Audit.json(payout), after: nil))
        }
    }

    public func closePeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { db in
            let clinic = try Self.clinic(db, id)
            try Self.checkPeriod(period, of: clinic)
            // Reopening takes any period, so that one stored before dates were bounded can be reopened.
            try EntryRules(try Self.settings(db)).days.check(period, field: "period")
            try db.execute(sql: "INSERT OR IGNORE INTO closedPeriod (clinicId, periodStart, periodEnd) VALUES (?, ?, ?)",
                           arguments: [id.rawValue, period.start.description, period.end.description])
            if db.changesCount > 0 {
                try Self.record(db, Audit.Change(.period, id.rawValue, "close", before: Audit.json(clinic: id, period: period, closed: false),
                                                        after: Audit.json(clinic: id, period: period, closed: true)))
            }
        }
    }

    public func reopenPeriod(clinic id: Clinic.ID, period: PayPeriod) async throws {
        try await write([.periods]) { db in
            let clinic = try Self.clinic(db, id)
            try Self.checkPeriod(period, of: clinic)
            try db.execute(sql: "DELETE FROM closedPeriod WHERE clinicId = ? AND periodStart = ?",
                           arguments: [id.rawValue, period.start.description])
            if db.changesCount > 0 {
                try Self.record(db, Audit.Change(.period, id.rawValue, "reopen", before: Audit.json(clinic: id, period: period, closed: true),
                                                        after: Audit.json(clinic: id, period: period, closed: false)))
            }
        }
    }

    // MARK: Audit

    /// Records a change in the audit log, in the transaction that makes it, as made by `Audit.actor`
    /// (which ``write(_:bump:_:)`` carries onto the writer's thread).
    static func record(_ db: Database, _ change: Audit.Change) throws {
        try db.cachedStatement(sql: """
            INSERT INTO auditEntry (at, actor, subject, subjectId, lastSubjectId, action, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [Int64(Date().timeIntervalSince1970), Audit.actor, change.subject.rawValue, change.subjectID,
                                     change.lastSubjectID, change.action, change.before, change.after])
    }

    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        try await read { db in
            var sql = "SELECT id, at, actor, subject, subjectId, lastSubjectId, action, before, after FROM auditEntry WHERE 1"
            var arguments = StatementArguments()
            if let subject = query.subject {
                sql += " AND subject = ?"
                arguments += [subject.rawValue]
                if let id = query.subjectID {
                    // An import covers a range of sale ids.
                    sql += " AND (subjectId = ? OR (lastSubjectId IS NOT NULL AND subjectId <= ? AND lastSubjectId >= ?))"
                    arguments += [id, id, id]
                }
            }
            sql += " ORDER BY id DESC" + Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                AuditEntry(id: AuditEntry.ID(row[0] as Int64), at: Date(timeIntervalSince1970: TimeInterval(row[1] as Int64)), actor: row[2],
                           subject: AuditSubject(rawValue: row[3]) ?? .sale, subjectID: row[4], lastSubjectID: row[5], action: row[6],
                           before: row[7], after: row[8])
            }
        }
    }
}

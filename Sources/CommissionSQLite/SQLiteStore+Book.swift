import CommissionCore
import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    // MARK: Book

    public func settings() async throws -> BookSettings {
        let (isOn, cached, generation) = caches.withLock { ($0.isOn, $0.settings, $0.generation) }
        if let cached { return cached }
        let settings = try await read { db in try Self.settings(db) }
        if isOn { caches.withLock { if $0.generation == generation { $0.settings = settings } } }
        return settings
    }

    static func settings(_ db: Database) throws -> BookSettings {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale FROM book"
                )
            )
        else {
            throw StoreError.storage("the book's settings are missing")
        }
        // try?: a currency it cannot read is thrown just after, as malformed settings
        guard let currency = try? Currency(code: row[0], minorDigits: row[1]),
            let rule = RoundingRule(rawValue: row[3]), let scope = RoundingScope(rawValue: row[4])
        else {
            throw StoreError.storage("the book's settings are malformed")
        }
        return BookSettings(
            currency: currency,
            timeZoneIdentifier: row[2],
            rounding: RoundingPolicy(rule: rule, scope: scope),
            localeIdentifier: row[5]
        )
    }

    public func updateSettings(_ settings: BookSettings) async throws {
        try StoreInput.check(settings)
        try await write([.book, .sales]) { db in
            let current = try Self.settings(db)
            guard current != settings else { return }
            if current.currency != settings.currency {
                let amounts =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT (SELECT count(*) FROM product) + (SELECT count(*) FROM sale) + (SELECT count(*) FROM payout)
                            """
                    ) ?? 0
                if amounts > 0 { throw StoreError.currencyLocked(current: current.currency.code) }
            }
            try db.execute(
                sql:
                    "UPDATE book SET currencyCode = ?, currencyMinorDigits = ?, timeZone = ?, roundingRule = ?, roundingScope = ?, locale = ?",
                arguments: [
                    settings.currency.code, settings.currency.minorDigits, settings.timeZoneIdentifier,
                    settings.rounding.rule.rawValue, settings.rounding.scope.rawValue, settings.localeIdentifier,
                ]
            )
            // One entry for the settings; the commissions a new rounding rule changes are that entry's consequence.
            try Self.record(
                db,
                Audit.Change(.settings, nil, "update", before: Audit.json(current), after: Audit.json(settings))
            )
            if current.rounding.rule != settings.rounding.rule {
                // Rounded commissions follow the new rule, except in closed periods.
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT id, clinicId, date, commissionExact, commissionMinor FROM sale WHERE isVoided = 0"
                )
                let update = try db.cachedStatement(sql: "UPDATE sale SET commissionMinor = ? WHERE id = ?")
                var closed: [Int64: ClosedPeriods] = [:]
                for row in rows {
                    let clinic: Int64 = row[1]
                    if closed[clinic] == nil { closed[clinic] = try Self.closedPeriods(db, clinic: Clinic.ID(clinic)) }
                    if let rounded = Ledger.rerounded(
                        exactCommission: ExactCommission(tenThousandths: row[3]),
                        commission: Money(minorUnits: row[4]),
                        date: try Day.stored(row[2], row: "Sale \(row[0] as Int64)'s date"),
                        rule: settings.rounding.rule,
                        closed: closed[clinic]!
                    ) {
                        try update.execute(arguments: [rounded.minorUnits, row[0] as Int64])
                    }
                }
            }
        }
    }

    // MARK: Clinics

    public func createClinic(_ draft: ClinicDraft) async throws -> Clinic {
        let checked = ClinicDraft(name: try StoreInput.name(draft.name, field: "clinic name"), schedule: draft.schedule)
        return try await write([.clinics]) { db in try Self.createClinic(db, checked) }
    }

    /// Adds a clinic whose name is checked already, its schedule through the ledger.
    static func createClinic(_ db: Database, _ draft: ClinicDraft) throws -> Clinic {
        try insertClinic(
            db,
            ClinicDraft(name: draft.name, schedule: try Ledger.schedule(draft.schedule, rules: try rules(db)))
        )
    }

    static func insertClinic(_ db: Database, _ draft: ClinicDraft) throws -> Clinic {
        if try Int64.fetchOne(db, sql: "SELECT id FROM clinic WHERE name = ?", arguments: [draft.name]) != nil {
            throw StoreError.duplicateName(.clinics, draft.name)
        }
        try db.execute(
            sql: "INSERT INTO clinic (name, scheduleKind, scheduleAnchor) VALUES (?, ?, ?)",
            arguments: [draft.name, draft.schedule.kind, draft.schedule.anchor]
        )
        let clinic = Clinic(id: Clinic.ID(db.lastInsertedRowID), name: draft.name, schedule: draft.schedule)
        try Self.record(db, Audit.Change(.clinic, clinic.id.rawValue, "create", before: nil, after: Audit.json(clinic)))
        return clinic
    }

    public func clinic(_ id: Clinic.ID) async throws -> Clinic {
        try await read { db in try Self.clinic(db, id) }
    }

    static func clinic(_ db: Database, _ id: Clinic.ID) throws -> Clinic {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.clinicColumns) FROM clinic WHERE id = ?"),
                arguments: [id.rawValue]
            )
        else {
            throw StoreError.notFound(.clinics, id: id.rawValue)
        }
        return try Rows.clinic(row)
    }

    public func clinic(named name: String) async throws -> Clinic {
        try await read { db in try StoreInput.lookUp(name) { try Self.clinic(db, named: $0) } }
    }

    static func clinic(_ db: Database, named name: String) throws -> Clinic {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.clinicColumns) FROM clinic WHERE name = ?"),
                arguments: [name]
            )
        else {
            throw StoreError.unknownClinic(name)
        }
        return try Rows.clinic(row)
    }

    public func clinics(_ query: ClinicQuery) async throws -> [Clinic] {
        try await read { db in
            var sql = "SELECT \(Rows.clinicColumns) FROM clinic WHERE 1"
            var arguments = StatementArguments()
            if !query.includeArchived { sql += " AND isArchived = 0" }
            if let text = query.text, !text.isEmpty {
                sql += " AND name LIKE ? ESCAPE '\\'"
                arguments += [StoreInput.likePattern(text)]
            }
            sql += " ORDER BY name COLLATE NOCASE, id" + Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { try Rows.clinic($0) }
        }
    }

    public func updateClinic(_ clinic: Clinic) async throws -> Clinic {
        try await write([.clinics]) { db in try Self.updateClinic(db, clinic) }
    }

    /// Changes a clinic (its schedule through the ledger, with its audit entry).
    static func updateClinic(_ db: Database, _ clinic: Clinic) throws -> Clinic {
        let name = try StoreInput.name(clinic.name, field: "clinic name")
        var clinic = clinic
        let old = try Self.clinic(db, clinic.id)
        if old.calendar != clinic.calendar {
            let payouts = try Row.fetchAll(
                db,
                sql: "SELECT \(Rows.payoutColumns) FROM payout WHERE clinicId = ?",
                arguments: [clinic.id.rawValue]
            )
            .map { try Rows.payout($0).period }
            let planned = try Ledger.scheduleChanges(
                of: old,
                first: clinic.schedule,
                changes: clinic.scheduleChanges,
                rules: try Self.rules(db),
                closed: try Self.closedPeriods(db, clinic: clinic.id),
                payouts: payouts
            )
            (clinic.schedule, clinic.scheduleChanges) = (planned.schedule, planned.scheduleChanges)
            try Self.record(
                db,
                Audit.Change(
                    .clinic,
                    clinic.id.rawValue,
                    "schedule",
                    before: Audit.json(schedulesOf: old),
                    after: Audit.json(schedulesOf: clinic)
                )
            )
        }
        if try Int64.fetchOne(
            db,
            sql: "SELECT id FROM clinic WHERE name = ? AND id <> ?",
            arguments: [name, clinic.id.rawValue]
        ) != nil {
            throw StoreError.duplicateName(.clinics, name)
        }
        try db.execute(
            sql:
                "UPDATE clinic SET name = ?, scheduleKind = ?, scheduleAnchor = ?, scheduleChanges = ?, isArchived = ? WHERE id = ?",
            arguments: [
                name, clinic.schedule.kind, clinic.schedule.anchor, ScheduleChange.stored(clinic.scheduleChanges),
                clinic.isArchived, clinic.id.rawValue,
            ]
        )
        var updated = clinic
        updated.name = name
        if old.name != updated.name || old.isArchived != updated.isArchived {
            try Self.record(
                db,
                Audit.Change(.clinic, clinic.id.rawValue, "update", before: Audit.json(old), after: Audit.json(updated))
            )
        }
        return updated
    }

    public func deleteClinic(_ id: Clinic.ID) async throws {
        try await write([.clinics, .terms, .prices]) { db in
            let clinic = try Self.clinic(db, id)
            let sales =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sale WHERE clinicId = ?", arguments: [id.rawValue]) ?? 0
            if sales > 0 { throw StoreError.hasHistory(.clinics, name: clinic.name, sales: sales) }
            let payouts =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM payout WHERE clinicId = ?", arguments: [id.rawValue])
                ?? 0
            if payouts > 0 { throw StoreError.hasHistory(.clinics, name: clinic.name, sales: 0) }
            try db.execute(sql: "DELETE FROM closedPeriod WHERE clinicId = ?", arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM clinic WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.clinic, id.rawValue, "delete", before: Audit.json(clinic), after: nil))
        }
    }

    // MARK: Products

    public func createProduct(_ draft: ProductDraft) async throws -> Product {
        let cleaned = try StoreInput.product(draft, currency: try await settings().currency)
        return try await write([.products]) { db in try Self.insertProduct(db, cleaned) }
    }

    static func insertProduct(_ db: Database, _ draft: ProductDraft) throws -> Product {
        if try Int64.fetchOne(db, sql: "SELECT id FROM product WHERE name = ?", arguments: [draft.name]) != nil {
            throw StoreError.duplicateName(.products, draft.name)
        }
        if let sku = draft.sku,
            try Int64.fetchOne(db, sql: "SELECT id FROM product WHERE sku = ?", arguments: [sku]) != nil
        {
            throw StoreError.duplicateSKU(sku)
        }
        try db.execute(
            sql: "INSERT INTO product (name, sku, unitPriceMinor, unitCostMinor) VALUES (?, ?, ?, ?)",
            arguments: [draft.name, draft.sku, draft.unitPrice.minorUnits, draft.unitCost.minorUnits]
        )
        let product = Product(
            id: Product.ID(db.lastInsertedRowID),
            name: draft.name,
            sku: draft.sku,
            unitPrice: draft.unitPrice,
            unitCost: draft.unitCost
        )
        try Self.record(
            db,
            Audit.Change(.product, product.id.rawValue, "create", before: nil, after: Audit.json(product))
        )
        return product
    }

    public func product(_ id: Product.ID) async throws -> Product {
        try await read { db in try Self.product(db, id) }
    }

    static func product(_ db: Database, _ id: Product.ID) throws -> Product {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.productColumns) FROM product WHERE id = ?"),
                arguments: [id.rawValue]
            )
        else {
            throw StoreError.notFound(.products, id: id.rawValue)
        }
        return Rows.product(row)
    }

    public func product(named name: String) async throws -> Product {
        try await read { db in try StoreInput.lookUp(name) { try Self.product(db, named: $0) } }
    }

    static func product(_ db: Database, named name: String) throws -> Product {
        // Cached: an import looks up each of its products by name once.
        let row =
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.productColumns) FROM product WHERE name = ?"),
                arguments: [name]
            )
            ?? Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(Rows.productColumns) FROM product WHERE sku = ?"),
                arguments: [name]
            )
        guard let row else { throw StoreError.unknownProduct(name) }
        return Rows.product(row)
    }

    public func products(_ query: ProductQuery) async throws -> [Product] {
        try await read { db in
            var sql = "SELECT \(Rows.productColumns) FROM product"
            var arguments = StatementArguments()
            if query.order == .mostSold {
                sql +=
                    " LEFT JOIN (SELECT productId, sum(quantity) AS sold FROM productMonthTotal GROUP BY productId) AS s ON s.productId = product.id"
            }
            sql += " WHERE 1"
            if !query.includeArchived { sql += " AND product.isArchived = 0" }
            if let text = query.text, !text.isEmpty {
                sql += " AND (product.name LIKE ? ESCAPE '\\' OR product.sku LIKE ? ESCAPE '\\')"
                arguments += [StoreInput.likePattern(text), StoreInput.likePattern(text)]
            }
            sql +=
                query.order == .mostSold
                ? " ORDER BY coalesce(s.sold, 0) DESC, product.name COLLATE NOCASE"
                : " ORDER BY product.name COLLATE NOCASE, product.id"
            sql += Self.limitClause(query.page, &arguments)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { Rows.product($0) }
        }
    }

    public func updateProduct(_ product: Product) async throws -> Product {
        let cleaned = try StoreInput.product(
            ProductDraft(
                name: product.name,
                sku: product.sku,
                unitPrice: product.unitPrice,
                unitCost: product.unitCost
            ),
            currency: try await settings().currency
        )
        return try await write([.products]) { db in
            let old = try Self.product(db, product.id)
            if try Int64.fetchOne(
                db,
                sql: "SELECT id FROM product WHERE name = ? AND id <> ?",
                arguments: [cleaned.name, product.id.rawValue]
            ) != nil {
                throw StoreError.duplicateName(.products, cleaned.name)
            }
            if let sku = cleaned.sku,
                try Int64.fetchOne(
                    db,
                    sql: "SELECT id FROM product WHERE sku = ? AND id <> ?",
                    arguments: [sku, product.id.rawValue]
                ) != nil
            {
                throw StoreError.duplicateSKU(sku)
            }
            try db.execute(
                sql:
                    "UPDATE product SET name = ?, sku = ?, unitPriceMinor = ?, unitCostMinor = ?, isArchived = ? WHERE id = ?",
                arguments: [
                    cleaned.name, cleaned.sku, cleaned.unitPrice.minorUnits, cleaned.unitCost.minorUnits,
                    product.isArchived, product.id.rawValue,
                ]
            )
            let updated = Product(
                id: product.id,
                name: cleaned.name,
                sku: cleaned.sku,
                unitPrice: cleaned.unitPrice,
                unitCost: cleaned.unitCost,
                isArchived: product.isArchived
            )
            if updated != old {
                try Self.record(
                    db,
                    Audit.Change(
                        .product,
                        product.id.rawValue,
                        "update",
                        before: Audit.json(old),
                        after: Audit.json(updated)
                    )
                )
            }
            return updated
        }
    }

    public func deleteProduct(_ id: Product.ID) async throws {
        try await write([.products, .prices]) { db in
            let product = try Self.product(db, id)
            let sales =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sale WHERE productId = ?", arguments: [id.rawValue])
                ?? 0
            if sales > 0 { throw StoreError.hasHistory(.products, name: product.name, sales: sales) }
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM terms WHERE productId = ?", arguments: [id.rawValue])
                ?? 0 > 0
            {
                throw StoreError.invalid(
                    field: "product",
                    reason: "\(product.name) has commission terms of its own; archive it instead."
                )
            }
            try db.execute(sql: "DELETE FROM product WHERE id = ?", arguments: [id.rawValue])
            try Self.record(db, Audit.Change(.product, id.rawValue, "delete", before: Audit.json(product), after: nil))
        }
    }

    // MARK: Helpers

    static func limitClause(_ page: Page, _ arguments: inout StatementArguments) -> String {
        guard page.limit != nil || page.offset > 0 else { return "" }
        arguments += [page.limit.map { max(0, $0) } ?? -1, max(0, page.offset)]
        return " LIMIT ? OFFSET ?"
    }
}

// MARK: The question about her history

extension SQLiteStore: HistoryQuestionStore {
    public func historyQuestion() async throws -> Day? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT historyQuestion FROM book").map {
                try Day.stored($0, row: "The book's question about its history")
            }
        }
    }

    public func setHistoryQuestion(_ day: Day?) async throws {
        try await write([.book]) { db in
            try db.execute(sql: "UPDATE book SET historyQuestion = ?", arguments: [day?.description])
        }
    }
}

import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

extension PostgresStore {
    // MARK: Book

    public func settings() async throws -> BookSettings {
        try await read { connection in try await settings(connection) }
    }

    func settings(_ connection: PostgresConnection) async throws -> BookSettings {
        let rows = try await connection.query(
            """
            SELECT currencyCode, currencyMinorDigits, timeZone, roundingRule, roundingScope, locale FROM book WHERE id = \(book)
            """,
            logger: logger
        )
        for try await (code, digits, zone, rule, scope, locale) in rows.decode(
            (String, Int, String, String, String, String).self
        ) {
            return try Self.settings(code, digits, zone, rule, scope, locale)
        }
        throw StoreError.storage("the book \(book) does not exist")
    }

    /// The settings a book's row holds.
    static func settings(
        _ code: String,
        _ digits: Int,
        _ zone: String,
        _ rule: String,
        _ scope: String,
        _ locale: String
    ) throws -> BookSettings {
        // try?: a currency it cannot read is thrown just after, as malformed settings
        guard let currency = try? Currency(code: code, minorDigits: digits), let rule = RoundingRule(rawValue: rule),
            let scope = RoundingScope(rawValue: scope)
        else {
            throw StoreError.storage("the book's settings are malformed")
        }
        return BookSettings(
            currency: currency,
            timeZoneIdentifier: zone,
            rounding: RoundingPolicy(rule: rule, scope: scope),
            localeIdentifier: locale
        )
    }

    public func updateSettings(_ settings: BookSettings) async throws {
        try StoreInput.check(settings)
        try await write([.book, .sales]) { connection in
            let current = try await self.settings(connection)
            guard current != settings else { return }
            if current.currency != settings.currency {
                let amounts = try await int(
                    connection,
                    """
                    SELECT ((SELECT count(*) FROM product WHERE bookId = \(book)) + (SELECT count(*) FROM sale WHERE bookId = \(book))
                            + (SELECT count(*) FROM payout WHERE bookId = \(book)))::bigint
                    """
                )
                if amounts > 0 { throw StoreError.currencyLocked(current: current.currency.code) }
            }
            try await connection.query(
                """
                UPDATE book SET currencyCode = \(settings.currency.code), currencyMinorDigits = \(settings.currency.minorDigits),
                    timeZone = \(settings.timeZoneIdentifier), roundingRule = \(settings.rounding.rule.rawValue),
                    roundingScope = \(settings.rounding.scope.rawValue), locale = \(settings.localeIdentifier)
                WHERE id = \(book)
                """,
                logger: logger
            )
            // One entry for the settings; the commissions a new rounding rule changes are that entry's consequence.
            try await record(
                connection,
                Audit.Change(.settings, nil, "update", before: Audit.json(current), after: Audit.json(settings))
            )
            if current.rounding.rule != settings.rounding.rule {
                // Rounded commissions follow the new rule, except in closed periods.
                var closed: [Int64: ClosedPeriods] = [:]
                let rows = try await connection.query(
                    """
                    SELECT id, clinicId, date::text, commissionExact, commissionMinor FROM sale WHERE bookId = \(book) AND NOT isVoided
                    """,
                    logger: logger
                ).decode((Int64, Int64, String, Int64, Int64).self).all()
                for (id, clinic, date, exact, minor) in rows {
                    if closed[clinic] == nil {
                        closed[clinic] = try await closedPeriods(connection, clinic: Clinic.ID(clinic))
                    }
                    if let rounded = Ledger.rerounded(
                        exactCommission: ExactCommission(tenThousandths: exact),
                        commission: Money(minorUnits: minor),
                        date: try Day.stored(date, row: "Sale \(id)'s date"),
                        rule: settings.rounding.rule,
                        closed: closed[clinic]!
                    ) {
                        try await connection.query(
                            "UPDATE sale SET commissionMinor = \(rounded.minorUnits) WHERE bookId = \(book) AND id = \(id)",
                            logger: logger
                        )
                    }
                }
            }
        }
    }

    // MARK: Clinics

    public func createClinic(_ draft: ClinicDraft) async throws -> Clinic {
        let checked = ClinicDraft(name: try StoreInput.name(draft.name, field: "clinic name"), schedule: draft.schedule)
        return try await write([.clinics]) { connection in try await createClinic(connection, checked) }
    }

    /// Adds a clinic whose name is checked already, its schedule through the ledger.
    func createClinic(_ connection: PostgresConnection, _ draft: ClinicDraft) async throws -> Clinic {
        try await insertClinic(
            connection,
            ClinicDraft(
                name: draft.name,
                schedule: try Ledger.schedule(draft.schedule, rules: try await rules(connection))
            )
        )
    }

    func insertClinic(_ connection: PostgresConnection, _ draft: ClinicDraft) async throws -> Clinic {
        if try await int(
            connection,
            "SELECT count(*) FROM clinic WHERE bookId = \(book) AND lower(name) = lower(\(draft.name))"
        ) > 0 {
            throw StoreError.duplicateName(.clinics, draft.name)
        }
        let id = try await int(
            connection,
            """
            INSERT INTO clinic (bookId, name, scheduleKind, scheduleAnchor) VALUES (\(book), \(draft.name), \(draft.schedule.kind), \(draft.schedule.anchor))
            RETURNING id
            """
        )
        let clinic = Clinic(id: Clinic.ID(id), name: draft.name, schedule: draft.schedule)
        try await record(connection, Audit.Change(.clinic, id, "create", before: nil, after: Audit.json(clinic)))
        return clinic
    }

    public func clinic(_ id: Clinic.ID) async throws -> Clinic {
        try await read { connection in try await clinic(connection, id) }
    }

    func clinic(_ connection: PostgresConnection, _ id: Clinic.ID) async throws -> Clinic {
        guard
            let clinic = try await clinics(
                connection,
                "SELECT \(unescaped: Columns.clinic) FROM clinic WHERE bookId = \(book) AND id = \(id.rawValue)"
            ).first
        else {
            throw StoreError.notFound(.clinics, id: id.rawValue)
        }
        return clinic
    }

    public func clinic(named name: String) async throws -> Clinic {
        try await read { connection in try await StoreInput.lookUp(name) { try await clinic(connection, named: $0) } }
    }

    func clinic(_ connection: PostgresConnection, named name: String) async throws -> Clinic {
        guard
            let clinic = try await clinics(
                connection,
                """
                SELECT \(unescaped: Columns.clinic) FROM clinic WHERE bookId = \(book) AND lower(name) = lower(\(name))
                """
            ).first
        else {
            throw StoreError.unknownClinic(name)
        }
        return clinic
    }

    public func clinics(_ query: ClinicQuery) async throws -> [Clinic] {
        var sql = try SQL("SELECT \(Columns.clinic) FROM clinic WHERE bookId = ?", book)
        if !query.includeArchived { try sql.add(" AND NOT isArchived") }
        if let text = query.text, !text.isEmpty {
            try sql.add(" AND name ILIKE ? ESCAPE '\\'", StoreInput.likePattern(text))
        }
        try sql.add(" ORDER BY \(Columns.byName("name")), id")
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await clinics(connection, built) }
    }

    func clinics(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Clinic] {
        var result: [Clinic] = []
        for try await (id, name, kind, anchor, archived, changes) in try await connection.query(query, logger: logger)
            .decode((Int64, String, String, String?, Bool, String?).self)
        {
            result.append(try Self.clinic(id, name, kind, anchor, archived, changes))
        }
        return result
    }

    /// The clinic a row of ``Columns/clinic`` holds.
    static func clinic(
        _ id: Int64,
        _ name: String,
        _ kind: String,
        _ anchor: String?,
        _ archived: Bool,
        _ changes: String?
    ) throws -> Clinic {
        // try?: a schedule it cannot read is thrown just after, as malformed
        guard let schedule = try? PaySchedule(kind: kind, anchor: anchor) else {
            throw StoreError.storage("a stored pay schedule is malformed")
        }
        return Clinic(
            id: Clinic.ID(id),
            name: name,
            schedule: schedule,
            scheduleChanges: try ScheduleChange.reading(stored: changes, clinic: id),
            isArchived: archived
        )
    }

    public func updateClinic(_ clinic: Clinic) async throws -> Clinic {
        try await write([.clinics]) { connection in try await updateClinic(connection, clinic) }
    }

    /// Changes a clinic (its schedule through the ledger, with its audit entry).
    func updateClinic(_ connection: PostgresConnection, _ clinic: Clinic) async throws -> Clinic {
        let name = try StoreInput.name(clinic.name, field: "clinic name")
        var clinic = clinic
        let old = try await self.clinic(connection, clinic.id)
        if old.calendar != clinic.calendar {
            let payouts = try await self.payouts(
                connection,
                try SQL(
                    "SELECT \(Columns.payout) FROM payout WHERE bookId = ? AND clinicId = ?",
                    book,
                    clinic.id.rawValue
                ).query
            ).map(\.period)
            let planned = try Ledger.scheduleChanges(
                of: old,
                first: clinic.schedule,
                changes: clinic.scheduleChanges,
                rules: try await rules(connection),
                closed: try await closedPeriods(connection, clinic: clinic.id),
                payouts: payouts
            )
            (clinic.schedule, clinic.scheduleChanges) = (planned.schedule, planned.scheduleChanges)
            try await record(
                connection,
                Audit.Change(
                    .clinic,
                    clinic.id.rawValue,
                    "schedule",
                    before: Audit.json(schedulesOf: old),
                    after: Audit.json(schedulesOf: clinic)
                )
            )
        }
        if try await int(
            connection,
            """
            SELECT count(*) FROM clinic WHERE bookId = \(book) AND lower(name) = lower(\(name)) AND id <> \(clinic.id.rawValue)
            """
        ) > 0 {
            throw StoreError.duplicateName(.clinics, name)
        }
        try await connection.query(
            """
            UPDATE clinic SET name = \(name), scheduleKind = \(clinic.schedule.kind), scheduleAnchor = \(clinic.schedule.anchor),
                scheduleChanges = \(ScheduleChange.stored(clinic.scheduleChanges)), isArchived = \(clinic.isArchived)
            WHERE bookId = \(book) AND id = \(clinic.id.rawValue)
            """,
            logger: logger
        )
        var updated = clinic
        updated.name = name
        if old.name != updated.name || old.isArchived != updated.isArchived {
            try await record(
                connection,
                Audit.Change(.clinic, clinic.id.rawValue, "update", before: Audit.json(old), after: Audit.json(updated))
            )
        }
        return updated
    }

    public func deleteClinic(_ id: Clinic.ID) async throws {
        try await write([.clinics, .terms, .prices]) { connection in
            let clinic = try await self.clinic(connection, id)
            let sales = try await int(
                connection,
                "SELECT count(*) FROM sale WHERE bookId = \(book) AND clinicId = \(id.rawValue)"
            )
            if sales > 0 { throw StoreError.hasHistory(.clinics, name: clinic.name, sales: Int(sales)) }
            if try await int(
                connection,
                "SELECT count(*) FROM payout WHERE bookId = \(book) AND clinicId = \(id.rawValue)"
            ) > 0 {
                throw StoreError.hasHistory(.clinics, name: clinic.name, sales: 0)
            }
            try await connection.query(
                "DELETE FROM closedPeriod WHERE bookId = \(book) AND clinicId = \(id.rawValue)",
                logger: logger
            )
            try await connection.query(
                "DELETE FROM clinic WHERE bookId = \(book) AND id = \(id.rawValue)",
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.clinic, id.rawValue, "delete", before: Audit.json(clinic), after: nil)
            )
        }
    }

    // MARK: Products

    public func createProduct(_ draft: ProductDraft) async throws -> Product {
        let cleaned = try StoreInput.product(draft, currency: try await settings().currency)
        return try await write([.products]) { connection in try await insertProduct(connection, cleaned) }
    }

    func insertProduct(_ connection: PostgresConnection, _ draft: ProductDraft) async throws -> Product {
        if try await int(
            connection,
            "SELECT count(*) FROM product WHERE bookId = \(book) AND lower(name) = lower(\(draft.name))"
        ) > 0 {
            throw StoreError.duplicateName(.products, draft.name)
        }
        if let sku = draft.sku,
            try await int(
                connection,
                "SELECT count(*) FROM product WHERE bookId = \(book) AND lower(sku) = lower(\(sku))"
            ) > 0
        {
            throw StoreError.duplicateSKU(sku)
        }
        let id = try await int(
            connection,
            """
            INSERT INTO product (bookId, name, sku, unitPriceMinor, unitCostMinor)
            VALUES (\(book), \(draft.name), \(draft.sku), \(draft.unitPrice.minorUnits), \(draft.unitCost.minorUnits))
            RETURNING id
            """
        )
        let product = Product(
            id: Product.ID(id),
            name: draft.name,
            sku: draft.sku,
            unitPrice: draft.unitPrice,
            unitCost: draft.unitCost
        )
        try await record(connection, Audit.Change(.product, id, "create", before: nil, after: Audit.json(product)))
        return product
    }

    public func product(_ id: Product.ID) async throws -> Product {
        try await read { connection in try await product(connection, id) }
    }

    func product(_ connection: PostgresConnection, _ id: Product.ID) async throws -> Product {
        guard
            let product = try await products(
                connection,
                "SELECT \(unescaped: Columns.product) FROM product WHERE bookId = \(book) AND id = \(id.rawValue)"
            ).first
        else {
            throw StoreError.notFound(.products, id: id.rawValue)
        }
        return product
    }

    public func product(named name: String) async throws -> Product {
        try await read { connection in try await StoreInput.lookUp(name) { try await product(connection, named: $0) } }
    }

    func product(_ connection: PostgresConnection, named name: String) async throws -> Product {
        // The name first, then the SKU.
        guard
            let product = try await products(
                connection,
                """
                SELECT \(unescaped: Columns.product) FROM product
                WHERE bookId = \(book) AND (lower(name) = lower(\(name)) OR lower(sku) = lower(\(name)))
                ORDER BY lower(name) = lower(\(name)) DESC LIMIT 1
                """
            ).first
        else {
            throw StoreError.unknownProduct(name)
        }
        return product
    }

    public func products(_ query: ProductQuery) async throws -> [Product] {
        var sql = SQL("SELECT \(Columns.product) FROM product")
        if query.order == .mostSold {
            try sql.add(
                """
                 LEFT JOIN (SELECT productId, sum(quantity) AS sold FROM productMonthTotal WHERE bookId = ? GROUP BY productId) AS s
                 ON s.productId = product.id
                """,
                book
            )
        }
        try sql.add(" WHERE product.bookId = ?", book)
        if !query.includeArchived { try sql.add(" AND NOT product.isArchived") }
        if let text = query.text, !text.isEmpty {
            let pattern = StoreInput.likePattern(text)
            try sql.add(" AND (product.name ILIKE ? ESCAPE '\\' OR product.sku ILIKE ? ESCAPE '\\')", pattern, pattern)
        }
        let byName = Columns.byName("product.name")
        try sql.add(
            query.order == .mostSold
                ? " ORDER BY coalesce(s.sold, 0) DESC, \(byName), product.id" : " ORDER BY \(byName), product.id"
        )
        try sql.add(page: query.page)
        let built = sql.query
        return try await read { connection in try await products(connection, built) }
    }

    func products(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> [Product] {
        var result: [Product] = []
        for try await (id, name, sku, price, cost, archived) in try await connection.query(query, logger: logger)
            .decode((Int64, String, String?, Int64, Int64, Bool).self)
        {
            result.append(
                Product(
                    id: Product.ID(id),
                    name: name,
                    sku: sku,
                    unitPrice: Money(minorUnits: price),
                    unitCost: Money(minorUnits: cost),
                    isArchived: archived
                )
            )
        }
        return result
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
        return try await write([.products]) { connection in
            let old = try await self.product(connection, product.id)
            if try await int(
                connection,
                """
                SELECT count(*) FROM product WHERE bookId = \(book) AND lower(name) = lower(\(cleaned.name)) AND id <> \(product.id.rawValue)
                """
            ) > 0 {
                throw StoreError.duplicateName(.products, cleaned.name)
            }
            if let sku = cleaned.sku,
                try await int(
                    connection,
                    """
                    SELECT count(*) FROM product WHERE bookId = \(book) AND lower(sku) = lower(\(sku)) AND id <> \(product.id.rawValue)
                    """
                ) > 0
            {
                throw StoreError.duplicateSKU(sku)
            }
            try await connection.query(
                """
                UPDATE product SET name = \(cleaned.name), sku = \(cleaned.sku), unitPriceMinor = \(cleaned.unitPrice.minorUnits),
                    unitCostMinor = \(cleaned.unitCost.minorUnits), isArchived = \(product.isArchived)
                WHERE bookId = \(book) AND id = \(product.id.rawValue)
                """,
                logger: logger
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
                try await record(
                    connection,
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
        try await write([.products, .prices]) { connection in
            let product = try await self.product(connection, id)
            let sales = try await int(
                connection,
                "SELECT count(*) FROM sale WHERE bookId = \(book) AND productId = \(id.rawValue)"
            )
            if sales > 0 { throw StoreError.hasHistory(.products, name: product.name, sales: Int(sales)) }
            if try await int(
                connection,
                "SELECT count(*) FROM terms WHERE bookId = \(book) AND productId = \(id.rawValue)"
            ) > 0 {
                throw StoreError.invalid(
                    field: "product",
                    reason: "\(product.name) has commission terms of its own; archive it instead."
                )
            }
            try await connection.query(
                "DELETE FROM product WHERE bookId = \(book) AND id = \(id.rawValue)",
                logger: logger
            )
            try await record(
                connection,
                Audit.Change(.product, id.rawValue, "delete", before: Audit.json(product), after: nil)
            )
        }
    }
}

// MARK: The question about her history

extension PostgresStore: HistoryQuestionStore {
    public func historyQuestion() async throws -> Day? {
        try await read { connection in
            let rows = try await connection.query(
                "SELECT historyQuestion::text FROM book WHERE id = \(book)",
                logger: logger
            )
            for try await (text) in rows.decode((String?).self) {
                return try text.map { try Day.stored($0, row: "The book's question about its history") }
            }
            return nil
        }
    }

    public func setHistoryQuestion(_ day: Day?) async throws {
        _ = try await write([.book]) { connection in
            try await connection.query(
                "UPDATE book SET historyQuestion = \(day?.description)::date WHERE id = \(book)",
                logger: logger
            )
        }
    }
}

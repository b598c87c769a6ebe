import CommissionCore
import Foundation

/// A book archive as a file: JSON Lines, one record per line, readable by any tool.
///
/// The first line names the format (`{"commissionArchive":3,"createdAt":…}`), the last counts what
/// came before it (`{"end":{"records":…,"sales":…}}`), so a file cut short is told from a whole one.
/// In between, one object per line with one key naming the record: `book`, `clinic`, `product`,
/// `terms`, `sale`, `payout`, `closedPeriod`, `audit`, `account`, `token`. Amounts are integers of
/// minor units with the column names of the stores (`unitPriceMinor`), dates `YYYY-MM-DD`,
/// times seconds since 1970: the file is the database's rows, exact. It holds the accounts'
/// password hashes and the API tokens' digests: keep it as safe as the book itself.
public enum ArchiveFile {
    /// The format's version; a reader refuses a newer one. 2 added clinic price lists (`price`
    /// lines), schedule changes (a clinic's `scheduleChanges`), tiers (terms' `tiers`) and
    /// deductions (`deduction` lines); 3, audit entries about products (and a book's changes,
    /// `BookChanges`); a version-1 or -2 archive reads as before.
    public static let version = 3
    /// Sales and audit entries are handed to a restore in pages of this many.
    public static let pageSize = 10_000

    /// Whether the file at `path` starts like an archive (rather than, say, an SQLite backup).
    public static func isArchive(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        // try?: closing a file only read
        defer { try? handle.close() }
        // try?: a probe: a file that cannot be read is not called an archive
        let start = (try? handle.read(upToCount: 32)) ?? Data()
        return String(decoding: start, as: UTF8.self).hasPrefix("{\"commissionArchive\"")
    }

    // MARK: Writing

    /// Streams `source`'s book to a new file at `path`, written beside it and renamed into place:
    /// a failed or interrupted archive never leaves a file that looks whole.
    ///
    /// - Throws: ``StoreError/invalid(field:reason:)`` when `path` exists and `replacing` is false.
    @discardableResult
    public static func write(
        _ source: any BookArchiving,
        to path: String,
        replacing: Bool = false,
        now: Date = Date()
    ) async throws -> ArchiveCounts {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path) && !replacing {
            throw StoreError.invalid(
                field: "archive path",
                reason: "\(path) already exists; pass --force to replace it."
            )
        }
        // try?: the folder, when missing; if it cannot be made, creating the file below throws
        try? fileManager.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        // try?: a partial file an earlier process of this pid may have left; createFile below replaces it
        try? fileManager.removeItem(atPath: temporary)
        guard fileManager.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw StoreError.storage("could not create \(temporary): check that its folder exists and can be written")
        }
        do {
            let counts = try await stream(source, now: now) { chunk in try handle.write(contentsOf: chunk) }
            try handle.synchronize()
            try handle.close()
            if fileManager.fileExists(atPath: path) { try fileManager.removeItem(atPath: path) }
            try fileManager.moveItem(atPath: temporary, toPath: path)
            return counts
        } catch {
            // try?: closing on the way out with the archive's error, which is thrown
            try? handle.close()
            // try?: the partial file, on the way out with the error, which is thrown; its name says it is partial
            try? fileManager.removeItem(atPath: temporary)
            if error is StoreError || error is CancellationError { throw error }
            throw StoreError.storage("could not write the archive \(path): \(error.localizedDescription)")
        }
    }

    /// Streams `source`'s book as archive text, handed to `write` in chunks of about a megabyte:
    /// what a download sends as it goes. The end line comes last, so a stream broken off midway is
    /// an archive a restore refuses.
    @discardableResult
    public static func stream(
        _ source: any BookArchiving,
        now: Date = Date(),
        to write: (Data) async throws -> Void
    ) async throws -> ArchiveCounts {
        var writer = LineWriter()
        try writer.append(Header(commissionArchive: version, createdAt: Int64(now.timeIntervalSince1970)))
        var records = 0
        let counts = try await source.archive { record in
            for line in Line.lines(of: record) {
                try writer.append(line)
                records += 1
            }
            if let chunk = writer.take(atLeast: 1 << 20) { try await write(chunk) }
        }
        try writer.append(Line(end: End(records: records, sales: counts.sales)))
        if let chunk = writer.take(atLeast: 0) { try await write(chunk) }
        return counts
    }

    // MARK: Reading

    /// What the archive at `path` holds, read to its end line and checked whole
    /// (``ArchiveChecker``). Nothing is written anywhere.
    public static func inspect(_ path: String) async throws -> ArchiveCounts {
        var checker = ArchiveChecker()
        try await read(path) { record in try checker.check(record) }
        _ = try checker.finish()
        return checker.counts
    }

    /// Reads the archive at `path` into `sink`, record by record (sales and audit entries in pages),
    /// checking as it goes that the file is whole: a bad line, a newer format or a missing end is a
    /// ``StoreError/invalid(field:reason:)`` naming the line, thrown before the sink sees the rest.
    @discardableResult
    public static func read(_ path: String, into sink: ArchiveSink) async throws -> ArchiveCounts {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.invalid(field: "archive", reason: "\(path) does not exist or cannot be read.")
        }
        // try?: closing a file only read
        defer { try? handle.close() }
        var reader = LineReader(handle: handle)
        let decoder = JSONDecoder()
        func refuse(_ line: Int, _ reason: String) -> StoreError {
            .invalid(field: "archive", reason: "\(path), line \(line): \(reason)")
        }
        guard let first = try reader.next() else { throw refuse(1, "the file is empty.") }
        // try?: a first line that is not a header is thrown just after, as not an archive
        guard let header = try? decoder.decode(Header.self, from: first), let format = header.commissionArchive else {
            throw refuse(1, "this is not a Commission book archive (it does not start with {\"commissionArchive\":…}).")
        }
        guard format <= version else {
            throw refuse(
                1,
                "the archive is of format \(format), newer than this Commission reads (\(version)): upgrade Commission first."
            )
        }
        var counts = ArchiveCounts()
        var sales: [ArchivedSale] = [], audit: [AuditEntry] = []
        var records = 0
        var number = 1
        func flush() async throws {
            if !sales.isEmpty {
                let page = sales
                sales.removeAll(keepingCapacity: true)
                counts.add(.sales(page))
                try await sink(.sales(page))
            }
            if !audit.isEmpty {
                let page = audit
                audit.removeAll(keepingCapacity: true)
                counts.add(.audit(page))
                try await sink(.audit(page))
            }
        }
        while let data = try reader.next() {
            number += 1
            let line: Line
            do {
                line = try decoder.decode(Line.self, from: data)
            } catch {
                throw refuse(number, "not a record this Commission reads (\(Self.reason(error))).")
            }
            if let end = line.end {
                try await flush()
                guard end.records == records, end.sales == counts.sales else {
                    throw refuse(
                        number,
                        "the archive says it holds \(end.records) records and \(end.sales) sales, but \(records) and \(counts.sales) came before."
                    )
                }
                guard try reader.next() == nil else { throw refuse(number + 1, "something follows the archive's end.") }
                return counts
            }
            let record: ArchiveRecord
            do {
                record = try line.record()
            } catch let error as StoreError {
                throw refuse(number, error.description)
            }
            records += 1
            switch record {
            case .sales(let page):
                if !audit.isEmpty { try await flush() }
                sales.append(contentsOf: page)
                if sales.count >= pageSize { try await flush() }
            case .audit(let page):
                if !sales.isEmpty { try await flush() }
                audit.append(contentsOf: page)
                if audit.count >= pageSize { try await flush() }
            default:
                try await flush()
                counts.add(record)
                try await sink(record)
            }
        }
        throw refuse(
            number,
            "the archive stops before its end line: the file was cut short (an interrupted copy?). Nothing was restored."
        )
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is malformed"
        default: "malformed JSON"
        }
    }

    // MARK: Lines

    struct Header: Codable {
        var commissionArchive: Int?
        var createdAt: Int64?
        /// Set when the file holds the changes of a book since a revision, not the whole book.
        var changes: ChangesLine?
    }

    /// What the header of a book's changes says besides its format (``BookChanges``).
    struct ChangesLine: Codable {
        var epoch: String
        var since, revision: Int64
        var removed: [RemovedRecord]
        var periodClinics: [Int64]
    }

    struct End: Codable {
        var records: Int
        var sales: Int
    }

    struct BookLine: Codable {
        var name: String
        var currencyCode: String
        var currencyMinorDigits: Int
        var timeZone: String
        var roundingRule: String
        var roundingScope: String
        var locale: String
    }

    struct ClinicLine: Codable {
        var id: Int64
        var name: String
        var scheduleKind: String
        var scheduleAnchor: String?
        var isArchived: Bool
        /// Its schedule changes as a store keeps them (`ScheduleChange.stored`); absent for none (and before format 2).
        var scheduleChanges: String?
    }

    struct ProductLine: Codable {
        var id: Int64
        var name: String
        var sku: String?
        var unitPriceMinor: Int64
        var unitCostMinor: Int64
        var isArchived: Bool
    }

    struct TermsLine: Codable {
        var id: Int64
        var clinicId: Int64
        var productId: Int64?
        var basis: String
        var shareBasisPoints: Int
        var effectiveFrom: String
        var isArchived: Bool
        /// Its tiers as a store keeps them (`Tier.stored`); absent for plain terms.
        var tiers: String?
    }

    struct DeductionLine: Codable {
        var id: Int64
        var clinicId: Int64
        var name: String
        var kind: String
        var amountMinor: Int64?
        var shareBasisPoints: Int?
        var effectiveFrom: String
        var lastDay: String?
    }

    struct PriceLine: Codable {
        var id: Int64
        var clinicId: Int64
        var productId: Int64
        var unitPriceMinor: Int64
        var unitCostMinor: Int64?
        var effectiveFrom: String
    }

    struct PayoutLine: Codable {
        var id: Int64
        var clinicId: Int64
        var periodStart: String
        var periodEnd: String
        var amountMinor: Int64
        var receivedOn: String
        var reference: String?
    }

    struct ClosedLine: Codable {
        var clinicId: Int64
        var periodStart: String
        var periodEnd: String
    }

    struct AuditLine: Codable {
        var id: Int64
        var at: Int64
        var actor: String
        var subject: String
        var subjectId: Int64?
        var lastSubjectId: Int64?
        var action: String
        var before: String?
        var after: String?
    }

    struct AccountLine: Codable {
        var id: Int64
        var username: String
        var passwordHash: String
        var createdAt: Int64
        var role: String
    }

    struct TokenLine: Codable {
        var accountId: Int64
        var name: String
        var tokenDigest: String
        var createdAt: Int64
        var lastUsedAt: Int64?
        var revokedAt: Int64?
    }

    /// One line: exactly one of its keys is set.
    struct Line: Codable {
        var book: BookLine?
        var clinic: ClinicLine?
        var product: ProductLine?
        var terms: TermsLine?
        var price: PriceLine?
        var deduction: DeductionLine?
        var sale: SaleRow?
        var payout: PayoutLine?
        var closedPeriod: ClosedLine?
        var audit: AuditLine?
        var account: AccountLine?
        var token: TokenLine?
        var end: End?

        init(
            book: BookLine? = nil,
            clinic: ClinicLine? = nil,
            product: ProductLine? = nil,
            terms: TermsLine? = nil,
            price: PriceLine? = nil,
            deduction: DeductionLine? = nil,
            sale: SaleRow? = nil,
            payout: PayoutLine? = nil,
            closedPeriod: ClosedLine? = nil,
            audit: AuditLine? = nil,
            account: AccountLine? = nil,
            token: TokenLine? = nil,
            end: End? = nil
        ) {
            self.book = book
            self.clinic = clinic
            self.product = product
            self.terms = terms
            self.price = price
            self.deduction = deduction
            self.sale = sale
            self.payout = payout
            self.closedPeriod = closedPeriod
            self.audit = audit
            self.account = account
            self.token = token
            self.end = end
        }

        /// The lines of a record: one, or one per sale or audit entry of a page.
        static func lines(of record: ArchiveRecord) -> [Line] {
            switch record {
            case .book(let book):
                let s = book.settings
                return [
                    Line(
                        book: BookLine(
                            name: book.name,
                            currencyCode: s.currency.code,
                            currencyMinorDigits: s.currency.minorDigits,
                            timeZone: s.timeZoneIdentifier,
                            roundingRule: s.rounding.rule.rawValue,
                            roundingScope: s.rounding.scope.rawValue,
                            locale: s.localeIdentifier
                        )
                    )
                ]
            case .clinic(let c):
                return [
                    Line(
                        clinic: ClinicLine(
                            id: c.id.rawValue,
                            name: c.name,
                            scheduleKind: c.schedule.kind,
                            scheduleAnchor: c.schedule.anchor,
                            isArchived: c.isArchived,
                            scheduleChanges: ScheduleChange.stored(c.scheduleChanges)
                        )
                    )
                ]
            case .product(let p):
                return [
                    Line(
                        product: ProductLine(
                            id: p.id.rawValue,
                            name: p.name,
                            sku: p.sku,
                            unitPriceMinor: p.unitPrice.minorUnits,
                            unitCostMinor: p.unitCost.minorUnits,
                            isArchived: p.isArchived
                        )
                    )
                ]
            case .terms(let t):
                return [
                    Line(
                        terms: TermsLine(
                            id: t.id.rawValue,
                            clinicId: t.clinicID.rawValue,
                            productId: t.productID?.rawValue,
                            basis: t.basis.rawValue,
                            shareBasisPoints: t.share.basisPoints,
                            effectiveFrom: t.effectiveFrom.description,
                            isArchived: t.isArchived,
                            tiers: Tier.stored(t.tiers)
                        )
                    )
                ]
            case .price(let e):
                return [
                    Line(
                        price: PriceLine(
                            id: e.id.rawValue,
                            clinicId: e.clinicID.rawValue,
                            productId: e.productID.rawValue,
                            unitPriceMinor: e.unitPrice.minorUnits,
                            unitCostMinor: e.unitCost?.minorUnits,
                            effectiveFrom: e.effectiveFrom.description
                        )
                    )
                ]
            case .deduction(let d):
                let stored = d.amount.stored
                return [
                    Line(
                        deduction: DeductionLine(
                            id: d.id.rawValue,
                            clinicId: d.clinicID.rawValue,
                            name: d.name,
                            kind: stored.kind,
                            amountMinor: stored.amountMinor,
                            shareBasisPoints: stored.shareBasisPoints,
                            effectiveFrom: d.effectiveFrom.description,
                            lastDay: d.lastDay?.description
                        )
                    )
                ]
            case .sales(let page):
                return page.map { Line(sale: SaleRow($0.sale, idempotencyKey: $0.idempotencyKey)) }
            case .payout(let p):
                return [
                    Line(
                        payout: PayoutLine(
                            id: p.id.rawValue,
                            clinicId: p.clinicID.rawValue,
                            periodStart: p.period.start.description,
                            periodEnd: p.period.end.description,
                            amountMinor: p.amount.minorUnits,
                            receivedOn: p.receivedOn.description,
                            reference: p.reference
                        )
                    )
                ]
            case .closedPeriod(let clinic, let period):
                return [
                    Line(
                        closedPeriod: ClosedLine(
                            clinicId: clinic.rawValue,
                            periodStart: period.start.description,
                            periodEnd: period.end.description
                        )
                    )
                ]
            case .audit(let page):
                return page.map { e in
                    Line(
                        audit: AuditLine(
                            id: e.id.rawValue,
                            at: Int64(e.at.timeIntervalSince1970),
                            actor: e.actor,
                            subject: e.subject.rawValue,
                            subjectId: e.subjectID,
                            lastSubjectId: e.lastSubjectID,
                            action: e.action,
                            before: e.before,
                            after: e.after
                        )
                    )
                }
            case .account(let a):
                return [
                    Line(
                        account: AccountLine(
                            id: a.id.rawValue,
                            username: a.username,
                            passwordHash: a.passwordHash,
                            createdAt: a.createdAt,
                            role: a.role.rawValue
                        )
                    )
                ]
            case .token(let t):
                return [
                    Line(
                        token: TokenLine(
                            accountId: t.accountID.rawValue,
                            name: t.name,
                            tokenDigest: t.tokenDigest,
                            createdAt: t.createdAt,
                            lastUsedAt: t.lastUsedAt,
                            revokedAt: t.revokedAt
                        )
                    )
                ]
            }
        }

        /// The record the line holds; a value no store could hold is an error saying which.
        func record() throws -> ArchiveRecord {
            func day(_ text: String, _ what: String) throws -> Day {
                guard let day = Day.reading(stored: text) else {
                    throw StoreError.unreadable("\(what) (\"\(text)\" is not a date)")
                }
                return day
            }
            let set = [
                book != nil, clinic != nil, product != nil, terms != nil, price != nil, deduction != nil, sale != nil,
                payout != nil, closedPeriod != nil,
                audit != nil, account != nil, token != nil,
            ].filter { $0 }.count
            guard set == 1 else { throw StoreError.unreadable("a line holding \(set) records instead of one") }
            if let b = book {
                // try?: a currency it cannot read is thrown just after, as unreadable settings
                guard let currency = try? Currency(code: b.currencyCode, minorDigits: b.currencyMinorDigits),
                    let rule = RoundingRule(rawValue: b.roundingRule),
                    let scope = RoundingScope(rawValue: b.roundingScope)
                else {
                    throw StoreError.unreadable("the book's settings")
                }
                return .book(
                    ArchivedBook(
                        name: b.name,
                        settings: BookSettings(
                            currency: currency,
                            timeZoneIdentifier: b.timeZone,
                            rounding: RoundingPolicy(rule: rule, scope: scope),
                            localeIdentifier: b.locale
                        )
                    )
                )
            }
            if let c = clinic {
                // try?: a schedule it cannot read is thrown just after, naming the clinic
                guard let schedule = try? PaySchedule(kind: c.scheduleKind, anchor: c.scheduleAnchor) else {
                    throw StoreError.unreadable("clinic \(c.id)'s schedule")
                }
                return .clinic(
                    Clinic(
                        id: Clinic.ID(c.id),
                        name: c.name,
                        schedule: schedule,
                        scheduleChanges: try ScheduleChange.reading(stored: c.scheduleChanges, clinic: c.id),
                        isArchived: c.isArchived
                    )
                )
            }
            if let p = product {
                return .product(
                    Product(
                        id: Product.ID(p.id),
                        name: p.name,
                        sku: p.sku,
                        unitPrice: Money(minorUnits: p.unitPriceMinor),
                        unitCost: Money(minorUnits: p.unitCostMinor),
                        isArchived: p.isArchived
                    )
                )
            }
            if let t = terms {
                guard let basis = CommissionBasis(rawValue: t.basis),
                    // try?: a share out of range is thrown just after, naming the terms
                    let share = try? Share(basisPoints: t.shareBasisPoints)
                else {
                    throw StoreError.unreadable("terms \(t.id)'s split")
                }
                return .terms(
                    Terms(
                        id: Terms.ID(t.id),
                        clinicID: Clinic.ID(t.clinicId),
                        productID: t.productId.map { Product.ID($0) },
                        basis: basis,
                        share: share,
                        tiers: try Tier.reading(stored: t.tiers, terms: t.id),
                        effectiveFrom: try day(t.effectiveFrom, "terms \(t.id)'s first day"),
                        isArchived: t.isArchived
                    )
                )
            }
            if let e = price {
                guard e.unitPriceMinor >= 0, (e.unitCostMinor ?? 0) >= 0 else {
                    throw StoreError.unreadable("price-list entry \(e.id)'s negative amount")
                }
                return .price(
                    PriceListEntry(
                        id: PriceListEntry.ID(e.id),
                        clinicID: Clinic.ID(e.clinicId),
                        productID: Product.ID(e.productId),
                        unitPrice: Money(minorUnits: e.unitPriceMinor),
                        unitCost: e.unitCostMinor.map { Money(minorUnits: $0) },
                        effectiveFrom: try day(e.effectiveFrom, "price-list entry \(e.id)'s first day")
                    )
                )
            }
            if let d = deduction {
                return .deduction(
                    Deduction(
                        id: Deduction.ID(d.id),
                        clinicID: Clinic.ID(d.clinicId),
                        name: d.name,
                        amount: try DeductionAmount(
                            kind: d.kind,
                            amountMinor: d.amountMinor,
                            shareBasisPoints: d.shareBasisPoints,
                            deduction: d.id
                        ),
                        effectiveFrom: try day(d.effectiveFrom, "deduction \(d.id)'s first day"),
                        lastDay: try d.lastDay.map { try day($0, "deduction \(d.id)'s last day") }
                    )
                )
            }
            if let row = sale {
                return .sales([ArchivedSale(sale: try row.sale(), idempotencyKey: row.idempotencyKey)])
            }
            if let p = payout {
                return .payout(
                    Payout(
                        id: Payout.ID(p.id),
                        clinicID: Clinic.ID(p.clinicId),
                        period: PayPeriod(
                            start: try day(p.periodStart, "payout \(p.id)'s period"),
                            end: try day(p.periodEnd, "payout \(p.id)'s period")
                        ),
                        amount: Money(minorUnits: p.amountMinor),
                        receivedOn: try day(p.receivedOn, "payout \(p.id)'s date"),
                        reference: p.reference
                    )
                )
            }
            if let c = closedPeriod {
                return .closedPeriod(
                    clinic: Clinic.ID(c.clinicId),
                    period: PayPeriod(
                        start: try day(c.periodStart, "a closed period"),
                        end: try day(c.periodEnd, "a closed period")
                    )
                )
            }
            if let e = audit {
                guard let subject = AuditSubject(rawValue: e.subject) else {
                    throw StoreError.unreadable("audit entry \(e.id)'s subject \"\(e.subject)\"")
                }
                return .audit([
                    AuditEntry(
                        id: AuditEntry.ID(e.id),
                        at: Date(timeIntervalSince1970: TimeInterval(e.at)),
                        actor: e.actor,
                        subject: subject,
                        subjectID: e.subjectId,
                        lastSubjectID: e.lastSubjectId,
                        action: e.action,
                        before: e.before,
                        after: e.after
                    )
                ])
            }
            if let a = account {
                guard let role = MemberRole(rawValue: a.role) else {
                    throw StoreError.unreadable("account \(a.id)'s role \"\(a.role)\"")
                }
                return .account(
                    ArchivedAccount(
                        id: Account.ID(a.id),
                        username: a.username,
                        passwordHash: a.passwordHash,
                        createdAt: a.createdAt,
                        role: role
                    )
                )
            }
            let t = token!
            return .token(
                ArchivedToken(
                    accountID: Account.ID(t.accountId),
                    name: t.name,
                    tokenDigest: t.tokenDigest,
                    createdAt: t.createdAt,
                    lastUsedAt: t.lastUsedAt,
                    revokedAt: t.revokedAt
                )
            )
        }
    }

    // MARK: Buffered lines

    /// Encodes JSON lines into a buffer, taken out a chunk at a time.
    struct LineWriter {
        var buffer = Data()
        let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]  // the same book, the same lines
            return encoder
        }()

        mutating func append(_ value: some Encodable) throws {
            buffer.append(try encoder.encode(value))
            buffer.append(0x0A)
        }

        /// The buffer's bytes, when there are at least `count` of them (and any).
        mutating func take(atLeast count: Int) -> Data? {
            guard !buffer.isEmpty, buffer.count >= count else { return nil }
            defer { buffer = Data() }
            return buffer
        }
    }

    /// Reads a file a line at a time through a buffer of about a megabyte.
    struct LineReader {
        let handle: FileHandle?
        var buffer = Data()
        var start = 0
        var atEnd = false

        init(handle: FileHandle) { self.handle = handle }

        /// Reads lines out of bytes already in memory.
        init(data: Data) {
            handle = nil
            buffer = data
            atEnd = true
        }

        /// The next line without its newline; nil at the end of the file. A last line without a
        /// newline counts (an end line is what tells a whole file).
        mutating func next() throws -> Data? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = buffer[start..<newline]
                    start = newline + 1
                    return line
                }
                if atEnd {
                    guard start < buffer.count else { return nil }
                    let line = buffer[start...]
                    start = buffer.count
                    return line
                }
                buffer.removeSubrange(..<start)
                start = 0
                if let more = try handle?.read(upToCount: 1 << 20), !more.isEmpty {
                    buffer.append(more)
                } else {
                    atEnd = true
                }
            }
        }
    }
}

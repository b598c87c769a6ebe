import CommissionCore
import CommissionStore
import Foundation
import GRDB
import GRDBSQLite

/// Inserts a stream of sales with one `INSERT … SELECT` from a virtual table whose rows Swift hands
/// over one at a time.
///
/// A bulk load through many small `INSERT` statements pays, for each statement, SQLite's statement
/// journal: a copy of every page the statement touches that the transaction had already changed,
/// which for a sale is the table's last page and one leaf of each index, so a 100-row statement
/// copies a few hundred pages. One statement over the whole stream copies them once: measured with
/// `sqlite3` on the benchmark's book, 300,000 sales took 1.3 s of CPU in one `INSERT … SELECT`
/// against 2.0–2.8 s in 100-row statements.
///
/// The table is an eponymous virtual table (`commission_sale_feed`), registered on the connection
/// for the one statement and dropped after it, so nothing is left in the schema.
package enum SaleFeed {
    package static let table = "commission_sale_feed"

    /// The columns of the feed: the sale's (``SaleRow/columns``), which the insert fills in that order.
    private static let columns = SaleRow.columns

    /// Inserts the sales `next` returns, in order, until it returns nil. The ids follow that order.
    ///
    /// `next` runs inside SQLite's step, on the writer, and may read the database (a lookup of a name);
    /// it must not write. What it throws ends the statement and is rethrown here.
    /// - Returns: how many sales were inserted.
    package static func insert(_ db: Database, next: () throws -> Sale?) throws -> Int {
        try withoutActuallyEscaping(next) { next in
            let feed = Feed(next: next)
            let connection = db.sqliteConnection
            defer {
                feed.next = nil
                // A NULL module unregisters it; SQLite then releases the feed (the destructor below).
                sqlite3_create_module_v2(connection, table, nil, nil, nil)
            }
            let code = sqlite3_create_module_v2(connection, table, feed.module, Unmanaged.passRetained(feed).toOpaque())
            { context in
                context.map { Unmanaged<Feed>.fromOpaque($0).release() }
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register the sale feed")
            }
            let sql =
                "INSERT INTO sale (\(columns.joined(separator: ", "))) SELECT \(columns.joined(separator: ", ")) FROM \(table)"
            do {
                let statement = try db.makeStatement(sql: sql)
                try statement.execute()
            } catch {
                // The feed's own error, rather than SQLite's "the virtual table failed" that carries it.
                if let failure = feed.failure { throw failure }
                throw error
            }
            if let failure = feed.failure { throw failure }
            return feed.rows
        }
    }

    /// What the virtual table's callbacks reach through their context pointer.
    private final class Feed {
        var next: (() throws -> Sale?)?
        var atEnd = true
        var rows = 0
        var failure: (any Error)?
        var cursorOpen = false
        let module: UnsafeMutablePointer<sqlite3_module>

        /// The current sale as SQLite reads it, column by column (``SaleFeed/columns``): set once
        /// per row, rather than taken apart again for each of its sixteen columns.
        var integers = [Int64?](repeating: nil, count: SaleFeed.columns.count)
        var date = ""
        var basis: StaticString?
        var note: String?

        init(next: @escaping () throws -> Sale?) {
            self.next = next
            module = .allocate(capacity: 1)
            module.initialize(to: SaleFeed.makeModule())
        }

        deinit {
            module.deinitialize(count: 1)
            module.deallocate()
        }

        /// Moves to the next sale; false (and `failure` set) when `next` threw.
        func advance() -> Bool {
            do {
                guard let sale = try next?() else {
                    atEnd = true
                    return true
                }
                atEnd = false
                rows += 1
                set(sale)
                return true
            } catch {
                failure = error
                atEnd = true
                return false
            }
        }

        private func set(_ sale: Sale) {
            integers[0] = sale.clinicID.rawValue
            integers[1] = sale.productID.rawValue
            date = sale.date.description  // "2026-03-02": a small string, no allocation
            integers[3] = sale.line.quantity
            integers[4] = sale.line.unitPrice.minorUnits
            integers[5] = sale.line.unitCost.minorUnits
            integers[6] = sale.line.discount.minorUnits
            integers[7] = sale.termsID?.rawValue
            integers[8] = (sale.line.rate?.share.basisPoints).map(Int64.init)
            basis =
                switch sale.line.rate?.basis {
                case .profit: "profit"
                case .revenue: "revenue"
                case nil: nil
                }
            integers[10] = sale.figures.revenue.minorUnits
            integers[11] = sale.figures.cost.minorUnits
            integers[12] = sale.figures.profit.minorUnits
            integers[13] = sale.figures.exactCommission.tenThousandths
            integers[14] = sale.figures.commission.minorUnits
            note = sale.note
        }

        /// Hands SQLite one column of the current sale, as ``SQLiteStore/bind(_:idempotencyKey:to:)`` binds it.
        func result(_ column: CInt, _ context: OpaquePointer?) {
            switch column {
            case 2:
                text(date, context)
            case 9:
                guard let basis else { return sqlite3_result_null(context) }
                // nil: SQLITE_STATIC, for a string in the binary, which never moves.
                sqlite3_result_text(
                    context,
                    UnsafeRawPointer(basis.utf8Start).assumingMemoryBound(to: CChar.self),
                    CInt(basis.utf8CodeUnitCount),
                    nil
                )
            case 15:
                guard let note else { return sqlite3_result_null(context) }
                text(note, context)
            default:
                if integers.indices.contains(Int(column)), let value = integers[Int(column)] {
                    sqlite3_result_int64(context, value)
                } else {
                    sqlite3_result_null(context)
                }
            }
        }

        private func text(_ value: String, _ context: OpaquePointer?) {
            var value = value
            value.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_result_text(context, "", 0, SaleFeed.transient)
                }
                sqlite3_result_text(
                    context,
                    UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                    CInt(bytes.count),
                    SaleFeed.transient
                )
            }
        }
    }

    /// A virtual table's memory: SQLite's `sqlite3_vtab`, then the feed's context pointer.
    private static let contextOffset = MemoryLayout<sqlite3_vtab>.stride
    private static let vtabSize = contextOffset + MemoryLayout<UnsafeMutableRawPointer>.stride

    private static func feed(of vtab: UnsafeMutablePointer<sqlite3_vtab>) -> Feed {
        let context = UnsafeMutableRawPointer(vtab).load(
            fromByteOffset: contextOffset,
            as: UnsafeMutableRawPointer.self
        )
        return Unmanaged<Feed>.fromOpaque(context).takeUnretainedValue()
    }

    private static func feed(of cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> Feed? {
        guard let vtab = cursor?.pointee.pVtab else { return nil }
        return feed(of: vtab)
    }

    /// The feed of a cursor, for the callbacks SQLite makes for every column of every row: the
    /// feed outlives the statement (SQLite holds it), so no retain and release around the call.
    private static func withFeed<T>(of cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?, _ body: (Feed) -> T) -> T? {
        guard let vtab = cursor?.pointee.pVtab else { return nil }
        let context = UnsafeMutableRawPointer(vtab).load(
            fromByteOffset: contextOffset,
            as: UnsafeMutableRawPointer.self
        )
        return Unmanaged<Feed>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    private static func makeModule() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 0
        // xCreate nil: an eponymous-only table, usable by its module's name and never in the schema.
        module.xConnect = { connection, context, _, _, vtabOut, _ in
            let declared = sqlite3_declare_vtab(
                connection,
                "CREATE TABLE x(\(SaleFeed.columns.joined(separator: ", ")))"
            )
            guard declared == SQLITE_OK, let context, let vtabOut else {
                return declared == SQLITE_OK ? SQLITE_ERROR : declared
            }
            let memory = UnsafeMutableRawPointer.allocate(
                byteCount: SaleFeed.vtabSize,
                alignment: MemoryLayout<sqlite3_vtab>.alignment
            )
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: SaleFeed.vtabSize)
            memory.storeBytes(of: context, toByteOffset: SaleFeed.contextOffset, as: UnsafeMutableRawPointer.self)
            vtabOut.pointee = memory.assumingMemoryBound(to: sqlite3_vtab.self)
            return SQLITE_OK
        }
        module.xBestIndex = { _, info in
            // One plan: every row, in order. SQLite checks any constraint itself.
            info?.pointee.estimatedCost = 1_000_000
            info?.pointee.estimatedRows = 1_000_000
            return SQLITE_OK
        }
        module.xDisconnect = { vtab in
            vtab.map { UnsafeMutableRawPointer($0).deallocate() }
            return SQLITE_OK
        }
        module.xDestroy = module.xDisconnect
        module.xOpen = { vtab, cursorOut in
            guard let vtab, let cursorOut else { return SQLITE_ERROR }
            let feed = SaleFeed.feed(of: vtab)
            // The feed can be read once: a second cursor (a query that joins it) would split its rows.
            guard !feed.cursorOpen else { return SQLITE_ERROR }
            feed.cursorOpen = true
            let cursor = UnsafeMutablePointer<sqlite3_vtab_cursor>.allocate(capacity: 1)
            cursor.initialize(to: sqlite3_vtab_cursor(pVtab: vtab))
            cursorOut.pointee = cursor
            return SQLITE_OK
        }
        module.xClose = { cursor in
            SaleFeed.feed(of: cursor)?.cursorOpen = false
            cursor?.deinitialize(count: 1)
            cursor?.deallocate()
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, _, _, _ in
            guard let feed = SaleFeed.feed(of: cursor) else { return SQLITE_ERROR }
            return feed.advance() ? SQLITE_OK : SQLITE_ERROR
        }
        module.xNext = { cursor in
            guard let feed = SaleFeed.feed(of: cursor) else { return SQLITE_ERROR }
            return feed.advance() ? SQLITE_OK : SQLITE_ERROR
        }
        module.xEof = { cursor in
            SaleFeed.withFeed(of: cursor) { $0.atEnd } ?? true ? 1 : 0
        }
        module.xRowid = { cursor, rowid in
            rowid?.pointee = Int64(SaleFeed.feed(of: cursor)?.rows ?? 0)
            return SQLITE_OK
        }
        module.xColumn = { cursor, context, column in
            SaleFeed.withFeed(of: cursor) { $0.result(column, context) } ?? sqlite3_result_null(context)
            return SQLITE_OK
        }
        return module
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    fileprivate static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}

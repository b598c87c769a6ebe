import GRDB
import GRDBSQLite

/// Runs a prepared statement with values bound through SQLite's C API.
///
/// GRDB's `StatementArguments` box every value; for a statement that runs once per row in bulk (the
/// summary upserts at the end of an import) or once per sale entered, that costs more than SQLite's
/// own work (PERFORMANCE.md: 3.0 s against 1.2 s a million rows). The statement stays a GRDB
/// `Statement`, so GRDB still owns its life and its cache.
struct FastStatement {
    let statement: Statement
    private var index: CInt = 0

    init(_ statement: Statement) {
        self.statement = statement
    }

    /// Binds the values `bind` gives, in order, then steps the statement to its end.
    /// - Throws: `DatabaseError` with SQLite's extended result code and message.
    static func execute(_ statement: Statement, _ bind: (inout FastStatement) -> Void) throws {
        let handle = bound(statement, bind)
        let code = sqlite3_step(handle)
        defer { sqlite3_reset(handle) }
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(statement) }
    }

    /// Binds the values `bind` gives, in order, then steps through the statement's rows, each read
    /// by `read` through SQLite's C API: GRDB's generic decoding instantiates type metadata cell by
    /// cell, which was a fifth of the client's time in a migration of a million sales.
    static func rows<T>(
        _ statement: Statement,
        _ bind: (inout FastStatement) -> Void,
        read: (FastRow) throws -> T
    ) throws -> [T] {
        let handle = bound(statement, bind)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: rows.append(try read(FastRow(handle: handle)))
            case SQLITE_DONE: return rows
            default: throw failure(statement)
            }
        }
    }

    /// The first column of the first row of `statement`, bound with nothing (a pragma, a count,
    /// a one-cell read); nil when it has no row.
    static func int64(_ statement: Statement) throws -> Int64? {
        try rows(statement, { _ in }, read: { $0.int64(0) }).first
    }

    /// `statement` reset, with the values `bind` gives bound in order; its handle.
    private static func bound(_ statement: Statement, _ bind: (inout FastStatement) -> Void) -> OpaquePointer {
        var fast = FastStatement(statement)
        sqlite3_reset(statement.sqliteStatement)
        bind(&fast)
        return statement.sqliteStatement
    }

    /// The error SQLite reports for `statement`, with its extended result code and message.
    private static func failure(_ statement: Statement) -> DatabaseError {
        let connection = sqlite3_db_handle(statement.sqliteStatement)
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)),
            sql: statement.sql
        )
    }

    mutating func bind(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(statement.sqliteStatement, index, value)
    }

    mutating func bind(_ value: Int64?) {
        guard let value else { return bindNull() }
        bind(value)
    }

    mutating func bind(_ value: Int) { bind(Int64(value)) }

    mutating func bind(_ value: String?) {
        guard var value else { return bindNull() }
        index += 1
        let index = self.index, handle = statement.sqliteStatement
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = sqlite3_bind_text(handle, index, "", 0, Self.transient)
                return
            }
            _ = sqlite3_bind_text(
                handle,
                index,
                UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                CInt(bytes.count),
                Self.transient
            )
        }
    }

    mutating func bindNull() {
        index += 1
        sqlite3_bind_null(statement.sqliteStatement, index)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes before `bind` returns.
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}

/// The current row of a statement ``FastStatement/rows(_:_:read:)`` steps through, read through
/// SQLite's C API (valid only while `read` runs).
struct FastRow: SaleCells {
    let handle: OpaquePointer

    func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, CInt(index)) }

    func optionalInt64(_ index: Int) -> Int64? {
        sqlite3_column_type(handle, CInt(index)) == SQLITE_NULL ? nil : int64(index)
    }

    func text(_ index: Int) -> String { optionalText(index) ?? "" }

    func optionalText(_ index: Int) -> String? {
        guard let bytes = sqlite3_column_text(handle, CInt(index)) else { return nil }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, CInt(index)))),
            as: UTF8.self
        )
    }
}

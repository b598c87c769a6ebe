import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    /// Copies the whole book to a new database file with SQLite's online backup: writes may go on
    /// meanwhile, and the copy is a consistent snapshot. The copy is written beside `path` and
    /// renamed into place, so a failed backup never leaves a half-written file.
    ///
    /// - Throws: `StoreError/invalid(field:reason:)` when `path` exists and `replacing` is false.
    public func backup(to path: String, replacing: Bool = false) async throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path) && !replacing {
            throw StoreError.invalid(
                field: "backup path",
                reason: "\(path) already exists; pass --force to replace it."
            )
        }
        // try?: the folder, when missing; if it cannot be made, opening the copy below throws
        try? fileManager.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        // try?: a partial copy an earlier process of this pid may have left; the backup overwrites it
        try? fileManager.removeItem(atPath: temporary)
        do {
            let destination = try DatabaseQueue(path: temporary)
            try writer.backup(to: destination)
            try destination.close()
            if fileManager.fileExists(atPath: path) { try fileManager.removeItem(atPath: path) }
            try fileManager.moveItem(atPath: temporary, toPath: path)
        } catch let error as DatabaseError {
            // try?: the partial copy, on the way out with the backup's error, which is thrown
            try? fileManager.removeItem(atPath: temporary)
            throw Self.storeError(error)
        } catch {
            // try?: the partial copy, on the way out with the backup's error, which is thrown
            try? fileManager.removeItem(atPath: temporary)
            throw StoreError.storage("could not write the backup to \(path): \(error.localizedDescription)")
        }
    }

    /// Replaces this store's whole content with the book in `source`, a file made by ``backup(to:replacing:)``.
    ///
    /// The source is checked first (a readable SQLite file with SQLite's integrity check passing and a
    /// Commission schema no newer than this program's); nothing changes when it fails. Migrations run
    /// on the restored book, and every observer is told that everything changed.
    public func restore(from source: String) async throws {
        let origin = try Self.checkedBackup(at: source)
        do {
            let liveRevision = try await writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT revision FROM book") ?? 0
            }
            try await saleContexts.replacing {
                try origin.backup(to: writer)
                try Schema.migrator.migrate(writer)
                // Other processes on this file (a server while the CLI restores) learn of it by a revision above the one they know.
                // …and a device's sync by a new epoch (`BookChanges`).
                try await writer.write { db in
                    try db.execute(
                        sql: "UPDATE book SET revision = ?, epoch = ?",
                        arguments: [liveRevision + 1, Self.newEpoch()]
                    )
                }
            }
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
        caches.withLock { $0.clear() }  // other settings, other accounts and tokens
        broadcaster.send(Set(StoreTable.allCases))
    }

    /// The backup file at `source`, opened read-only once it is known to be a sound Commission book:
    /// a readable SQLite file whose integrity check passes, with a schema no newer than this program's.
    static func checkedBackup(at source: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: source) else {
            throw StoreError.invalid(field: "backup file", reason: "\(source) does not exist.")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let origin = try DatabaseQueue(path: source, configuration: configuration)
            let (integrity, isCommission, applied) = try origin.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                    try db.tableExists("book") && db.tableExists("sale"),
                    try Schema.migrator.appliedIdentifiers(db)
                )
            }
            guard integrity == "ok" else {
                throw StoreError.invalid(
                    field: "backup file",
                    reason: "\(source) fails SQLite's integrity check (\(integrity ?? "no answer"))."
                )
            }
            guard isCommission else {
                throw StoreError.invalid(
                    field: "backup file",
                    reason: "\(source) is an SQLite database but not a Commission book."
                )
            }
            let known = Set(Schema.migrator.migrations)
            guard applied.allSatisfy(known.contains) else {
                throw StoreError.invalid(
                    field: "backup file",
                    reason: "\(source) was written by a newer Commission; upgrade first."
                )
            }
            return origin
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB {
                throw StoreError.invalid(field: "backup file", reason: "\(source) is not an SQLite database.")
            }
            throw Self.storeError(error)
        }
    }
}

extension SQLiteStore: BookRestoring {
    /// A book file holds its accounts: a restore brings the backup's, and everyone signs in again.
    public var restoreReplacesAccounts: Bool { true }

    /// What the backup at `path` (an SQLite backup or a book archive) holds, checked whole: an
    /// archive is read to its end line, an SQLite file passes its integrity check. Nothing changes.
    public func inspectBackup(at path: String) async throws -> ArchiveCounts {
        if ArchiveFile.isArchive(atPath: path) { return try await ArchiveFile.inspect(path) }
        let origin = try Self.checkedBackup(at: path)
        // try?: closing a backup that was only read
        defer { try? origin.close() }
        return try await Self.counts(origin)
    }

    /// Replaces the whole book with the backup at `path` (either kind).
    public func restoreBackup(at path: String) async throws -> ArchiveCounts {
        if ArchiveFile.isArchive(atPath: path) {
            return try await restoreArchive { sink in try await ArchiveFile.read(path, into: sink) }
        }
        try await restore(from: path)
        return try await Self.counts(writer)
    }

    /// How many of each kind a book holds, counted.
    static func counts(_ reader: any DatabaseReader) async throws -> ArchiveCounts {
        do {
            return try await reader.read { db in
                func count(_ table: String) throws -> Int {
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
                }
                var counts = ArchiveCounts()
                counts.clinics = try count("clinic")
                counts.products = try count("product")
                counts.terms = try count("terms")
                counts.sales = try count("sale")
                counts.payouts = try count("payout")
                counts.closedPeriods = try count("closedPeriod")
                counts.auditEntries = try db.tableExists("auditEntry") ? count("auditEntry") : 0
                counts.accounts = try count("account")
                counts.tokens = try count("apiToken")
                return counts
            }
        } catch let error as DatabaseError {
            throw storeError(error)
        }
    }
}

extension SQLiteStore: BookBackup {}

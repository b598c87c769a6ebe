import CommissionStore
import Foundation
import GRDB

extension SQLiteStore {
    /// Copies the whole book to a new database file with SQLite's online backup: writes may go on
    /// meanwhile, and the copy is a consistent snapshot. The copy is written beside `path` and
    /// renamed into place, so a failed backup never leaves a half-written file.
    ///
    /// - Throws: ``StoreError/invalid(field:reason:)`` when `path` exists and `replacing` is false.
    public func backup(to path: String, replacing: Bool = false) async throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path) && !replacing {
            throw StoreError.invalid(field: "backup path", reason: "\(path) already exists; pass --force to replace it.")
        }
        try? fileManager.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? fileManager.removeItem(atPath: temporary)
        do {
            let destination = try DatabaseQueue(path: temporary)
            try writer.backup(to: destination)
            try destination.close()
            if fileManager.fileExists(atPath: path) { try fileManager.removeItem(atPath: path) }
            try fileManager.moveItem(atPath: temporary, toPath: path)
        } catch let error as DatabaseError {
            try? fileManager.removeItem(atPath: temporary)
            throw Self.storeError(error)
        } catch {
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
        guard FileManager.default.fileExists(atPath: source) else {
            throw StoreError.invalid(field: "backup file", reason: "\(source) does not exist.")
        }
        let origin: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.readonly = true
            origin = try DatabaseQueue(path: source, configuration: configuration)
            let (integrity, isCommission, applied) = try await origin.read { db in
                (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                 try db.tableExists("book") && db.tableExists("sale"),
                 try Schema.migrator.appliedIdentifiers(db))
            }
            guard integrity == "ok" else {
                throw StoreError.invalid(field: "backup file", reason: "\(source) fails SQLite's integrity check (\(integrity ?? "no answer")).")
            }
            guard isCommission else {
                throw StoreError.invalid(field: "backup file", reason: "\(source) is an SQLite database but not a Commission book.")
            }
            let known = Set(Schema.migrator.migrations)
            guard applied.allSatisfy(known.contains) else {
                throw StoreError.invalid(field: "backup file", reason: "\(source) was written by a newer Commission; upgrade first.")
            }
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB {
                throw StoreError.invalid(field: "backup file", reason: "\(source) is not an SQLite database.")
            }
            throw Self.storeError(error)
        }
        do {
            let liveRevision = try await writer.read { db in try Int64.fetchOne(db, sql: "SELECT revision FROM book") ?? 0 }
            try origin.backup(to: writer)
            try Schema.migrator.migrate(writer)
            // Other processes on this file (a server while the CLI restores) learn of it by a revision above the one they know.
            try await writer.write { db in try db.execute(sql: "UPDATE book SET revision = ?", arguments: [liveRevision + 1]) }
        } catch let error as DatabaseError {
            throw Self.storeError(error)
        }
        caches.withLock { $0.clear() }  // other settings, other accounts and tokens
        broadcaster.send(Set(StoreTable.allCases))
    }
}
extension SQLiteStore: BookBackup {}

import Foundation

/// Backups on a schedule (`serve --backup-every 24h --keep 14`): every round writes each book's
/// archive (``ArchiveFile``, which any store restores) to `DIRECTORY/FOLDER/FOLDER-YYYYMMDD-HHMMSS.jsonl`,
/// written beside and renamed into place, then removes that book's oldest archives beyond `keep`.
/// A round that fails for a book is said and tried again at the next; the others go on.
public struct ScheduledBackups: Sendable {
    /// A book to back up: the folder its archives go to, and the book.
    public struct Book: Sendable {
        public var folder: String
        public var source: any BookArchiving
        public init(folder: String, source: any BookArchiving) {
            self.folder = folder
            self.source = source
        }
    }

    public let directory: String
    public let every: Duration
    public let keep: Int
    /// The books, found anew at each round (a team server gains books).
    let books: @Sendable () async throws -> [Book]
    /// Told of each round: when it ended, and the problems it met (empty when every book was written).
    let report: @Sendable (_ at: Date, _ problems: [String]) -> Void

    public init(
        directory: String,
        every: Duration,
        keep: Int,
        books: @escaping @Sendable () async throws -> [Book],
        report: @escaping @Sendable (_ at: Date, _ problems: [String]) -> Void = { _, _ in }
    ) {
        self.directory = directory
        self.every = every
        self.keep = max(1, keep)
        self.books = books
        self.report = report
    }

    /// One round: every book archived, then each book's oldest archives beyond `keep` removed.
    /// Returns the archives written.
    @discardableResult
    public func backUpOnce(now: Date = Date()) async -> [String] {
        var written: [String] = [], problems: [String] = []
        let stamp = Self.stamp(now)
        do {
            for book in try await books() {
                let folder = URL(fileURLWithPath: directory).appendingPathComponent(book.folder)
                let path = folder.appendingPathComponent("\(book.folder)-\(stamp).jsonl").path
                do {
                    try await ArchiveFile.write(book.source, to: path, replacing: true, now: now)
                    written.append(path)
                    try prune(folder: folder, prefix: book.folder + "-")
                } catch {
                    problems.append("\(book.folder): \(error)")
                }
            }
        } catch {
            problems.append("the books could not be listed: \(error)")
        }
        report(Date(), problems)
        return written
    }

    /// Rounds every `every` until the task is cancelled (the server stops).
    public func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: every) } catch { return }
            await backUpOnce()
        }
    }

    /// Removes the oldest archives of a folder beyond `keep` (their names sort by time).
    func prune(folder: URL, prefix: String) throws {
        let archives = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".jsonl") }.sorted()
        for name in archives.dropLast(keep) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// `20261124-093000`: UTC, sortable.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// A period as `serve --backup-every` takes it: `24h`, `30m`, `90s`, `7d`.
    public static func period(_ text: String) -> Duration? {
        guard let unit = text.last, let count = Int(text.dropLast()), count > 0, count <= 10_000 else { return nil }
        switch unit {
        case "s": return .seconds(count)
        case "m": return .seconds(count * 60)
        case "h": return .seconds(count * 3600)
        case "d": return .seconds(count * 86_400)
        default: return nil
        }
    }
}

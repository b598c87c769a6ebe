import CommissionClient
import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import OpenAPIAsyncHTTPClient

/// Local-first sync: a device takes a server's book (its first sync), records 10,000 sales offline,
/// and syncs them — beside the same sales recorded on the device (what the sync has to send). And
/// on a bigger book, the everyday sync: one sale on the device, one on the server, and what the
/// sync moves and takes beside taking the whole book.
struct SyncBench {
    /// The server's book, copied: the sync writes to it.
    let path: String
    let offlineSales: Int

    /// A copy of the book at `path` served, and an empty book on a device with its sync: what each
    /// run works on, removed when it ends.
    struct Setting {
        let work: URL
        let book: SQLiteStore
        let server: BenchServer
        let remote: HTTPStore
        let device: SQLiteStore
        let sync: BookSync

        init(copying path: String) async throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent(
                "commission-sync-bench-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let serverPath = work.appendingPathComponent("server.sqlite").path
            try await SQLiteStore(.file(path)).backup(to: serverPath, replacing: false)
            book = try SQLiteStore(.file(serverPath))
            server = try await BenchServer(store: book)
            remote = HTTPStore(
                url: URL(string: server.base)!,
                token: server.secret,
                transport: AsyncHTTPClientTransport()
            )
            let devicePath = work.appendingPathComponent("device.sqlite").path
            device = try SQLiteStore(.file(devicePath))
            sync = BookSync(local: device, remote: remote, statePath: devicePath + ".sync.json")
        }

        func end() {
            server.stop()
            // try?: the bench's temporary work directory; the OS cleans its temporary directory
            try? FileManager.default.removeItem(at: work)
        }
    }

    func run(report: inout Report) async throws {
        let setting = try await Setting(copying: path)
        defer { setting.end() }
        let (book, device, sync) = (setting.book, setting.device, setting.sync)
        let sales = try await book.countSales(SaleQuery(includeVoided: true))
        let first = ContinuousClock.now
        try await sync.sync()
        report.add(
            "sync: the first, taking a \(sales)-sale book",
            measured: (ContinuousClock.now - first).seconds * 1000,
            unit: "ms",
            baseline: nil,
            baselineName: nil,
            target: nil,
            met: nil
        )

        let clinics = try await device.clinics(ClinicQuery()), products = try await device.products(ProductQuery())
        let today = try await device.settings().today()
        let recording = ContinuousClock.now
        for index in 0..<offlineSales {
            _ = try await device.createSale(
                SaleDraft(
                    clinicID: clinics[index % clinics.count].id,
                    productID: products[index % products.count].id,
                    date: today.adding(days: -(index % 60)),
                    noCommission: true,
                    note: "offline \(index)"
                ),
                idempotencyKey: nil
            )
        }
        let recorded = (ContinuousClock.now - recording).seconds
        let pushing = ContinuousClock.now
        let pushed = try await sync.sync()
        let synced = (ContinuousClock.now - pushing).seconds
        guard pushed.refused.isEmpty, try await book.countSales(SaleQuery(includeVoided: true)) == sales + offlineSales
        else {
            throw StoreError.storage(
                "the sync benchmark's sales did not all reach the server: \(pushed.refused.prefix(3))"
            )
        }
        report.add(
            "sync of \(offlineSales) offline sales (sent, then the server's changes taken)",
            measured: synced * 1000,
            unit: "ms",
            baseline: recorded * 1000,
            baselineName: "recording them on the device",
            target: nil,
            met: nil
        )
    }

    /// A device holding the book syncs after one sale recorded on it and one on the server: the
    /// bytes of the server's changes and the time, beside the whole book (its archive's bytes, and
    /// the device's first sync, which takes it).
    static func everyday(path: String, report: inout Report) async throws {
        let setting = try await Setting(copying: path)
        defer { setting.end() }
        let (book, remote, device, sync) = (setting.book, setting.remote, setting.device, setting.sync)
        let archivePath = setting.work.appendingPathComponent("book.jsonl").path
        try await remote.downloadArchive(to: archivePath)
        let archiveBytes = try FileManager.default.attributesOfItem(atPath: archivePath)[.size] as? Int ?? 0
        let sales = try await book.countSales(SaleQuery(includeVoided: true))
        let first = ContinuousClock.now
        try await sync.sync()
        let whole = (ContinuousClock.now - first).seconds * 1000

        let clinic = try await device.clinics(ClinicQuery()).first!,
            product = try await device.products(ProductQuery()).first!
        let today = try await device.settings().today()
        var times: [Double] = [], bytes: [Int] = []
        for round in 0..<5 {
            _ = try await device.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: today, note: "device \(round)"),
                idempotencyKey: nil
            )
            _ = try await book.createSale(
                SaleDraft(clinicID: clinic.id, productID: product.id, date: today, note: "server \(round)"),
                idempotencyKey: nil
            )
            let before = remote.changesBytes
            let start = ContinuousClock.now
            let synced = try await sync.sync()
            times.append((ContinuousClock.now - start).seconds * 1000)
            bytes.append(remote.changesBytes - before)
            guard synced.pushed == 1, synced.pulled, !synced.tookWholeBook else {
                throw StoreError.storage(
                    "the everyday sync did not push one sale and take the server's changes: \(synced)"
                )
            }
        }
        guard try await device.countSales(SaleQuery(includeVoided: true)) == sales + 10 else {
            throw StoreError.storage("the device's book does not hold the server's sales after the everyday syncs")
        }
        let time = times.sorted()[times.count / 2], moved = bytes.sorted()[bytes.count / 2]
        report.add(
            "sync after one sale on each side, \(sales)-sale book: bytes taken",
            measured: Double(moved),
            unit: "B",
            baseline: Double(archiveBytes),
            baselineName: "the whole book's archive",
            target: "≤ 1/1000",
            met: moved * 1000 <= archiveBytes
        )
        report.add(
            "sync after one sale on each side, \(sales)-sale book: time (p50 of 5)",
            measured: time,
            unit: "ms",
            baseline: whole,
            baselineName: "the first sync, taking the whole book",
            target: "≤ 200 ms",
            met: time <= 200
        )
    }
}

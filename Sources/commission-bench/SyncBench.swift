import CommissionClient
import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import OpenAPIAsyncHTTPClient

/// Local-first sync: a device takes a server's book (its first sync), records 10,000 sales offline,
/// and syncs them — beside the same sales recorded on the device (what the sync has to send).
struct SyncBench {
    /// The server's book, copied: the sync writes to it.
    let path: String
    let offlineSales: Int

    func run(report: inout Report) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("commission-sync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let serverPath = work.appendingPathComponent("server.sqlite").path
        try await SQLiteStore(.file(path)).backup(to: serverPath, replacing: false)
        let book = try SQLiteStore(.file(serverPath))
        let server = try await BenchServer(store: book)
        defer { server.stop() }
        let (base, secret) = (server.base, server.secret)

        let devicePath = work.appendingPathComponent("device.sqlite").path
        let device = try SQLiteStore(.file(devicePath))
        let sync = BookSync(local: device, remote: HTTPStore(url: URL(string: base)!, token: secret, transport: AsyncHTTPClientTransport()),
                            statePath: devicePath + ".sync.json")
        let sales = try await book.countSales(SaleQuery(includeVoided: true))
        let first = ContinuousClock.now
        try await sync.sync()
        report.add("sync: the first, taking a \(sales)-sale book", measured: (ContinuousClock.now - first).seconds * 1000, unit: "ms",
                   baseline: nil, baselineName: nil, target: nil, met: nil)

        let clinics = try await device.clinics(ClinicQuery()), products = try await device.products(ProductQuery())
        let today = try await device.settings().today()
        let recording = ContinuousClock.now
        for index in 0..<offlineSales {
            _ = try await device.createSale(SaleDraft(clinicID: clinics[index % clinics.count].id, productID: products[index % products.count].id,
                                                      date: today.adding(days: -(index % 60)), noCommission: true, note: "offline \(index)"),
                                            idempotencyKey: nil)
        }
        let recorded = (ContinuousClock.now - recording).seconds
        let pushing = ContinuousClock.now
        let pushed = try await sync.sync()
        let synced = (ContinuousClock.now - pushing).seconds
        guard pushed.refused.isEmpty, try await book.countSales(SaleQuery(includeVoided: true)) == sales + offlineSales else {
            throw StoreError.storage("the sync benchmark's sales did not all reach the server: \(pushed.refused.prefix(3))")
        }
        report.add("sync of \(offlineSales) offline sales (sent, then the book taken back)", measured: synced * 1000, unit: "ms",
                   baseline: recorded * 1000, baselineName: "recording them on the device", target: nil, met: nil)
    }
}

import CommissionClient
import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import OpenAPIAsyncHTTPClient
import Testing

/// What only the remote store has to show (the conformance suite runs on it as on every store):
/// changes made elsewhere reach its live queries, the server's refusals come back as the same
/// errors, and a server that does not answer says so.
@Suite struct HTTPStoreTests {
    /// The total of sales recorded, whatever their clinic.
    struct SaleCount: StoreRequest {
        var tables: Set<StoreTable> { [.sales] }
        func fetch(from store: any CommissionStore) async throws -> Int { try await store.countSales(SaleQuery()) }
    }

    @Test func aSaleRecordedOnTheServerReachesTheAppsLiveQuery() async throws {
        let server = try await LiveServer.start(settings: .test)
        let glow = try await server.store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await server.store.createProduct(ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000)))
        let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
        let store = server.store
        let sawTheSale = Task {
            for try await count in store.observe(SaleCount()) {
                if count == 0 { readySignal.yield() }
                if count == 1 { return true }
            }
            return false
        }
        for await _ in ready { break }
        // Recorded in the server's book directly — as the web app, the CLI or another device would.
        _ = try await server.book.createSale(SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-02"), noCommission: true),
                                             idempotencyKey: nil)
        let saw = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await sawTheSale.value }
            group.addTask { try await Task.sleep(for: .seconds(10)); return false }
            let first = try await group.next() ?? false
            group.cancelAll()
            sawTheSale.cancel()
            return first
        }
        #expect(saw, "the change stream did not bring the server's sale within 10 s")
    }

    @Test func theServersRefusalsAreTheSameErrorsALocalStoreThrows() async throws {
        let server = try await LiveServer.start(settings: .test)
        let remote = server.store
        let glow = try await remote.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await remote.createProduct(ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000)))
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        try await remote.closePeriod(clinic: glow.id, period: march)
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: march)) {
            _ = try await remote.createSale(SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-02"), noCommission: true),
                                            idempotencyKey: nil)
        }
        await #expect(throws: StoreError.duplicateName(.clinics, "glow")) { _ = try await remote.createClinic(ClinicDraft(name: "glow", schedule: .monthly)) }
        await #expect(throws: StoreError.notFound(.sales, id: 999)) { _ = try await remote.sale(Sale.ID(999)) }
        await #expect(throws: StoreError.unknownClinic("Nowhere")) { _ = try await remote.clinic(named: "Nowhere") }
        let notAPeriod = PayPeriod(start: day("2026-03-05"), end: day("2026-03-20"))
        await #expect(throws: StoreError.notAPeriod(clinic: "Glow", period: notAPeriod, schedule: .monthly)) {
            try await remote.closePeriod(clinic: glow.id, period: notAPeriod)
        }
        // A batch refused by its second write records nothing of the first.
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: march)) {
            _ = try await remote.transaction { tx in
                tx.createClinic(ClinicDraft(name: "Harbor", schedule: .monthly))
                tx.createSale(SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-03"), noCommission: true), idempotencyKey: nil)
            }
        }
        #expect(try await remote.clinics(ClinicQuery()).map(\.name) == ["Glow"])
    }

    @Test func aServerThatDoesNotAnswerIsUnreachableNotARefusal() async throws {
        // A port nothing answers on (here a connection to it is refused or never completes: 2 s then).
        let remote = HTTPStore(url: URL(string: "http://127.0.0.1:9")!, token: "cm_none",
                               transport: AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(2))))
        do {
            _ = try await remote.clinics(ClinicQuery())
            Issue.record("a server that is not there answered")
        } catch let error as RemoteStoreError {
            guard case .unreachable = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("cannot be reached"))
        }
    }

    @Test func aTokenTheServerDoesNotKnowIsRefusedWithItsSentence() async throws {
        let server = try await LiveServer.start(settings: .test)
        let stranger = HTTPStore(url: server.url, token: "cm_unknown", transport: AsyncHTTPClientTransport())
        do {
            _ = try await stranger.clinics(ClinicQuery())
            Issue.record("an unknown token was let in")
        } catch let error as RemoteStoreError {
            guard case .refused(let status, _) = error else { Issue.record("\(error)"); return }
            #expect(status == 401)
        }
    }
}

import CommissionClient
import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import Synchronization
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

    @Test(.hangLimit) func aSaleRecordedOnTheServerReachesTheAppsLiveQuery() async throws {
        let server = try await LiveServer.start(settings: .test)
        let glow = try await server.store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await server.store.createProduct(
            ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))
        )
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
        _ = try await server.book.createSale(
            SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-02"), noCommission: true),
            idempotencyKey: nil
        )
        // However long a busy machine takes: the time limit ends (cancels) a stream open and silent.
        let saw = try await withTaskCancellationHandler {
            try await sawTheSale.value
        } onCancel: {
            sawTheSale.cancel()
        }
        #expect(saw, "the change stream ended without bringing the server's sale")
    }

    @Test("The server's refusals are the same errors a local store throws") func serverRefusals() async throws {
        let server = try await LiveServer.start(settings: .test)
        let remote = server.store
        let glow = try await remote.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await remote.createProduct(
            ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))
        )
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        try await remote.closePeriod(clinic: glow.id, period: march)
        await #expect(throws: StoreError.periodClosed(clinic: "Glow", period: march)) {
            _ = try await remote.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-02"), noCommission: true),
                idempotencyKey: nil
            )
        }
        await #expect(throws: StoreError.duplicateName(.clinics, "glow")) {
            _ = try await remote.createClinic(ClinicDraft(name: "glow", schedule: .monthly))
        }
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
                tx.createSale(
                    SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-03"), noCommission: true),
                    idempotencyKey: nil
                )
            }
        }
        #expect(try await remote.clinics(ClinicQuery()).map(\.name) == ["Glow"])
    }

    @Test func aServerThatDoesNotAnswerIsUnreachableNotARefusal() async throws {
        // A port nothing answers on (here a connection to it is refused or never completes: 2 s then).
        let remote = HTTPStore(
            url: URL(string: "http://127.0.0.1:9")!,
            token: "cm_none",
            transport: AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(2)))
        )
        do {
            _ = try await remote.clinics(ClinicQuery())
            Issue.record("a server that is not there answered")
        } catch let error as RemoteStoreError {
            guard case .unreachable = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.description.contains("cannot be reached"))
        }
    }

    /// A server of another release: it answers every request with JSON of a shape this client
    /// does not know, saying its release (or, as servers before 2026.12.03, none).
    struct OtherRelease: ClientTransport {
        let release: String?
        func send(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var response = HTTPResponse(status: .ok)
            response.headerFields[.contentType] = "application/json"
            if let release { response.headerFields[HTTPField.Name("Commission-Release")!] = "\(release) (0123abcd)" }
            return (response, HTTPBody(#"{"shape":"of another release"}"#))
        }
    }

    /// An answer the app cannot read from a server of another release says, in one sentence,
    /// which of the two is older and what to upgrade, instead of a decoding error.
    @Test func aServerOfAnotherReleaseIsSaidSo() async throws {
        func refusal(_ release: String?) async throws -> RemoteStoreError {
            let store = HTTPStore(
                url: URL(string: "https://books.example")!,
                token: "cm_x",
                transport: OtherRelease(release: release)
            )
            do {
                _ = try await store.settings()
            } catch let error as RemoteStoreError {
                return error
            }
            throw RemoteStoreError.unsupported("the answer was read")
        }
        let newer = try await refusal("2099.01.01")
        #expect(
            newer.description.contains(
                "The server runs Commission 2099.01.01, newer than this app's \(CommissionRelease.version)"
            )
        )
        #expect(newer.description.contains("update the app"), "\(newer)")
        let older = try await refusal(nil)
        #expect(
            older.description.contains(
                "does not say its release — a Commission before 2026.12.03, older than this app's"
            ),
            "\(older)"
        )
        #expect(older.description.contains("upgrade the server"))
        // The same release answering what it cannot read is not a question of releases.
        guard case .unexpectedAnswer = try await refusal(CommissionRelease.version) else {
            Issue.record("the same release said as another")
            return
        }
    }

    @Test func aTokenTheServerDoesNotKnowIsRefusedWithItsSentence() async throws {
        let server = try await LiveServer.start(settings: .test)
        let stranger = HTTPStore(url: server.url, token: "cm_unknown", transport: AsyncHTTPClientTransport())
        do {
            _ = try await stranger.clinics(ClinicQuery())
            Issue.record("an unknown token was let in")
        } catch let error as RemoteStoreError {
            guard case .refused(let status, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(status == 401)
        }
    }

    /// Loses the answer to the first try of every write, after the server made it: what a phone
    /// sees when the connection drops between sending and hearing back.
    final class LosesFirstAnswers: ClientTransport, Sendable {
        let inner = AsyncHTTPClientTransport()
        let lost = Mutex(0)
        let seen = Mutex<Set<String>>([])
        struct Lost: Error {}
        func send(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String
        ) async throws -> (HTTPResponse, HTTPBody?) {
            let answer = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
            guard request.method != .get, let key = request.headerFields[HTTPField.Name("Idempotency-Key")!] else {
                return answer
            }
            guard seen.withLock({ $0.insert(key).inserted }) else { return answer }
            lost.withLock { $0 += 1 }
            throw Lost()
        }
    }

    /// Every write goes with an idempotency key and is sent again when its answer is lost: the
    /// server makes it once and answers the retry with the first answer — for clinics, products,
    /// terms, prices, deductions, payouts, periods, changes and removals alike.
    @Test func aWriteWhoseAnswerWasLostIsSentAgainAndMadeOnce() async throws {
        let server = try await LiveServer.start(settings: .test)
        let transport = LosesFirstAnswers()
        let store = HTTPStore(url: server.url, token: server.token, transport: transport)
        let glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let serum = try await store.createProduct(
            ProductDraft(name: "Serum", unitPrice: cents(5000), unitCost: cents(2000))
        )
        _ = try await store.createTerms(
            TermsDraft(clinicID: glow.id, share: share("40%"), effectiveFrom: day("2026-01-01"))
        )
        _ = try await store.setPrice(
            PriceDraft(clinicID: glow.id, productID: serum.id, unitPrice: cents(5500), effectiveFrom: day("2026-02-01"))
        )
        _ = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: glow.id,
                name: "Room rent",
                amount: .fixed(cents(1000)),
                effectiveFrom: day("2026-01-01")
            )
        )
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        let payout = try await store.createPayout(
            PayoutDraft(clinicID: glow.id, period: march, amount: cents(1200), receivedOn: day("2026-04-05"))
        )
        var renamed = glow
        renamed.name = "Glow Aesthetics"
        #expect(try await store.updateClinic(renamed).name == "Glow Aesthetics")
        try await store.deletePayout(payout.id)
        try await store.closePeriod(clinic: glow.id, period: march)
        let sale = try await store.createSale(
            SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-02-02")),
            idempotencyKey: nil
        )
        _ = try await store.voidSale(sale.id)

        #expect(transport.lost.withLock { $0 } == 11, "every write lost its first answer")
        let book = server.book
        #expect(try await book.clinics(ClinicQuery()).map(\.name) == ["Glow Aesthetics"])
        #expect(try await book.products(ProductQuery()).count == 1)
        #expect(try await book.terms(TermsQuery()).count == 1)
        #expect(try await book.prices(PriceQuery()).count == 1)
        #expect(try await book.deductions(clinic: nil).count == 1)
        #expect(try await book.payouts(PayoutQuery()).isEmpty)
        await #expect(throws: StoreError.periodClosed(clinic: "Glow Aesthetics", period: march)) {
            _ = try await book.createSale(
                SaleDraft(clinicID: glow.id, productID: serum.id, date: day("2026-03-02")),
                idempotencyKey: nil
            )
        }
        #expect(try await book.countSales(SaleQuery(includeVoided: true)) == 1)
        #expect(try await book.sale(sale.id).isVoided)
    }

    /// Without retries, the lost answer is the caller's: it is told the server cannot be reached,
    /// and sending the write again under the key it chose (`HTTPStore.idempotencyKey`) makes it once.
    @Test func aCallerSendsAWriteAgainUnderItsOwnKey() async throws {
        let server = try await LiveServer.start(settings: .test)
        let store = HTTPStore(url: server.url, token: server.token, transport: LosesFirstAnswers(), retries: 0)
        let glow = try await server.book.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let march = PayPeriod(start: day("2026-03-01"), end: day("2026-03-31"))
        let draft = PayoutDraft(clinicID: glow.id, period: march, amount: cents(1200), receivedOn: day("2026-04-05"))
        await #expect(throws: RemoteStoreError.self) {
            try await HTTPStore.$idempotencyKey.withValue("outbox-1") { _ = try await store.createPayout(draft) }
        }
        let again = try await HTTPStore.$idempotencyKey.withValue("outbox-1") { try await store.createPayout(draft) }
        #expect(try await server.book.payouts(PayoutQuery()).map(\.id) == [again.id])
        // The same key for another change is refused, not answered with the first one's answer.
        await #expect(throws: RemoteStoreError.self) {
            try await HTTPStore.$idempotencyKey.withValue("outbox-1") {
                _ = try await store.createPayout(
                    PayoutDraft(clinicID: glow.id, period: march, amount: cents(99), receivedOn: day("2026-04-06"))
                )
            }
        }
        #expect(try await server.book.payouts(PayoutQuery()).count == 1)
    }
}

import CommissionCore
import CommissionPostgres
import CommissionStore
import Foundation
import Testing

/// A request's idempotency key is spent by the transaction of its write, on every store a server
/// keeps a book in: a second write under the key — a retry that raced the first — writes nothing,
/// and a write that is refused spends nothing.
@Suite struct IdempotencyTests {
    typealias KeyedBook = any CommissionStore & IdempotencyStore

    func makeBook(_ kind: StoreKind) async throws -> KeyedBook {
        try #require(try await kind.makeStore() as? KeyedBook)
    }

    @Test(arguments: StoreKind.local)
    func aKeyIsSpentByTheWriteThatCommitsIt(_ kind: StoreKind) async throws {
        let store = try await makeBook(kind)
        let first = IdempotencyClaim(key: "k-1", fingerprint: "POST /clinics {Glow}")
        let glow = try await IdempotencyClaim.$current.withValue(first) {
            try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        }
        #expect(first.isCommitted)
        #expect(
            try await store.idempotentAnswer(for: "k-1")
                == IdempotentAnswer(fingerprint: "POST /clinics {Glow}", status: nil, contentType: nil, body: [])
        )

        // A racing retry under the same key writes nothing, even a different write.
        let racer = IdempotencyClaim(key: "k-1", fingerprint: "POST /clinics {Glow}")
        await #expect(throws: IdempotencyKeyInUse(key: "k-1")) {
            try await IdempotencyClaim.$current.withValue(racer) {
                _ = try await store.createProduct(ProductDraft(name: "Serum", unitPrice: cents(100), unitCost: .zero))
            }
        }
        #expect(!racer.isCommitted)
        #expect(try await store.products(ProductQuery()).isEmpty)

        // The answer is kept for its request only; a later write of the same task does not spend a key again.
        let answer = IdempotentAnswer(
            fingerprint: "POST /clinics {Glow}",
            status: 201,
            contentType: "application/json",
            body: Array("{\"id\":\(glow.id)}".utf8)
        )
        try await store.keepIdempotentAnswer(answer, for: "k-1")
        try await store.keepIdempotentAnswer(
            IdempotentAnswer(fingerprint: "another", status: 200, contentType: nil, body: [1]),
            for: "k-1"
        )
        #expect(try await store.idempotentAnswer(for: "k-1") == answer)
        try await IdempotencyClaim.$current.withValue(first) {
            _ = try await store.createProduct(ProductDraft(name: "Serum", unitPrice: cents(100), unitCost: .zero))
        }
        #expect(try await store.products(ProductQuery()).count == 1)
    }

    @Test(arguments: StoreKind.local)
    func aRefusedWriteSpendsNoKey(_ kind: StoreKind) async throws {
        let store = try await makeBook(kind)
        _ = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        let refused = IdempotencyClaim(key: "k-2", fingerprint: "f")
        await #expect(throws: StoreError.duplicateName(.clinics, "glow")) {
            try await IdempotencyClaim.$current.withValue(refused) {
                _ = try await store.createClinic(ClinicDraft(name: "glow", schedule: .monthly))
            }
        }
        #expect(!refused.isCommitted)
        #expect(try await store.idempotentAnswer(for: "k-2") == nil)
        // Sent again, corrected, under the same key: it is made.
        let corrected = IdempotencyClaim(key: "k-2", fingerprint: "f")
        _ = try await IdempotencyClaim.$current.withValue(corrected) {
            try await store.createClinic(ClinicDraft(name: "Harbor", schedule: .monthly))
        }
        #expect(corrected.isCommitted)
        #expect(try await store.clinics(ClinicQuery()).count == 2)
    }

    /// Books on one PostgreSQL database keep their keys apart: a key one book spent is free in another.
    @Test func keysAreABooksOwn() async throws {
        let one = try await makeBook(.postgres), other = try await makeBook(.postgres)
        for store in [one, other] {
            let claim = IdempotencyClaim(key: "phone-1", fingerprint: "f")
            _ = try await IdempotencyClaim.$current.withValue(claim) {
                try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
            }
            #expect(claim.isCommitted)
        }
    }
}

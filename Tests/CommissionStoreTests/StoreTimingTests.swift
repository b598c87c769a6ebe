import CommissionCore
import CommissionStore
import Synchronization
import Testing

/// The database time a server measures per request (`/metrics`): each store tells the observer
/// bound to the current task of every read and write, and nothing when none is bound.
@Suite struct StoreTimingTests {
    @Test("A store tells the task's observer of each read and write", arguments: StoreKind.local)
    func theObserverIsToldOfReadsAndWrites(_ kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        let told = Mutex<[StoreTiming.Operation]>([])
        let observer = StoreTiming.Observer { operation, duration in
            #expect(duration >= .zero)
            told.withLock { $0.append(operation) }
        }
        try await StoreTiming.$observer.withValue(observer) {
            _ = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
            _ = try await store.clinics(ClinicQuery())
        }
        let operations = told.withLock { $0 }
        #expect(operations.contains(.write) && operations.contains(.read), "told: \(operations)")

        // Outside the bind, nobody is told.
        told.withLock { $0 = [] }
        _ = try await store.clinics(ClinicQuery())
        #expect(told.withLock { $0 }.isEmpty)
    }
}

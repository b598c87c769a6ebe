import CommissionCore
import CommissionStore
import Foundation

/// Keeps a book on the device equal to a book on a server, the device's book working offline in
/// between: local-first.
///
/// A sync **pushes** what was recorded on the device since the last sync — new clinics and
/// products, sales (new, changed, voided) and payouts (new, removed), periods closed or reopened —
/// then **pulls** what changed on the server since the last pull (``HTTPStore/changes(since:epoch:)``),
/// its own pushes included, and applies it to the device's copy in one transaction
/// (`BookChangesApplying`). Every change is on the book's audit log, so the device's own entries
/// since the last pull are exactly what it has to send, and the server's entries since are
/// exactly what it has to take.
///
/// The device takes the **whole book** instead, as its first sync does, when the server cannot
/// tell the changes from there (its book was restored or replaced since: another *epoch*), when
/// the book's settings changed there, when the device's own book was restored since, or when the
/// changes do not bring back a record the device changed itself (a change the server refused, or
/// one a sync does not send: the server's version must replace it).
///
/// - **Never twice.** A new sale goes with an idempotency key made of the device, the pull and the
///   sale, and the sync remembers what it has sent (`statePath`): a sync cut off by the network
///   resumes where it stopped, and a sale whose answer was lost is recognised by the server, not
///   recorded again. A new payout goes with a key of the same making, which the server keeps
///   (for 30 days) with its answer. A record changed again after it went (a sale voided, a
///   payout removed) is sent again with only that change, to the id the server gave it.
/// - **The server's rules decide.** A sale into a period the clinic closed meanwhile, under terms
///   changed on the server, or at a clinic archived there, is refused by the server like any sale;
///   the refusal is in the report (``SyncReport/refused``) with the server's sentence, and the
///   device's copy, pulled after the push, no longer holds it.
/// - **Names, not ids.** Records are matched by name (a clinic's or product's name is unique in a
///   book), so a clinic made on the device and another made on the server never mix.
/// - Changes of terms, prices, deductions and settings are the server's (the web app or the
///   command line), and so are a product's or a clinic's changes after it was made: one made on
///   the device is reported as not sent, and the pull undoes it.
///
/// The first sync of a device's book takes the server's book (the device's must be empty: to bring
/// a laptop's book to a server, move it with `commission migrate` or a restore first).
public final class BookSync: Sendable {
    public typealias LocalBook = any CommissionStore & BookRestoring & BookChangesApplying

    let local: LocalBook
    let remote: HTTPStore
    let statePath: String

    /// - Parameters:
    ///   - local: the device's book (an SQLite store).
    ///   - remote: the server's book.
    ///   - statePath: where the sync keeps what it has sent and pulled (a small JSON file beside the book).
    public init(local: LocalBook, remote: HTTPStore, statePath: String) {
        self.local = local
        self.remote = remote
        self.statePath = statePath
    }

    /// What the sync keeps between runs.
    struct State: Codable {
        /// This device, in the idempotency keys of the sales it sends.
        var device: String
        /// How many times the device's copy was pulled (in the keys, too).
        var pulls: Int
        /// The server's revision when the copy was last pulled: the device's audit log is the
        /// server's up to it.
        var serverRevision: Int64
        /// The history of the server's book that revision belongs to (nil before the first pull
        /// of this version): another means the book was restored or replaced since.
        var epoch: String?
        /// The device's own book's epoch right after that pull: another means it was restored since.
        var deviceEpoch: String?
        /// The device's newest audit entry right after that pull: its entries after it are its own.
        var localRevision: Int64
        /// The device's newest product right after that pull (products are not on the audit log).
        var productsThrough: Int64
        /// The products sent (or refused) since the pull: `product:12`.
        var done: Set<String>
        /// Each record sent (or refused) since the pull, and its newest audit entry then
        /// (`sale:12` → 345): a record changed again is sent again, with what changed since.
        var sentThrough: [String: Int64] = [:]
        /// The server's id of each record the device made and sent since the pull (`sale:12` → 40):
        /// what a later change of it (a void, a removal) is sent to.
        var serverIDs: [String: Int64] = [:]
        /// Refusals not yet reported: a sync cut off by the network after the server refused
        /// something reports it in the next sync that completes.
        var refused: [SyncRefusal] = []

        init(device: String) {
            self.device = device
            (pulls, serverRevision, localRevision, productsThrough, done) = (0, 0, 0, 0, [])
        }

        enum CodingKeys: String, CodingKey {
            case device, pulls, serverRevision, epoch, deviceEpoch, localRevision, productsThrough, done, sentThrough,
                serverIDs, refused
            /// The first versions' record of the sales sent (the device's id → the server's).
            case sent
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            device = try container.decode(String.self, forKey: .device)
            pulls = try container.decode(Int.self, forKey: .pulls)
            serverRevision = try container.decode(Int64.self, forKey: .serverRevision)
            epoch = try container.decodeIfPresent(String.self, forKey: .epoch)
            deviceEpoch = try container.decodeIfPresent(String.self, forKey: .deviceEpoch)
            localRevision = try container.decode(Int64.self, forKey: .localRevision)
            productsThrough = try container.decode(Int64.self, forKey: .productsThrough)
            done = try container.decode(Set<String>.self, forKey: .done)
            sentThrough = try container.decodeIfPresent([String: Int64].self, forKey: .sentThrough) ?? [:]
            serverIDs = try container.decodeIfPresent([String: Int64].self, forKey: .serverIDs) ?? [:]
            refused = try container.decodeIfPresent([SyncRefusal].self, forKey: .refused) ?? []
            // A state of the first versions: what it marked done was sent whole, as far as it knew.
            for key in done where !key.hasPrefix("product:") { sentThrough[key] = .max }
            done = done.filter { $0.hasPrefix("product:") }
            for (device, server) in try container.decodeIfPresent([Int64: Int64].self, forKey: .sent) ?? [:] {
                serverIDs["sale:\(device)"] = server
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device, forKey: .device)
            try container.encode(pulls, forKey: .pulls)
            try container.encode(serverRevision, forKey: .serverRevision)
            try container.encodeIfPresent(epoch, forKey: .epoch)
            try container.encodeIfPresent(deviceEpoch, forKey: .deviceEpoch)
            try container.encode(localRevision, forKey: .localRevision)
            try container.encode(productsThrough, forKey: .productsThrough)
            try container.encode(done, forKey: .done)
            try container.encode(sentThrough, forKey: .sentThrough)
            try container.encode(serverIDs, forKey: .serverIDs)
            try container.encode(refused, forKey: .refused)
        }

        /// Marks the record's changes so far sent (or refused).
        mutating func markSent(_ subject: Subject) {
            if subject.kind == .product { done.insert(subject.key) } else { sentThrough[subject.key] = subject.newest }
        }
    }

    // MARK: Sync

    /// Pushes the device's changes, then pulls the server's since the last pull.
    /// - Throws: ``RemoteStoreError/unreachable(_:)`` when the network fails, and
    ///   `StoreError.unavailable` or `StoreError.storage` when the server's database does
    ///   not answer (a 503): what was sent stays sent, nothing is taken for refused, and the next
    ///   sync goes on from there. ``SyncError`` when the first sync finds a book
    ///   on the device.
    @discardableResult
    public func sync() async throws -> SyncReport {
        guard var state = try loadState() else { return try await firstSync() }
        var report = SyncReport()
        // A write made on the device while the sync pushes is sent before the pull replaces the copy.
        for _ in 0..<3 {
            let before = try await localMark()
            let entries = try await localEntries(after: state.localRevision)
            try await push(entries, state: &state, report: &report)
            if try await localMark() != before { continue }
            guard try await pull(state: &state, entries: entries, unless: before, report: &report) else { continue }
            // Every refusal since the last sync that completed, reported once.
            report.refused = state.refused
            state.refused = []
            try save(state)
            return report
        }
        throw RemoteStoreError.unsupported(
            "The book on this device changed during each of three syncs in a row: sync again when it is still."
        )
    }

    func firstSync() async throws -> SyncReport {
        let clinics = try await local.clinics(ClinicQuery(includeArchived: true)).count
        let products = try await local.products(ProductQuery(includeArchived: true)).count
        if clinics + products > 0 { throw SyncError.deviceBookIsNotEmpty }
        var state = State(device: UUID().uuidString)
        var report = SyncReport()
        // Asked with no epoch, the server says where its book stands.
        var epoch = ""
        do {
            switch try await remote.changes(since: 0, epoch: "") {
            case .gone(let position): epoch = position.epoch
            case .changes(let changes): epoch = changes.epoch
            }
        } catch RemoteStoreError.refused(404, _) {}  // a server of before changes were told: no epoch
        _ = try await pullWhole(state: &state, epoch: epoch, unless: nil, report: &report)
        return report
    }

    // MARK: Pull

    /// Takes what changed on the server since the last pull into the device's copy — unless the
    /// device's book moved from `mark` meanwhile (then false: what was written is sent first).
    /// `entries` are the device's audit entries since the pull.
    ///
    /// It takes the whole book instead when changes cannot make the copy the server's: the server
    /// cannot tell them (its book restored or replaced: another epoch); the book's settings changed
    /// on the server (a change of rounding recounts every sale's commission, which the log records
    /// as one change); the device's own book was restored since its last pull; a change the device
    /// made to a record it pulled is not among the server's changes (refused, or a kind a sync does
    /// not send), or it imported a file; or the copy cannot take the changes as they come.
    func pull(
        state: inout State,
        entries: [AuditEntry],
        unless mark: LocalMark,
        report: inout SyncReport
    ) async throws -> Bool {
        let changes: BookChanges
        do {
            switch try await remote.changes(since: state.serverRevision, epoch: state.epoch ?? "") {
            case .gone(let position):
                return try await pullWhole(state: &state, epoch: position.epoch, unless: mark, report: &report)
            case .changes(let answer):
                changes = answer
            }
        } catch RemoteStoreError.refused(404, _) {
            // A server of before changes were told: its whole book, as then.
            return try await pullWhole(state: &state, epoch: "", unless: mark, report: &report)
        }
        let productsMade = try await local.products(ProductQuery(includeArchived: true)).map(\.id.rawValue).filter {
            $0 > state.productsThrough
        }
        let plan = ChangesPlan(changes.entries)
        guard try await state.deviceEpoch == local.bookEpoch(), !plan.settings,
            let own = Self.ownRecords(entries, productsMade: productsMade, covered: plan)
        else {
            return try await pullWhole(state: &state, epoch: changes.epoch, unless: mark, report: &report)
        }
        // Nothing changed on either side since the last pull.
        if own.isEmpty, entries.isEmpty, changes.revision == state.serverRevision { return true }
        do {
            guard
                try await local.apply(
                    changes,
                    removingOwn: own,
                    auditAfter: state.serverRevision,
                    expectingNewest: mark.revision
                )
            else { return false }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Changes this copy cannot take as they come (a name the server moved from one record to
            // another, a pulled sale moved onto a product made here…): the whole book.
            return try await pullWhole(state: &state, epoch: changes.epoch, unless: mark, report: &report)
        }
        // The device's log is now the server's through the answer's revision (a write made on the
        // device since has an entry after it, sent by the next sync).
        try await pulled(state: &state, epoch: changes.epoch, revision: changes.revision)
        report.pulled = true
        return true
    }

    /// The records the device made itself among its audit entries since the pull (and the products
    /// made since, for a book of before products were on the log) — which the server's changes
    /// bring back under the server's ids; nil when a change the device made to a record it
    /// pulled is not among the server's changes (refused, or not sent), when a record it made has
    /// the id of one it pulled and changed (SQLite gives a new record the id of the last one
    /// deleted), or when it imported a file: only the whole book then makes the copy the server's.
    static func ownRecords(
        _ entries: [AuditEntry],
        productsMade: [Int64],
        covered plan: ChangesPlan
    ) -> [RemovedRecord]? {
        // Oldest first: a record's creation comes before its other entries.
        var made = Set(productsMade.map { RemovedRecord(.product, $0) })
        var changedBefore = Set<RemovedRecord>()
        for entry in entries {
            guard entry.action != "import" else { return nil }
            guard let id = entry.subjectID else {
                if !plan.covers(entry.subject, nil) { return nil }
                continue
            }
            let record = RemovedRecord(entry.subject, id)
            if entry.action == "create" {
                // The id of a pulled record the device changed (and deleted) before: the two cannot be told apart.
                if changedBefore.contains(record) { return nil }
                made.insert(record)
                continue
            }
            // A period's subject is its clinic: closed at a clinic made here, it goes with the clinic.
            if made.contains(entry.subject == .period ? RemovedRecord(.clinic, id) : record) { continue }
            changedBefore.insert(record)
            if !plan.covers(entry.subject, id) { return nil }
        }
        let removable: Set<AuditSubject> = [.sale, .payout, .deduction, .price, .terms, .product, .clinic]
        return made.filter { removable.contains($0.kind) }.sorted {
            ($0.kind.rawValue, $0.id) < ($1.kind.rawValue, $1.id)
        }
    }

    /// Replaces the device's copy with the server's whole book — unless the device's book moved
    /// from `mark` while the book downloaded (then false: what was written meanwhile is sent first).
    /// `epoch` is the server's, read before the download: a restore on the server in between makes
    /// the next sync take the whole book again, never changes of another history.
    func pullWhole(
        state: inout State,
        epoch: String,
        unless mark: LocalMark?,
        report: inout SyncReport
    ) async throws -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-sync-\(UUID().uuidString).jsonl"
        ).path
        // try?: the downloaded archive, a temporary file; the OS cleans its temporary directory
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await remote.downloadArchive(to: path)
        if let mark, try await localMark() != mark { return false }
        _ = try await local.restoreBackup(at: path)
        try await pulled(state: &state, epoch: epoch)
        report.pulled = true
        report.tookWholeBook = true
        return true
    }

    /// After a pull: the device's book is the server's, its audit log the server's through
    /// `revision` (by default its newest entry: a whole pull's).
    func pulled(state: inout State, epoch: String, revision: Int64? = nil) async throws {
        state.pulls += 1
        state.epoch = epoch
        if let revision { state.serverRevision = revision } else { state.serverRevision = try await localRevision() }
        state.localRevision = state.serverRevision
        state.deviceEpoch = try await local.bookEpoch()
        state.productsThrough =
            try await local.products(ProductQuery(includeArchived: true)).map(\.id.rawValue).max() ?? 0
        state.done = []
        state.sentThrough = [:]
        state.serverIDs = [:]
        try save(state)
    }

    /// Where the device's book stands: its newest audit entry and its newest product (products are
    /// not on the audit log). A write on the device moves it.
    struct LocalMark: Equatable {
        var revision: Int64
        var product: Int64
    }

    func localMark() async throws -> LocalMark {
        LocalMark(
            revision: try await localRevision(),
            product: try await local.products(ProductQuery(includeArchived: true)).map(\.id.rawValue).max() ?? 0
        )
    }

    // MARK: Push

    /// One record the device changed since the pull, and what was done to it since it was last sent.
    struct Subject {
        enum Kind: Equatable {
            /// A product made on the device (found by its id too: products were not always on the audit log).
            case product
            case audited(AuditSubject)
        }
        var kind: Kind
        var id: Int64
        var actions: Set<String>
        /// Its newest audit entry (0 for a product).
        var newest: Int64 = 0
        var key: String {
            switch kind {
            case .product: "product:\(id)"
            case .audited(let subject): "\(subject.rawValue):\(id)"
            }
        }
    }

    /// Clinics and products by name on the server and by id on the device, and the device's
    /// payouts, read once a sync.
    struct Names {
        var remoteClinics: [String: Clinic.ID] = [:]
        var remoteProducts: [String: Product.ID] = [:]
        var localClinics: [Clinic.ID: String] = [:]
        var localProducts: [Product.ID: String] = [:]
        var localPayouts: [Int64: Payout] = [:]
        /// The records made on the device since the pull (`sale:12`).
        var madeHere: Set<String> = []
    }

    /// At most this many new sales go in one request (`POST /api/v1/batch`).
    static let batchSize = 500

    func push(_ entries: [AuditEntry], state: inout State, report: inout SyncReport) async throws {
        // Products first (not on the audit log), then every record in the order it was first changed.
        var subjects: [Subject] = try await local.products(ProductQuery(includeArchived: true))
            .filter { $0.id.rawValue > state.productsThrough }.sorted { $0.id < $1.id }
            .map { Subject(kind: .product, id: $0.id.rawValue, actions: ["create"]) }
            .filter { !state.done.contains($0.key) }
        var index = Dictionary(uniqueKeysWithValues: subjects.enumerated().map { ($1.key, $0) })
        // The records made on the device since the pull: their server ids are only what the server
        // gave them (`serverIDs`), never their own.
        var madeHere: Set<String> = []
        for entry in entries {
            guard let first = entry.subjectID else { continue }
            let ids = entry.action == "import" ? Array(first...(entry.lastSubjectID ?? first)) : [first]
            for id in ids {
                if entry.action == "create" || entry.action == "import" {
                    madeHere.insert("\(entry.subject.rawValue):\(id)")
                }
                // A product sent already is not made again.
                if entry.subject == .product, entry.action == "create", state.done.contains("product:\(id)") {
                    continue
                }
                let subject = Subject(
                    kind: entry.subject == .product ? .product : .audited(entry.subject),
                    id: id,
                    actions: [entry.action == "import" ? "create" : entry.action],
                    newest: entry.id.rawValue
                )
                // What was sent already of a record: only its later changes go (a void after the sale went).
                if let through = state.sentThrough[subject.key], subject.newest <= through { continue }
                if let at = index[subject.key] {
                    subjects[at].actions.formUnion(subject.actions)
                    subjects[at].newest = max(subjects[at].newest, subject.newest)
                } else {
                    index[subject.key] = subjects.count
                    subjects.append(subject)
                }
            }
        }
        guard !subjects.isEmpty else { return }

        var names = Names()
        names.madeHere = madeHere
        for clinic in try await local.clinics(ClinicQuery(includeArchived: true)) {
            names.localClinics[clinic.id] = clinic.name
        }
        for product in try await local.products(ProductQuery(includeArchived: true)) {
            names.localProducts[product.id] = product.name
        }
        for payout in try await local.payouts(PayoutQuery()) { names.localPayouts[payout.id.rawValue] = payout }
        for clinic in try await remote.clinics(ClinicQuery(includeArchived: true)) {
            names.remoteClinics[clinic.name] = clinic.id
        }
        for product in try await remote.products(ProductQuery(includeArchived: true)) {
            names.remoteProducts[product.name] = product.id
        }

        // New sales, not voided, go in batches; everything else one by one.
        var batch: [(subject: Subject, draft: SaleDraft)] = []
        func flush() async throws {
            guard !batch.isEmpty else { return }
            defer { batch = [] }
            let writes = batch.map { StoreWrite.createSale($0.draft, idempotencyKey: key($0.subject, state)) }
            do {
                let written = try await remote.apply(writes)
                for (item, made) in zip(batch, written) {
                    if case .sale(let sale) = made { state.serverIDs[item.subject.key] = sale.id.rawValue }
                    state.markSent(item.subject)
                }
                report.pushed += batch.count
                try save(state)
            } catch let error where Self.isTransient(error) {
                // the network, the server or its database failed: sent again by the next sync, never dropped
                throw error
            } catch {
                // One of them is refused: each alone, so that the others land and the refused one is named.
                for item in batch { try await sendOne(item.subject, state: &state, report: &report, names: &names) }
            }
        }
        for subject in subjects {
            if subject.kind == .audited(.sale), subject.actions.subtracting(["recompute"]) == ["create"],
                // try?: a sale not batched here is sent alone below, by sendOne, which says what fails
                let sale = try? await local.sale(Sale.ID(subject.id)), !sale.isVoided,
                // try?: likewise: sendOne sends it alone and says what fails
                let draft = try? await remoteDraft(sale, names: &names)
            {
                batch.append((subject, draft))
                if batch.count == Self.batchSize { try await flush() }
                continue
            }
            try await flush()
            try await sendOne(subject, state: &state, report: &report, names: &names)
        }
        try await flush()
    }

    /// The idempotency key of a new record the device sends: the device, the pull and the record
    /// (a sale's key is its number alone, as in the first versions of the sync).
    func key(_ subject: Subject, _ state: State) -> String {
        let record = subject.kind == .audited(.sale) ? "\(subject.id)" : subject.key
        return "sync:\(state.device):\(state.pulls):\(record)"
    }

    /// Sends one record's changes, and marks it sent — or refused, with the reason in the report.
    func sendOne(_ subject: Subject, state: inout State, report: inout SyncReport, names: inout Names) async throws {
        do {
            if try await send(subject, state: &state, names: &names) { report.pushed += 1 }
        } catch {
            let (change, cause) = (error as? ChangeRefused).map { ($0.change, $0.cause) } ?? (nil, error)
            // The network gone, the server's database away (a 503), the sync stopped: nothing is
            // taken for refused — the next sync sends it again.
            if Self.isTransient(cause) { throw cause }
            let what = await describe(subject)
            state.refused.append(
                SyncRefusal(
                    what: change.map { "\($0) \(what)" } ?? what,
                    reason: (cause as? RemoteStoreError)?.description ?? "\(cause)"
                )
            )
        }
        state.markSent(subject)
        try save(state)
    }

    /// Whether an error says the change can go again later, not that the server refused it: the
    /// network gone, the server's database away, a sign-in refused (401, 403: a token revoked, the
    /// sync stops until it is given a good one), too many requests (429), a request still being
    /// answered (409), or a server or proxy that failed (5xx, or an answer that is not the API's).
    static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case RemoteStoreError.unreachable, RemoteStoreError.unexpectedAnswer, RemoteStoreError.otherRelease,
            is CancellationError:
            return true
        case RemoteStoreError.refused(let status, _):
            return [401, 403, 408, 409, 429].contains(status) || status >= 500
        case let failure as StoreError: return failure.isServerFailure
        default: return false
        }
    }

    /// A later change of a record the server took (the void of a sale it recorded), refused.
    struct ChangeRefused: Error {
        /// The change, as the refusal names it ("voiding").
        var change: String
        var cause: any Error
    }

    /// Sends one record's changes; false when there was nothing to send.
    func send(_ subject: Subject, state: inout State, names: inout Names) async throws -> Bool {
        switch subject.kind {
        case .product:
            guard subject.actions.contains("create") else { throw SyncError.notSent("a change of a product") }
            let product = try await local.product(Product.ID(subject.id))
            do {
                let made = try await remote.createProduct(
                    ProductDraft(
                        name: product.name,
                        sku: product.sku,
                        unitPrice: product.unitPrice,
                        unitCost: product.unitCost
                    )
                )
                names.remoteProducts[made.name] = made.id
            } catch StoreError.duplicateName {}  // made on the server too, or sent before an answer was lost
            return true
        case .audited(.clinic):
            guard subject.actions.contains("create") else { throw SyncError.notSent("a change of a clinic") }
            let clinic = try await local.clinic(Clinic.ID(subject.id))
            do {
                let made = try await remote.createClinic(ClinicDraft(name: clinic.name, schedule: clinic.schedule))
                names.remoteClinics[made.name] = made.id
            } catch StoreError.duplicateName {}
            return true
        case .audited(.sale):
            return try await sendSale(subject, state: &state, names: &names)
        case .audited(.payout):
            return try await sendPayout(subject, state: &state, names: &names)
        case .audited(.period):
            return try await sendPeriods(subject, names: &names)
        case .audited(let kind):
            if subject.actions == ["recompute"] { return false }  // what a change of terms did to a sale
            throw SyncError.notSent(
                kind == .settings
                    ? "a change of the book's settings"
                    : kind == .terms ? "a change of terms" : "a change of a \(kind.rawValue)"
            )
        }
    }

    /// The server's id of a record the device changes: its own for a record it pulled, the one the
    /// server gave a record it made and sent; nil for one it made that never reached the server
    /// (refused), whose later changes have nowhere to go.
    static func serverID(_ subject: Subject, state: State, names: Names) -> Int64? {
        if let server = state.serverIDs[subject.key] { return server }
        return names.madeHere.contains(subject.key) ? nil : subject.id
    }

    func sendSale(_ subject: Subject, state: inout State, names: inout Names) async throws -> Bool {
        let actions = subject.actions.subtracting(["recompute"])
        guard !actions.isEmpty else { return false }
        let sale = try await local.sale(Sale.ID(subject.id))
        let draft = try await remoteDraft(sale, names: &names)
        if actions.contains("create") {
            let sent = try await remote.createSale(draft, idempotencyKey: key(subject, state))
            state.serverIDs[subject.key] = sent.id.rawValue
            try save(state)
            if sale.isVoided && !sent.isVoided { try await Self.voiding { _ = try await remote.voidSale(sent.id) } }
            return true
        }
        // A sale the device pulled has the server's id; one it made and sent, the id the server gave it.
        // One it made that the server refused is not there: nothing to change (the refusal was said).
        guard let server = Self.serverID(subject, state: state, names: names) else { return false }
        let id = Sale.ID(server)
        if actions.contains("update") { _ = try await remote.updateSale(id, with: draft) }
        if sale.isVoided, !(try await remote.sale(id)).isVoided {
            try await Self.voiding { _ = try await remote.voidSale(id) }
        }
        return true
    }

    /// A void of a sale the server has: refused, it is named as a void, not as the sale.
    static func voiding(_ void: () async throws -> Void) async throws {
        do { try await void() } catch { throw ChangeRefused(change: "voiding", cause: error) }
    }

    /// The sale as a draft of the server's book: its clinic and product found by name.
    func remoteDraft(_ sale: Sale, names: inout Names) async throws -> SaleDraft {
        SaleDraft(
            clinicID: try await remoteClinic(sale.clinicID, names: &names),
            productID: try await remoteProduct(sale.productID, names: &names),
            date: sale.date,
            quantity: sale.quantity,
            unitPrice: sale.line.unitPrice,
            unitCost: sale.line.unitCost,
            discount: sale.line.discount,
            noCommission: sale.isNoCommission,
            note: sale.note
        )
    }

    /// The server's clinic of the device's clinic's name.
    func remoteClinic(_ id: Clinic.ID, names: inout Names) async throws -> Clinic.ID {
        try await Self.remoteID(
            of: id,
            named: names.localClinics,
            found: &names.remoteClinics,
            localName: { try await local.clinic(id).name },
            remoteID: { try await remote.clinic(named: $0).id }
        )
    }

    /// The server's product of the device's product's name.
    func remoteProduct(_ id: Product.ID, names: inout Names) async throws -> Product.ID {
        try await Self.remoteID(
            of: id,
            named: names.localProducts,
            found: &names.remoteProducts,
            localName: { try await local.product(id).name },
            remoteID: { try await remote.product(named: $0).id }
        )
    }

    /// The server's id of a device's record: its name (known, or read on the device), then the
    /// server's record of that name (known, or looked up and kept in `found`).
    static func remoteID<ID: Hashable>(
        of id: ID,
        named known: [ID: String],
        found: inout [String: ID],
        localName: () async throws -> String,
        remoteID: (String) async throws -> ID
    ) async throws -> ID {
        let name: String
        if let knownName = known[id] { name = knownName } else { name = try await localName() }
        if let remote = found[name] { return remote }
        let remote = try await remoteID(name)
        found[name] = remote
        return remote
    }

    func sendPayout(_ subject: Subject, state: inout State, names: inout Names) async throws -> Bool {
        let payout = names.localPayouts[subject.id]
        if subject.actions.contains("create") {
            guard let payout else { return false }  // recorded and removed on the device: nothing to send
            let clinic = try await remoteClinic(payout.clinicID, names: &names)
            // Its own key: sent again after a lost answer, it is recorded once.
            let made = try await HTTPStore.$idempotencyKey.withValue(key(subject, state)) {
                try await remote.createPayout(
                    PayoutDraft(
                        clinicID: clinic,
                        period: payout.period,
                        amount: payout.amount,
                        receivedOn: payout.receivedOn,
                        reference: payout.reference
                    )
                )
            }
            state.serverIDs[subject.key] = made.id.rawValue
            return true
        }
        guard subject.actions.contains("delete"), payout == nil else { return false }
        // A payout the device pulled has the server's id; one it made and sent, the id the server gave it.
        guard let server = Self.serverID(subject, state: state, names: names) else { return false }
        do { try await remote.deletePayout(Payout.ID(server)) } catch StoreError.notFound {}
        return true
    }

    /// A clinic's periods closed or reopened on the device (the subject is the clinic): each set
    /// as the device has it now.
    func sendPeriods(_ subject: Subject, names: inout Names) async throws -> Bool {
        let entries = try await local.auditLog(AuditQuery(subject: .period, subjectID: subject.id))
        let clinic = try await remoteClinic(Clinic.ID(subject.id), names: &names)
        struct Record: Decodable {
            var periodStart: String
            var periodEnd: String
            var closed: Bool
        }
        var latest: [String: Record] = [:]
        for entry in entries.reversed() {  // oldest first: the last word stands
            // try?: an entry that is not a period record has nothing to send (every one written is)
            guard let after = entry.after, let record = try? JSONDecoder().decode(Record.self, from: Data(after.utf8))
            else { continue }
            latest[record.periodStart] = record
        }
        for record in latest.values.sorted(by: { $0.periodStart < $1.periodStart }) {
            let period = PayPeriod(start: try Day(parsing: record.periodStart), end: try Day(parsing: record.periodEnd))
            if record.closed {
                do { try await remote.closePeriod(clinic: clinic, period: period) } catch StoreError.periodClosed {}
            } else {
                try await remote.reopenPeriod(clinic: clinic, period: period)
            }
        }
        return true
    }

    /// The record as she would name it, for a refusal.
    func describe(_ subject: Subject) async -> String {
        switch subject.kind {
        case .product:
            return
                // try?: only a name for a refusal's message; the id stands in without it
                "the product \(((try? await local.product(Product.ID(subject.id)))?.name).map { "“\($0)”" } ?? "#\(subject.id)")"
        case .audited(.sale):
            // try?: only a name for a refusal's message; the id stands in without it
            guard let sale = try? await local.sale(Sale.ID(subject.id)) else { return "sale #\(subject.id)" }
            // try?: only a name for the message; "?" stands in without it
            let clinic = (try? await local.clinic(sale.clinicID))?.name ?? "?"
            // try?: only a name for the message; "?" stands in without it
            let product = (try? await local.product(sale.productID))?.name ?? "?"
            return
                "the sale of \(sale.quantity) × \(product) at \(clinic) on \(sale.date)\(sale.note.map { " (\($0))" } ?? "")"
        case .audited(.payout):
            // try?: only for the message; "payout #id" stands in without it
            guard let payout = try? await local.payouts(PayoutQuery()).first(where: { $0.id.rawValue == subject.id }),
                // try?: likewise, only for the message
                let currency = try? await local.settings().currency
            else { return "payout #\(subject.id)" }
            // try?: only a name for the message; "?" stands in without it
            let clinic = (try? await local.clinic(payout.clinicID))?.name ?? "?"
            return "the payout of \(currency.format(payout.amount)) from \(clinic) for \(payout.period)"
        case .audited(.clinic), .audited(.period):
            return
                // try?: only a name for a refusal's message; the id stands in without it
                "the clinic \(((try? await local.clinic(Clinic.ID(subject.id)))?.name).map { "“\($0)”" } ?? "#\(subject.id)")"
        case .audited(let kind):
            return "\(kind.rawValue) #\(subject.id)"
        }
    }

    // MARK: The device's book

    func localRevision() async throws -> Int64 {
        try await local.auditLog(AuditQuery(page: Page(limit: 1))).first?.id.rawValue ?? 0
    }

    /// The device's audit entries after `revision`, oldest first.
    func localEntries(after revision: Int64) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        var offset = 0
        while true {
            let page = try await local.auditLog(AuditQuery(page: Page(limit: 500, offset: offset)))
            entries += page.prefix { $0.id.rawValue > revision }
            if page.count < 500 || page.contains(where: { $0.id.rawValue <= revision }) { break }
            offset += page.count
        }
        return entries.reversed()
    }

    // MARK: State

    func loadState() throws -> State? {
        guard let data = FileManager.default.contents(atPath: statePath) else { return nil }
        do { return try JSONDecoder().decode(State.self, from: data) } catch {
            throw StoreError.unreadable("The sync's state \(statePath)")
        }
    }

    func save(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = statePath + ".partial"
        try encoder.encode(state).write(to: URL(fileURLWithPath: temporary))
        // Renamed into place: a sync cut off mid-write leaves the previous state whole.
        guard rename(temporary, statePath) == 0 else {
            throw StoreError.storage("could not write the sync's state \(statePath)")
        }
    }
}

/// What a sync did.
public struct SyncReport: Sendable, Hashable {
    /// Records whose changes the server took.
    public var pushed = 0
    /// Changes the server refused, or that a sync does not send, each with the reason.
    public var refused: [SyncRefusal] = []
    /// Whether the device's copy took the server's changes (or its whole book).
    public var pulled = false
    /// Whether it took the server's whole book rather than its changes: the first sync, a book
    /// restored or replaced on the server, or a change of the device's the server's does not bring back.
    public var tookWholeBook = false

    public init() {}
}

/// A change of the device's book that did not reach the server, and why.
public struct SyncRefusal: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The record, as she would name it ("the sale of 2 × Serum at Glow on 2026-03-02").
    public var what: String
    /// The server's sentence, or why a sync does not send it.
    public var reason: String

    public var description: String { "\(what): \(reason)" }
}

/// What stops a sync before it starts, or a change it does not send.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first sync of a book that already has records: it would replace them with the server's.
    case deviceBookIsNotEmpty
    /// A kind of change the server's book takes from the web or the command line only.
    case notSent(String)

    public var description: String {
        switch self {
        case .deviceBookIsNotEmpty:
            "This book already has records, and its first sync would replace them with the server's book. Sync an empty book, or move this one to the server first (commission migrate, or a restore of its archive)."
        case .notSent(let what):
            "\(what.prefix(1).uppercased() + what.dropFirst()) is not sent by a sync: make it on the server (the web app or the command line); the server's book, pulled back, does not have it."
        }
    }
}

import CommissionAPI
import CommissionCore
import CommissionKit
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The API's JSON shapes are defined once, by the OpenAPI document: the server answers with the
/// types generated from it (CommissionAPI). These tests hold every answer to the document —
/// strictly: a key the document does not list, a required key missing, a value of another type or
/// outside its enum or pattern fails — and every domain enum to the document's.
@Suite struct APIShapesTests {
    /// The document, parsed.
    static let document: JSONValue = {
        guard let data = try? OpenAPI.document(), let value = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .null }
        return value
    }()

    @Test("Every case of the domain's enums is one of the document's, and back")
    func everyCaseIsInTheDocument() {
        func same<Domain: CaseIterable & RawRepresentable, Schema: CaseIterable & RawRepresentable>(
            _ domain: Domain.Type,
            _ schema: Schema.Type,
            allowing extra: Set<String> = []
        ) where Domain.RawValue == String, Schema.RawValue == String {
            let ours = Set(domain.allCases.map(\.rawValue)),
                theirs = Set(schema.allCases.map(\.rawValue)).subtracting(extra)
            #expect(ours == theirs, "\(domain) is \(ours.sorted()), the document's \(schema) \(theirs.sorted())")
        }
        same(CommissionBasis.self, API.Terms.BasisPayload.self)
        // An input's choice the document lets be null (left as it was), which the generator spells "".
        same(CommissionBasis.self, API.TermsInput.BasisPayload.self, allowing: [""])
        same(CommissionBasis.self, API.TermsPatch.BasisPayload.self, allowing: [""])
        same(CommissionBasis.self, API.Sale.BasisPayload.self)
        same(RoundingRule.self, API.Settings.RoundingPayload.self)
        same(RoundingRule.self, API.SettingsInput.RoundingPayload.self, allowing: [""])
        same(RoundingScope.self, API.Settings.RoundingScopePayload.self)
        same(RoundingScope.self, API.SettingsInput.RoundingScopePayload.self, allowing: [""])
        same(AuditSubject.self, API.AuditEntry.SubjectPayload.self)
        same(ReconciliationStatus.self, API.Reconciliation.PeriodsPayloadPayload.StatusPayload.self)
        same(MemberRole.self, API.Member.RolePayload.self)
        same(MemberRole.self, API.Invitation.RolePayload.self)
        same(MemberRole.self, API.InvitationInput.RolePayload.self, allowing: [""])
    }

    /// What each JSON-answering operation is asked, on a book with a sale, a payout, terms with a
    /// tier, a price and a deduction; the test fails on an operation missing from the list.
    static func requests(_ ids: Book) -> [(method: HTTPRequest.Method, uri: String, body: String?)] {
        let clinic = ids.clinic, product = ids.product
        return [
            (.get, "/api/v1/dashboard", nil),
            (.get, "/api/v1/clinics?includeArchived=true", nil),
            (.post, "/api/v1/clinics", #"{"name": "Harbor", "schedule": "weekly:tuesday"}"#),
            (.get, "/api/v1/clinics/\(clinic)", nil),
            (
                .patch, "/api/v1/clinics/\(clinic)",
                #"{"scheduleChanges": [{"effectiveFrom": "2026-06-01", "schedule": "semimonthly"}]}"#
            ),
            (.get, "/api/v1/products?includeArchived=true", nil),
            (.post, "/api/v1/products", #"{"name": "Mask", "sku": "MSK", "unitPrice": "12.00", "unitCost": "4.00"}"#),
            (.get, "/api/v1/products/\(product)", nil),
            (.patch, "/api/v1/products/\(product)", #"{"unitPrice": "51.00"}"#),
            (.get, "/api/v1/terms", nil),
            (
                .post, "/api/v1/terms",
                #"{"clinicId": \#(clinic), "share": "45", "effectiveFrom": "2026-05-01", "tiers": ["1000.00:50"]}"#
            ),
            (.get, "/api/v1/terms/\(ids.terms)", nil),
            (.patch, "/api/v1/terms/\(ids.terms)", #"{"tiers": ["2000.00:45"]}"#),
            (.get, "/api/v1/prices", nil),
            (
                .post, "/api/v1/prices",
                #"{"clinicId": \#(clinic), "productId": \#(product), "unitPrice": "55.00", "effectiveFrom": "2026-04-01"}"#
            ),
            (.get, "/api/v1/deductions", nil),
            (
                .post, "/api/v1/deductions",
                #"{"clinicId": \#(clinic), "name": "Room", "share": "2", "effectiveFrom": "2026-01-01"}"#
            ),
            (.get, "/api/v1/deductions/\(ids.deduction)", nil),
            (.patch, "/api/v1/deductions/\(ids.deduction)", #"{"name": "Card fees", "amount": "6.00"}"#),
            (.get, "/api/v1/sales?limit=5", nil),
            (
                .post, "/api/v1/sales",
                #"{"clinicId": \#(clinic), "productId": \#(product), "date": "2026-03-04", "quantity": 2, "note": "n"}"#
            ),
            (.get, "/api/v1/sales/\(ids.sale)", nil),
            (.post, "/api/v1/sales/\(ids.sale)", #"{"quantity": 3}"#),
            (.patch, "/api/v1/sales/\(ids.sale)", #"{"note": "changed"}"#),
            (.get, "/api/v1/sales/\(ids.sale)/history", nil),
            (.get, "/api/v1/sales/days?from=2026-03-01&to=2026-03-31", nil),
            (.get, "/api/v1/payouts", nil),
            (
                .post, "/api/v1/payouts",
                #"{"clinicId": \#(clinic), "period": "2026-02-01", "amount": "1.00", "receivedOn": "2026-03-10"}"#
            ),
            (.post, "/api/v1/payouts/bank", "Date,Amount,Description\n2026-04-05,7.00,GLOW AESTHETICS\n"),
            (
                .post, "/api/v1/clinics/\(clinic)/compare?date=2026-03-02",
                "Date,Item,Qty,Price,Your commission\n2026-03-02,Serum 30ml,1,50.00,12.00\n2026-03-09,Serum 30ml,1,50.00,12.00\n"
            ),
            (.post, "/api/v1/clinics/\(clinic)/close?date=2026-01-15", nil),
            (.post, "/api/v1/clinics/\(clinic)/reopen?date=2026-01-15", nil),
            (.get, "/api/v1/clinics/\(clinic)/statement?date=2026-03-04", nil),
            (.get, "/api/v1/statements?from=2026-01-01&to=2026-03-31", nil),
            (.get, "/api/v1/clinics/\(clinic)/reconciliation", nil),
            (.get, "/api/v1/export/sales.json", nil),
            (.get, "/api/v1/year/2026", nil),
            (.get, "/api/v1/months?from=2026-01-01&to=2026-03-31", nil),
            (.get, "/api/v1/settings", nil),
            (.post, "/api/v1/settings", #"{"rounding": "half-to-even"}"#),
            (.get, "/api/v1/audit?limit=5", nil),
            (.get, "/api/v1/tokens", nil),
            (.post, "/api/v1/tokens", #"{"name": "laptop"}"#),
            (.get, "/api/v1/members", nil),
            (.post, "/api/v1/invitations", #"{"role": "member"}"#),
            (
                .post, "/api/v1/batch",
                #"{"writes": [{"sale": {"clinic": "Glow", "product": "SER-30", "date": "2026-03-05"}, "idempotencyKey": "k1"}, {"voidSale": \#(ids.sale)}]}"#
            ),
            (
                .post, "/api/v1/import/rows",
                #"{"dryRun": true, "rows": [{"line": 2, "sale": {"clinic": "Glow", "product": "Serum 30ml", "date": "2026-03-06"}}]}"#
            ),
            (
                .post, "/api/v1/import?kind=sales&dryRun=true",
                "date,clinic,product,quantity\n2026-03-07,Glow,Serum 30ml,1\n"
            ),
            (
                .post, "/api/v1/import?dryRun=true&createMissing=true&share=40&schedule=weekly:monday",
                "date,clinic,product,quantity,unit price\n2026-03-07,Lumen,Night Cream,1,30.00\n"
            ),
            (.get, "/api/v1/notifications", nil),
            (.post, "/api/v1/notifications/settings", #"{"time": "18:30", "lateClinics": false}"#),
            (
                .post, "/api/v1/notifications/devices",
                #"{"endpoint": "https://push.example.net/send/1", "keys": {"p256dh": "\#(ReminderStoreKeys.p256dh)", "auth": "\#(ReminderStoreKeys.auth)"}}"#
            ),
            (.post, "/api/v1/notifications/test", nil),
            (.post, "/api/v1/notifications/devices/1/remove", nil),
            (.post, "/api/v1/calendar", nil),
            (.post, "/api/v1/calendar/revoke", nil),
            (.delete, "/api/v1/payouts/\(ids.payout)", nil),
            (.delete, "/api/v1/prices/\(ids.price)", nil),
            (.delete, "/api/v1/sales/\(ids.sale)", nil),
            (.post, "/api/v1/sales/\(ids.sale)/void", nil),
            (.delete, "/api/v1/terms/\(ids.terms)", nil),
            (.delete, "/api/v1/deductions/\(ids.deduction)", nil),
            (.delete, "/api/v1/products/\(product)", nil),
            (.delete, "/api/v1/clinics/\(clinic)", nil),
            // Refusals answer the document's problem, or where the book stands for changes asked
            // of no history (the last four requests: every other one succeeds).
            (.get, "/api/v1/changes/since/0", nil),
            (.get, "/api/v1/sales/999999", nil),
            (.post, "/api/v1/sales", #"{"clinicId": \#(clinic), "productId": \#(product), "date": "2026-13-01"}"#),
            // An import whose sales need what the book lacks: said, with what, in `missing`.
            (
                .post, "/api/v1/import?dryRun=true",
                "date,clinic,product,quantity,unit price\n2026-03-07,Lumen,Night Cream,1,30.00\n"
            ),
        ]
    }

    struct Book {
        var clinic: Int64
        var product: Int64
        var terms: Int64
        var sale: Int64
        var payout: Int64
        var price: Int64
        var deduction: Int64
    }

    @Test("Every answer of the API is the shape the document gives it, and no other")
    func everyAnswerIsTheDocumentsShape() async throws {
        let test = try await TestApp(push: FakePushService())
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_shapes"),
            now: Date()
        )
        let store = test.store
        let march = try Day(parsing: "2026-03-02")
        let terms = try await store.createTerms(
            TermsDraft(
                clinicID: test.glow.id,
                share: try Share(parsing: "40"),
                tiers: [Tier(threshold: Money(minorUnits: 10_000), share: try Share(parsing: "50"))],
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        ).terms
        let sale = try await store.createSale(
            SaleDraft(clinicID: test.glow.id, productID: test.serum.id, date: march),
            idempotencyKey: nil
        )
        let payout = try await store.createPayout(
            PayoutDraft(
                clinicID: test.glow.id,
                period: PaySchedule.monthly.period(containing: march),
                amount: Money(minorUnits: 500),
                receivedOn: march,
                reference: "ref"
            )
        )
        let price = try await store.setPrice(
            PriceDraft(
                clinicID: test.glow.id,
                productID: test.serum.id,
                unitPrice: Money(minorUnits: 4800),
                unitCost: nil,
                effectiveFrom: try Day(parsing: "2026-02-01")
            )
        )
        let deduction = try await store.createDeduction(
            Deduction(
                id: Deduction.ID(0),
                clinicID: test.glow.id,
                name: "Card fees",
                amount: .fixed(Money(minorUnits: 500)),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        let book = Book(
            clinic: test.glow.id.rawValue,
            product: test.serum.id.rawValue,
            terms: terms.id.rawValue,
            sale: sale.id.rawValue,
            payout: payout.id.rawValue,
            price: price.id.rawValue,
            deduction: deduction.id.rawValue
        )

        let requests = Self.requests(book)
        // Every documented operation answering JSON is among the requests.
        let asked = Set(requests.map { "\($0.method) \(Self.template(of: $0.uri))" })
        for (method, path) in Self.jsonOperations() {
            #expect(
                asked.contains("\(method) \(path)"),
                "no request of \(method) \(path): add one to APIShapesTests.requests"
            )
        }

        let validated = try await test.app.test(.router) { client in
            var validated = 0
            for (index, request) in requests.enumerated() {
                var headers: HTTPFields = [.authorization: "Bearer cm_shapes"]
                if let body = request.body {
                    headers[.contentType] = body.hasPrefix("{") ? "application/json" : "text/csv"
                }
                let response = try await client.execute(
                    uri: request.uri,
                    method: request.method,
                    headers: headers,
                    body: request.body.map { ByteBuffer(string: $0) }
                )
                let where_ = "\(request.method) \(request.uri) → \(response.status.code)"
                let refusal = index >= requests.count - 4
                #expect(
                    refusal ? response.status.code >= 400 : response.status.code < 300,
                    "\(where_): \(response.text.prefix(300))"
                )
                if response.status == .noContent {
                    let documented = Self.document["paths"]?[Self.template(of: request.uri)]?[
                        request.method.rawValue.lowercased()
                    ]?["responses"]?["204"]
                    #expect(
                        documented != nil && response.body.readableBytes == 0,
                        "\(where_): the document has no 204 here"
                    )
                    continue
                }
                let schema = Self.schema(
                    method: request.method,
                    path: Self.template(of: request.uri),
                    status: response.status.code,
                    contentType: response.headers[.contentType] ?? ""
                )
                guard let schema else {
                    Issue.record(
                        "\(where_): the document has no JSON answer with this status and type (\(response.headers[.contentType] ?? "none")): \(response.text.prefix(300))"
                    )
                    continue
                }
                let value = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body))
                let problems = Self.validate(value, against: schema, at: "$")
                #expect(
                    problems.isEmpty,
                    "\(where_): \(problems.joined(separator: "; "))\n\(response.text.prefix(600))"
                )
                validated += 1
            }
            return validated
        }
        // Every JSON answer was held to its schema (the deletions of prices, payouts and deductions, a
        // device removed and the calendar link revoked answer 204).
        #expect(validated == requests.count - 5)
        #expect(Self.jsonOperations().count >= 50)
    }

    /// A choice the document lets be null is refused when it is an empty string (which the
    /// generated type reads as a case of its own), with the sentence of any other unknown choice.
    @Test func anEmptyChoiceIsRefused() async throws {
        let test = try await TestApp()
        let owner = try await test.store.createOwner(username: "ana", passwordHash: "x")
        _ = try await test.store.createToken(
            account: owner.id,
            name: "t",
            tokenDigest: WebSecrets.digest("cm_shapes"),
            now: Date()
        )
        let headers: HTTPFields = [.authorization: "Bearer cm_shapes", .contentType: "application/json"]
        try await test.app.test(.router) { client in
            for (uri, body, sentence) in [
                (
                    "/api/v1/terms",
                    #"{"clinicId": \#(test.glow.id), "share": "45", "effectiveFrom": "2026-05-01", "basis": ""}"#,
                    #"the field "basis" is "profit" or "revenue"."#
                ),
                (
                    "/api/v1/settings", #"{"rounding": ""}"#,
                    #"the field "rounding" is "half-away-from-zero" or "half-to-even"."#
                ),
                ("/api/v1/invitations", #"{"role": ""}"#, #"the field "role" is "owner" or "member"."#),
            ] {
                let response = try await client.execute(
                    uri: uri,
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: body)
                )
                #expect(response.status == .badRequest, "\(uri): \(response.text)")
                #expect(
                    (try response.json()["detail"] as? String)?.hasSuffix(sentence) == true,
                    "\(uri): \(response.text)"
                )
            }
        }
        #expect(try await test.store.settings().rounding.rule == .halfAwayFromZero)
    }

    /// A refusal's problem — with the store's error as data, which a remote store turns back into
    /// the same error — is the document's `Problem`, for a refusal of every kind and every value.
    @Test func everyRefusalIsTheDocumentsProblem() throws {
        let march = try Day(parsing: "2026-03-02"), period = PaySchedule.monthly.period(containing: march)
        let errors: [any Error] = [
            StoreError.notFound(.sales, id: 7), StoreError.unknownClinic("Glow"), StoreError.unknownProduct("Serum"),
            StoreError.unknownMapping("bank"), StoreError.duplicateName(.clinics, "Glow"),
            StoreError.duplicateSKU("SER"),
            StoreError.archived(.products, "Serum"),
            StoreError.noTermsInForce(clinic: "Glow", product: "Serum", on: march),
            StoreError.periodClosed(clinic: "Glow", period: period),
            StoreError.notAPeriod(clinic: "Glow", period: period, schedule: .semimonthly),
            StoreError.hasHistory(.clinics, name: "Glow", sales: 3), StoreError.currencyLocked(current: "USD"),
            StoreError.invalid(field: "name", reason: "is empty"),
            StoreError.importRejected(
                [
                    ImportProblem(
                        line: 2,
                        column: "date",
                        reason: "not a date",
                        file: ImportFile(index: 1, name: "a.csv")
                    )
                ],
                total: 1
            ),
            StoreError.alreadyImported(file: "a.csv", on: march), StoreError.unreadable("the archive"),
            StoreError.storage("disk"),
            StoreError.unavailable("the database"),
            SaleLineError.zeroQuantity, SaleLineError.negativeAmount(field: "discount"),
            SaleLineError.discountExceedsLine(
                discount: Money(minorUnits: 900),
                line: Money(minorUnits: 500),
                currency: .usd
            ),
            SaleLineError.quantityTooLarge(1 << 40),
            SaleLineError.amountTooLarge(
                field: "unitPrice",
                amount: Money(minorUnits: 1 << 50),
                limit: Money(minorUnits: 1 << 40),
                currency: .usd
            ),
            MoneyError.overflow("the total"), MoneyError.malformed("1.2.3", reason: "two decimal points"),
            DateOutOfRange(field: "date", day: try Day(parsing: "2099-01-01"), accepted: AcceptedDays(today: march)),
        ]
        let schema = try #require(Self.resolve(.object(["$ref": .string("#/components/schemas/Problem")])))
        let encoder = JSONEncoder()
        for error in errors {
            let problem = Problem.from(error)
            let value = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(problem))
            #expect(value["error"] != nil, "\(error): no error as data")
            let problems = Self.validate(value, against: schema, at: "$")
            #expect(problems.isEmpty, "\(error): \(problems.joined(separator: "; "))")
        }
    }

    /// The validator finds what it should: an extra key, a missing one, a wrong type, a value
    /// outside its enum.
    @Test func theCheckRefusesWhatTheDocumentDoesNotSay() throws {
        let sale = try #require(Self.resolve(.object(["$ref": .string("#/components/schemas/Settings")])))
        let good =
            #"{"currency": "USD", "timeZone": "UTC", "rounding": "half-to-even", "roundingScope": "per-line", "locale": "en_US"}"#
        #expect(
            Self.validate(try JSONDecoder().decode(JSONValue.self, from: Data(good.utf8)), against: sale, at: "$")
                .isEmpty
        )
        for bad in [
            #"{"currency": "USD", "timeZone": "UTC", "rounding": "half-to-even", "roundingScope": "per-line", "locale": "en_US", "extra": 1}"#,
            #"{"currency": "USD", "timeZone": "UTC", "rounding": "half-to-even", "roundingScope": "per-line"}"#,
            #"{"currency": 840, "timeZone": "UTC", "rounding": "half-to-even", "roundingScope": "per-line", "locale": "en_US"}"#,
            #"{"currency": "USD", "timeZone": "UTC", "rounding": "up", "roundingScope": "per-line", "locale": "en_US"}"#,
        ] {
            #expect(
                !Self.validate(try JSONDecoder().decode(JSONValue.self, from: Data(bad.utf8)), against: sale, at: "$")
                    .isEmpty,
                "\(bad)"
            )
        }
    }

    // MARK: The document

    /// `/api/v1/sales/7?x=1` as the document's path: `/api/v1/sales/{id}`.
    static func template(of uri: String) -> String {
        let path = String(uri.prefix { $0 != "?" })
        guard case .object(let paths)? = document["paths"], paths[path] == nil else { return path }
        let parts = path.split(separator: "/")
        return paths.keys.sorted().first { key in
            let keyParts = key.split(separator: "/")
            return keyParts.count == parts.count && zip(keyParts, parts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        } ?? path
    }

    /// Every documented operation whose success answers JSON.
    static func jsonOperations() -> [(HTTPRequest.Method, String)] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        var result: [(HTTPRequest.Method, String)] = []
        for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
            guard case .object(let operations) = operations else { continue }
            for (method, operation) in operations.sorted(by: { $0.key < $1.key }) {
                guard case .object(let responses)? = operation["responses"] else { continue }
                let success = responses.filter { $0.key.hasPrefix("2") }.values
                guard success.contains(where: { $0["content"]?["application/json"] != nil }),
                    path != "/api/v1/openapi.json"
                else { continue }
                result.append((HTTPRequest.Method(method.uppercased())!, path))
            }
        }
        return result
    }

    static func schema(method: HTTPRequest.Method, path: String, status: Int, contentType: String) -> JSONValue? {
        let mediaType = String(contentType.prefix { $0 != ";" })
        guard let operation = document["paths"]?[path]?[method.rawValue.lowercased()],
            let schema = operation["responses"]?[String(status)]?["content"]?[mediaType]?["schema"]
        else { return nil }
        return resolve(schema)
    }

    static func resolve(_ schema: JSONValue) -> JSONValue? {
        guard case .string(let reference)? = schema["$ref"] else { return schema }
        var node: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node.flatMap(resolve)
    }

    /// What is wrong with `value` as an instance of `schema`: the keywords the document uses.
    static func validate(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        guard let schema = resolve(schema) else { return ["\(path): an unresolved $ref"] }
        var problems: [String] = []
        let types: [String] =
            switch schema["type"] {
            case .string(let type)?: [type]
            case .array(let types)?: types.compactMap { if case .string(let t) = $0 { t } else { nil } }
            default: []
            }
        if !types.isEmpty && !types.contains(where: { value.is($0) }) {
            return ["\(path): \(value.kind) where the document says \(types.joined(separator: " or "))"]
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            problems.append("\(path): \(value) is not one of \(allowed)")
        }
        if case .string(let pattern)? = schema["pattern"], case .string(let text) = value,
            text.firstMatch(of: try! Regex(pattern)) == nil
        {
            problems.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if case .object(let object) = value {
            let properties: [String: JSONValue] = if case .object(let p)? = schema["properties"] { p } else { [:] }
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where object[key] == nil {
                    problems.append("\(path): no \"\(key)\"")
                }
            }
            let open = schema["additionalProperties"].map { $0 != .bool(false) } ?? properties.isEmpty
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] {
                    problems += validate(member, against: property, at: "\(path).\(key)")
                } else if !open {
                    problems.append("\(path): \"\(key)\", which the document does not list")
                }
            }
        }
        if case .array(let items) = value, let item = schema["items"] {
            for (index, element) in items.enumerated() {
                problems += validate(element, against: item, at: "\(path)[\(index)]")
            }
        }
        return problems
    }
}

/// Any JSON value, read strictly: `true` is a boolean, never the number 1.
indirect enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null, bool(Bool), integer(Int64), number(Double), string(String), array([JSONValue]), object(
        [String: JSONValue]
    )

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Whether the value is of the JSON Schema type `type`.
    func `is`(_ type: String) -> Bool {
        switch (self, type) {
        case (.null, "null"), (.bool, "boolean"), (.integer, "integer"), (.integer, "number"), (.number, "number"),
            (.string, "string"), (.array, "array"), (.object, "object"):
            true
        default: false
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let value): "[\(value.map(\.description).joined(separator: ", "))]"
        case .object(let value): "{\(value.keys.sorted().joined(separator: ", "))}"
        }
    }
}

import CommissionCore
import CommissionStore
import CommissionWeb
import Foundation
import Testing

/// Every surface speaks its own language: a refusal told on a page (or by its script) never names
/// a command of the command line, one told by the API names requests, and the command line keeps
/// its commands.
@Suite struct SurfaceMessagesTests {
    /// One of each refusal the store makes. `covered` fails to compile when a kind is added
    /// without a sample here.
    static let samples: [StoreError] = {
        let day = (try! Day(year: 2026, month: 11, day: 24))
        let period = PayPeriod(
            start: (try! Day(year: 2026, month: 11, day: 1)),
            end: (try! Day(year: 2026, month: 11, day: 30))
        )
        let refusals: [StoreError] = [
            .notFound(.sales, id: 7), .unknownClinic("Bella Skin"), .unknownProduct("Hydra Serum"),
            .unknownMapping("Clinic A"),
            .duplicateName(.clinics, "Bella Skin"), .duplicateSKU("SER-30"), .archived(.products, "Hydra Serum"),
            .noTermsInForce(clinic: "Bella Skin", product: "Hydra Serum", on: day),
            .periodClosed(clinic: "Bella Skin", period: period),
            .notAPeriod(clinic: "Bella Skin", period: period, schedule: .semimonthly),
            .hasHistory(.clinics, name: "Bella Skin", sales: 3),
            .currencyLocked(current: "USD"), .invalid(field: "price", reason: "it is not an amount"),
            .importRejected([ImportProblem(line: 2, column: "date", reason: "not a date")], total: 1),
            .alreadyImported(file: "sales.csv", on: day), .unreadable("Sale 17's date"), .storage("could not write"),
            .unavailable("the database is away"),
        ]
        // An import's rows refused as the store refuses them: each row's reason is the command
        // line's sentence, its cause the refusal itself, which each surface says in its own words.
        let rows = refusals.enumerated().map { index, refusal in
            ImportProblem(line: index + 2, column: "clinic", reason: refusal.description, cause: refusal)
        }
        return refusals + [.importRejected(rows, total: rows.count)]
    }()

    static func covered(_ error: StoreError) -> Int {
        switch error {
        case .notFound: 0
        case .unknownClinic: 1
        case .unknownProduct: 2
        case .unknownMapping: 3
        case .duplicateName: 4
        case .duplicateSKU: 5
        case .archived: 6
        case .noTermsInForce: 7
        case .periodClosed: 8
        case .notAPeriod: 9
        case .hasHistory: 10
        case .currencyLocked: 11
        case .invalid: 12
        case .importRejected: 13
        case .alreadyImported: 14
        case .unreadable: 15
        case .storage: 16
        case .unavailable: 17
        }
    }

    /// A command of the command line, or one of its flags.
    static func namesACommand(_ text: String) -> Bool {
        text.firstMatch(of: /`commission [a-z]|(^|[\s(`])--[a-z][a-z-]+/) != nil
    }

    /// One problem on many rows is said once, with its lines, on every surface.
    @Test func aProblemOfManyRowsIsSaidOnceWithItsLines() {
        let unknown = StoreError.unknownClinic("Praxis Mitte")
        let lines = Array(3...14) + [19]
        let rows =
            lines.map { ImportProblem(line: $0, column: "Klinik", reason: unknown.description, cause: unknown) }
            + [ImportProblem(line: 16, column: "Datum", reason: "\"32.13.2026\" is not a date")]
        let refused = StoreError.importRejected(rows, total: rows.count)
        for surface in Surface.allCases {
            let text = refused.message(on: surface)
            #expect(
                text.components(separatedBy: "Praxis Mitte").count == 2,
                "one sentence for the clinic, on \(surface): \(text)"
            )
            #expect(
                text.contains("lines 3–14, 19, column \"Klinik\": There is no clinic named \"Praxis Mitte\""),
                "\(text)"
            )
            #expect(text.contains("line 16, column \"Datum\""), "\(text)")
        }
        #expect(!Self.namesACommand(refused.message(on: .page)))
        #expect(Self.namesACommand(refused.message(on: .commandLine)))
        // The API lists each row still, in its own words.
        let problem = Problem.from(refused, on: .api)
        #expect(problem.detail.contains("POST /api/v1/clinics"), "\(problem.detail)")
    }

    @Test func everyKindOfRefusalHasASample() {
        #expect(Self.namesACommand(StoreError.unknownClinic("Glow").description), "the command line names its commands")
        #expect(Set(Self.samples.map(Self.covered)) == Set(0...17))
    }

    @Test(arguments: samples)
    func aPageNeverNamesACommand(_ error: StoreError) {
        let page = Problem.from(error, on: .page).detail
        #expect(!Self.namesACommand(page), "a page says: \(page)")
        let api = Problem.from(error, on: .api).detail
        #expect(!Self.namesACommand(api), "the API says: \(api)")
    }

    /// No page's own text names a command either.
    @Test func noPageTemplateNamesACommand() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/CommissionWeb/Resources/templates")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == "mustache"
        }
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(
                text.firstMatch(of: /<code>commission [a-z]|`commission [a-z]/) == nil,
                "\(file.lastPathComponent) names a command"
            )
        }
    }

    @Test func eachSurfaceSaysWhatToDoThere() {
        let noTerms = StoreError.noTermsInForce(
            clinic: "Bella Skin",
            product: "Hydra Serum",
            on: (try! Day(year: 2026, month: 11, day: 24))
        )
        #expect(noTerms.message(on: .commandLine).contains("`commission terms add`"))
        #expect(noTerms.message(on: .page).contains("Add Bella Skin's terms from that day on"))
        #expect(noTerms.message(on: .api).contains("POST /api/v1/terms"))
        let closed = StoreError.periodClosed(
            clinic: "Bella Skin",
            period: PayPeriod(
                start: (try! Day(year: 2026, month: 11, day: 1)),
                end: (try! Day(year: 2026, month: 11, day: 30))
            )
        )
        #expect(
            closed.message(on: .page).contains("on the Payouts page")
                && closed.description.contains("`commission period reopen`")
        )
        #expect(
            StoreError.alreadyImported(file: "sales.csv", on: (try! Day(year: 2026, month: 11, day: 24))).message(
                on: .page
            ).contains("tick “Import it again”")
        )
    }

    /// No sentence the web app writes names a command of the command line (comments aside): a
    /// page says what to do where she is.
    @Test("No sentence of the web app names a terminal command")
    func theWebAppNamesNoCommand() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appending(path: "Sources/CommissionWeb")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path(percentEncoded: false))).compactMap
        { $0 as? String }
        .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".mustache") }
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(
                    line.firstMatch(
                        of:
                            /commission (import|restore|migrate|sync|serve|backup|books|sale|clinic|product|terms|period|payout)\b/
                    ) == nil,
                    "\(file): \(line)"
                )
            }
        }
    }
}

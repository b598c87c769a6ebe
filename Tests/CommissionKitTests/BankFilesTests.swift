import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// Her bank's files in the bank's own formats (OFX 1 and 2, CAMT.053 of two versions, MT940),
/// told by their content and read through the same matching as a CSV. The fixtures are written
/// by tools that are not ours and read back by readers that are not ours
/// (`Fixtures/bank/make-bank-files.py`: ofxtools, Python's XML parser, mt-940).
@Suite struct BankFilesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bank")
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The deposits of BankStatementTests' CSV statement, in each format, with the name it is read as.
    static let marchApril = [
        ("march-april.qfx", "OFX 1 (SGML)"),
        ("march-april.ofx", "OFX 2 (XML)"),
        ("march-april.camt053.001.02.xml", "CAMT.053 (camt.053.001.02)"),
        ("march-april.camt053.001.08.xml", "CAMT.053 (camt.053.001.08)"),
        ("march-april.sta", "MT940"),
    ]

    /// What a proposal says, without the line or the bank's text (which differ between formats).
    static func outcomes(_ proposals: [DepositProposal]) -> [String] {
        proposals.map { proposal in
            let deposit = "\(proposal.deposit.date) \(proposal.deposit.amount.minorUnits): "
            switch proposal.outcome {
            case .pays(let clinic, let parts):
                return deposit + "\(clinic.name) "
                    + parts.map { "\($0.period.start)+\($0.amount.minorUnits)" }.joined(separator: ",")
                    + (proposal.isExact ? " exact" : " guess")
            case .recorded(let payouts): return deposit + "recorded \(payouts.map(\.id.rawValue))"
            case .unmatched: return deposit + "unmatched"
            }
        }
    }

    @Test("Each format's deposits propose the same payouts as the same deposits in a CSV")
    func eachFormatProposesWhatTheCSVProposes() async throws {
        let directory = temporaryDirectory()
        let store = try SQLiteStore(.file(try BankStatementTests.book(in: directory)))
        let today = day("2026-04-15")
        let csv = try BankStatement(
            origin: .data(Data(BankStatementTests.statement.utf8), name: "the CSV"),
            currency: .usd
        )
        let expected = Self.outcomes(try await DepositMatching.propose(csv.deposits, store: store, today: today))
        #expect(expected.count == 4 && csv.passedOver == 1)
        for (name, format) in Self.marchApril {
            let statement = try BankStatement(origin: .file(path: Self.fixture(name)), currency: .usd)
            #expect(statement.said == ["read as \(format)"], "\(name)")
            #expect(statement.passedOver == 1, "\(name): the card payment is money out")
            #expect(statement.deposits.allSatisfy { $0.id != nil }, "\(name): every deposit has the bank's id")
            let proposals = try await DepositMatching.propose(statement.deposits, store: store, today: today)
            #expect(Self.outcomes(proposals) == expected, "\(name)")
        }
        // The payer and the purpose, as the bank wrote them.
        let mt940 = try BankStatement(origin: .file(path: Self.fixture("march-april.sta")), currency: .usd)
        #expect(mt940.deposits.map(\.description).contains("GLOW AESTHETICS LTD JAN+FEB"), "\(mt940.deposits)")
        let camt = try BankStatement(
            origin: .file(path: Self.fixture("march-april.camt053.001.08.xml")),
            currency: .usd
        )
        #expect(camt.deposits.map(\.description).contains("GLWA LTD 7781"), "\(camt.deposits)")
        #expect(camt.deposits.first?.id?.description == "AcctSvcrRef 20260312-0001")
    }

    @Test(
        "The same file twice, or the next month's overlapping it, records no deposit twice",
        arguments: [
            ("march-april.qfx", "april-may.qfx", "FITID"),
            ("march-april.camt053.001.02.xml", "april-may.camt053.001.08.xml", "AcctSvcrRef"),
            ("march-april.sta", "april-may.sta", "MT940"),
        ]
    )
    func noDepositIsRecordedTwice(first: String, next: String, kind: String) async throws {
        let directory = temporaryDirectory()
        let path = try BankStatementTests.book(in: directory)
        let store = try SQLiteStore(.file(path))
        func bank(_ file: String, _ date: String) throws -> Run {
            try commission(["payout", "bank", Self.fixture(file), "--date", date, "--accept", "--db", path])
        }
        let accepted = try bank(first, "2026-04-15")
        #expect(
            accepted.status == 0 && accepted.stdout.contains("Recorded 3 payouts from 2 deposits."),
            "\(accepted.stdout)\(accepted.stderr)"
        )
        let glow = try await store.clinic(named: "Glow Aesthetics")
        let references = try await store.payouts(PayoutQuery(clinicID: glow.id)).compactMap(\.reference)
        #expect(references.last?.hasSuffix("[\(kind) 20260410-0005]") == true, "\(references)")

        let again = try bank(first, "2026-04-15")
        #expect(again.status == 0 && again.stdout.hasSuffix("Nothing to record.\n"), "\(again.stdout)\(again.stderr)")
        #expect(
            again.stdout.contains("→ recorded already: payout 4 from Glow Aesthetics"),
            "\(again.stdout)"
        )
        #expect(try await store.payouts(PayoutQuery()).count == 4)

        // Next month's file: April's deposit again (its id the same), May's, and a credit in euros.
        let overlapping = try commission(["payout", "bank", Self.fixture(next), "--date", "2026-05-15", "--db", path])
        #expect(overlapping.status == 0, "\(overlapping.stderr)")
        let out = overlapping.stdout
        #expect(out.contains("36.00  “GLWA LTD 7781”\n    → recorded already: payout 4"), "\(out)")
        if kind != "MT940" {
            // An MT940 statement is of one account in one currency: its file has no euros.
            #expect(out.contains("passed over: it is in EUR, the book in USD"), "\(out)")
        }
        if next.contains("camt") { #expect(out.contains("1 entry not yet booked passed over"), "\(out)") }
        #expect(try await store.payouts(PayoutQuery()).count == 4)
        let recorded = try bank(next, "2026-05-15")
        #expect(recorded.status == 0 && !recorded.stdout.contains("Recorded"), "\(recorded.stdout)")
        #expect(try await store.payouts(PayoutQuery()).count == 4)
    }

    @Test("The id of a transaction is how the book knows it, whatever day it was recorded for")
    func theBanksIdIsKnownOnAnotherDay() async throws {
        let directory = temporaryDirectory()
        let path = try BankStatementTests.book(in: directory)
        #expect(
            try commission([
                "payout", "add", "Glow Aesthetics", "36.00", "--period", "2026-03-01", "--received", "2026-04-09",
                "--reference", "Bank: GLWA LTD 7781 [FITID 20260410-0005]", "--db", path,
            ]).status == 0
        )
        let run = try commission([
            "payout", "bank", Self.fixture("march-april.qfx"), "--date", "2026-04-15", "--db", path,
        ])
        #expect(
            run.stdout.contains("→ recorded already: payout 2 from Glow Aesthetics"),
            "\(run.stdout)\(run.stderr)"
        )
        let statement = try BankStatement(origin: .file(path: Self.fixture("march-april.qfx")), currency: .usd)
        let store = try SQLiteStore(.file(path))
        let proposals = try await DepositMatching.propose(statement.deposits, store: store, today: day("2026-04-15"))
        #expect(proposals.last?.why == "already recorded on 2026-04-09 (FITID 20260410-0005)")
    }

    /// Files a bank could hand her that are not what she needs, or not whole: each refused in a
    /// sentence that says what to do, and nothing recorded.
    @Test func aFileThatCannotBeReadIsRefusedInASentence() async throws {
        let directory = temporaryDirectory()
        let path = try BankStatementTests.book(in: directory)
        let ofx = try String(contentsOfFile: Self.fixture("march-april.qfx"), encoding: .utf8)
        let camt = try String(contentsOfFile: Self.fixture("march-april.camt053.001.08.xml"), encoding: .utf8)
        let mt940 = try String(contentsOfFile: Self.fixture("march-april.sta"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            (
                "amount.qfx", ofx.replacingOccurrences(of: "<TRNAMT>19.99", with: "<TRNAMT>19.9.9"),
                "has 1 transaction of 5 that cannot be read: line"
            ),
            (
                "date.qfx", ofx.replacingOccurrences(of: "<DTPOSTED>20260402", with: "<DTPOSTED>20260231"),
                "its DTPOSTED “20260231120000.000[+0:UTC]” is not a date"
            ),
            ("empty.ofx", String(ofx.prefix { $0 != "<" }) + "<OFX></OFX>", "is an OFX file without transactions"),
            ("cut.xml", String(camt.prefix(camt.count / 2)), "is not a whole CAMT.053 statement"),
            (
                "notice.xml", camt.replacingOccurrences(of: "camt.053.001.08", with: "camt.054.001.08"),
                "is a camt.054 file (a notice of single payments), not an account statement"
            ),
            (
                "other.xml", "<?xml version=\"1.0\"?><Invoice><Total>3</Total></Invoice>",
                "is XML, but not a bank statement"
            ),
            (
                "mark.sta", mt940.replacingOccurrences(of: "0402C19,99", with: "0402X19,99"),
                "its :61: has no credit or debit mark"
            ),
        ]
        for (name, text, said) in cases {
            let file = file(name, text, in: directory)
            let run = try commission(["payout", "bank", file, "--accept", "--date", "2026-04-15", "--db", path])
            #expect(run.status != 0 && run.stderr.contains(said), "\(name): \(run.stderr)")
            #expect(!run.stderr.contains("Fatal") && run.stdout.isEmpty, "\(name): \(run.stdout)\(run.stderr)")
        }
        let store = try SQLiteStore(.file(path))
        #expect(try await store.payouts(PayoutQuery()).count == 1)
    }

    @Test("A file is told by its content, not its name") func toldByContent() throws {
        let directory = temporaryDirectory()
        for (name, format) in Self.marchApril {
            let renamed = directory.appendingPathComponent(name + ".csv")
            try FileManager.default.copyItem(atPath: Self.fixture(name), toPath: renamed.path)
            let statement = try BankStatement(origin: .file(path: renamed.path), currency: .usd)
            #expect(statement.said.first == "read as \(format)" && statement.deposits.count == 4, "\(name)")
        }
        // A CSV is still a CSV.
        let csv = try BankStatement(origin: .data(Data(BankStatementTests.statement.utf8), name: "x"), currency: .usd)
        #expect(csv.said.first?.hasPrefix("read as") == false)
    }

    /// A CAMT.053 written on one line (as some banks' exports are): each entry is numbered in the
    /// file's order, so that each can still be chosen by its number.
    @Test func entriesOnOneLineAreNumbered() throws {
        let camt = try String(contentsOfFile: Self.fixture("march-april.camt053.001.02.xml"), encoding: .utf8)
        let oneLine = camt.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined()
        let statement = try BankStatement(origin: .data(Data(oneLine.utf8), name: "x"), currency: .usd)
        #expect(statement.deposits.map(\.line) == [1, 2, 3, 5])
    }
}

import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// Payouts from her bank statement: each deposit proposed for the clinic and periods it most
/// likely pays, nothing recorded before she says so, a deposit already in the book recognised.
@Suite struct BankStatementTests {
    /// Glow (40 %) sold 2 serums in January, 1 in February and 3 in March: $24, $12 and $36 owed;
    /// Harbor (55 %) 2 in February, $33, paid on 2026-03-12 and recorded.
    static func book(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("book.sqlite").path
        for arguments in [
            ["init", "--currency", "USD", "--time-zone", "UTC"],
            ["clinic", "add", "Glow Aesthetics", "--schedule", "monthly"],
            ["clinic", "add", "Harbor Dental", "--schedule", "monthly"],
            ["product", "add", "Serum", "--price", "50", "--cost", "20"],
            ["terms", "add", "Glow Aesthetics", "--share", "40", "--from", "2026-01-01"],
            ["terms", "add", "Harbor Dental", "--share", "55", "--from", "2026-01-01"],
        ] {
            let run = try commission(arguments + ["--db", path])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let sales = directory.appendingPathComponent("sales.csv")
        try """
        date,clinic,product,quantity
        2026-01-10,Glow Aesthetics,Serum,2
        2026-02-03,Glow Aesthetics,Serum,1
        2026-03-05,Glow Aesthetics,Serum,3
        2026-02-10,Harbor Dental,Serum,2

        """.write(to: sales, atomically: true, encoding: .utf8)
        #expect(try commission(["import", sales.path, "--db", path]).status == 0)
        #expect(
            try commission([
                "payout", "add", "Harbor Dental", "33.00", "--period", "2026-02-01", "--received", "2026-03-12", "--db",
                path,
            ]).status == 0
        )
        return path
    }

    /// Her bank's export, US style: a deposit already recorded, one that pays two periods, one that
    /// matches nothing, money out, and one that fits a balance without naming the clinic.
    static let statement = """
        Booking date,Description,Amount
        3/12/2026,HARBOR DENTAL PAYMENT,$33.00
        3/20/2026,GLOW AESTHETICS LTD JAN+FEB,$36.00
        4/2/2026,AMAZON REFUND,$19.99
        4/3/2026,CARD PAYMENT,-$45.00
        4/10/2026,GLWA LTD 7781,$36.00

        """

    @Test("Each deposit is proposed and nothing is recorded before she accepts") func depositsProposedNotRecorded()
        async throws
    {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        let bank = directory.appendingPathComponent("bank.csv")
        try Self.statement.write(to: bank, atomically: true, encoding: .utf8)

        let proposed = try commission(["payout", "bank", bank.path, "--date", "2026-04-15", "--db", path])
        #expect(proposed.status == 0, "\(proposed.stderr)")
        let out = proposed.stdout
        #expect(out.contains("4 deposits, 1 other row (money out) passed over; dates read as month/day/year"), "\(out)")
        // Recorded already: the day's payout of that amount.
        #expect(
            out.contains(
                "line 2  2026-03-12  33.00  “HARBOR DENTAL PAYMENT”\n    → recorded already: payout 1 from Harbor Dental"
            ),
            "\(out)"
        )
        // One deposit, two periods: January's and February's balances together, the clinic named.
        #expect(
            out.contains(
                "→ Glow Aesthetics, 2026-01-01 – 2026-01-31: 24.00; 2026-02-01 – 2026-02-28: 12.00 (the unpaid balances of"
            ),
            "\(out)"
        )
        #expect(out.contains("together; “Glow Aesthetics” in the description)"), "\(out)")
        // Nothing fits a refund from elsewhere.
        #expect(out.contains("line 4  2026-04-02  19.99  “AMAZON REFUND”\n    → nothing fits"), "\(out)")
        // March's balance, by its amount and date alone (not the January-and-February deposit's periods again).
        #expect(
            out.contains(
                "line 6  2026-04-10  36.00  “GLWA LTD 7781”\n    → Glow Aesthetics, 2026-03-01 – 2026-03-31: 36.00 (the unpaid balance of"
            ),
            "\(out)"
        )
        #expect(out.contains("Nothing recorded: --accept records the 2 exact proposals"), "\(out)")
        let store = try SQLiteStore(.file(path))
        #expect(try await store.payouts(PayoutQuery()).count == 1)

        // A line that has nothing to record refuses the whole choice.
        let refused = try commission([
            "payout", "bank", bank.path, "--date", "2026-04-15", "--line", "3", "--line", "4", "--db", path,
        ])
        #expect(
            refused.status != 0 && refused.stderr.contains("The deposit on line 4 has no proposal to record"),
            "\(refused.stderr)"
        )
        #expect(try await store.payouts(PayoutQuery()).count == 1)

        let accepted = try commission(["payout", "bank", bank.path, "--date", "2026-04-15", "--accept", "--db", path])
        #expect(
            accepted.status == 0 && accepted.stdout.contains("Recorded 3 payouts from 2 deposits."),
            "\(accepted.stdout)\(accepted.stderr)"
        )
        let glow = try await store.clinic(named: "Glow Aesthetics")
        let payouts = try await store.payouts(PayoutQuery(clinicID: glow.id))
        #expect(payouts.map(\.amount) == [cents(2400), cents(1200), cents(3600)])
        #expect(payouts.map(\.receivedOn.description) == ["2026-03-20", "2026-03-20", "2026-04-10"])
        #expect(payouts.first?.reference == "Bank: GLOW AESTHETICS LTD JAN+FEB")
        #expect(try await store.reconciliation(clinic: glow.id, today: day("2026-04-15")).balance == .zero)

        // The same statement again: every deposit in the book is recognised, nothing is recorded twice.
        let again = try commission(["payout", "bank", bank.path, "--date", "2026-04-15", "--accept", "--db", path])
        #expect(
            again.stdout.contains("→ recorded already: payout 2 from Glow Aesthetics, payout 3 from Glow Aesthetics"),
            "\(again.stdout)"
        )
        #expect(
            again.stdout.contains("line 6  2026-04-10  36.00  “GLWA LTD 7781”\n    → recorded already: payout 4"),
            "\(again.stdout)"
        )
        #expect(again.stdout.hasSuffix("Nothing to record.\n"), "\(again.stdout)")
        #expect(try await store.payouts(PayoutQuery()).count == 4)

        // Two deposits of one amount on one day, one of them in the book: the other is not taken for it.
        #expect(
            try commission([
                "payout", "add", "Glow Aesthetics", "7.00", "--period", "2026-01-01", "--received", "2026-04-20",
                "--db", path,
            ]).status == 0
        )
        let twice = directory.appendingPathComponent("twice.csv")
        try "Booking date,Description,Amount\n4/20/2026,GLOW,$7.00\n4/20/2026,HARBOR,$7.00\n".write(
            to: twice,
            atomically: true,
            encoding: .utf8
        )
        let two = try commission(["payout", "bank", twice.path, "--date", "2026-04-30", "--db", path]).stdout
        #expect(two.components(separatedBy: "recorded already").count == 2, "\(two)")
        #expect(
            two.contains("line 3  2026-04-20  7.00  “HARBOR”\n    → nothing fits")
                || two.contains("line 3  2026-04-20  7.00  “HARBOR”\n    → Harbor"),
            "\(two)"
        )

        // The bank's text on a payout recorded from it names the clinic next time: April's deposit
        // from "GLWA LTD" is Glow's, though the amount is not April's balance.
        let april = directory.appendingPathComponent("april.csv")
        try "date,clinic,product,quantity\n2026-04-08,Glow Aesthetics,Serum,1\n".write(
            to: april,
            atomically: true,
            encoding: .utf8
        )
        #expect(try commission(["import", april.path, "--db", path]).status == 0)
        let may = directory.appendingPathComponent("may.csv")
        try "Booking date,Description,Amount\n5/14/2026,GLWA LTD 7799,$5.00\n".write(
            to: may,
            atomically: true,
            encoding: .utf8
        )
        let learned = try commission(["payout", "bank", may.path, "--date", "2026-05-15", "--db", path]).stdout
        #expect(learned.contains("→ Glow Aesthetics, 2026-04-01 – 2026-04-30: 5.00"), "\(learned)")
        #expect(learned.contains("its description is like that of earlier payouts from Glow Aesthetics"), "\(learned)")
    }

    /// After she accepted deposits from two clinics, the bank's own words on them (ACH, DEPOSIT,
    /// PAYOUT, SEPA, Gutschrift, Provision) decide nothing: a deposit naming Harbor goes to Harbor
    /// though its amount is Glow's February balance; a refund in the bank's wording fits nothing;
    /// "CLINICA SOL" names Clínica Sol.
    @Test func onlyWhatTellsClinicsApartDecides() async throws {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        for arguments in [
            ["clinic", "add", "Clínica Sol", "--schedule", "monthly"],
            ["terms", "add", "Clínica Sol", "--share", "50", "--from", "2026-01-01"],
            ["sale", "add", "Clínica Sol", "Serum", "--date", "2026-03-10"],
            ["sale", "add", "Harbor Dental", "Serum", "--date", "2026-03-10"],
        ] {
            let run = try commission(arguments + ["--db", path])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
        }
        let store = try SQLiteStore(.file(path))
        let glow = try await store.clinic(named: "Glow Aesthetics"),
            harbor = try await store.clinic(named: "Harbor Dental")
        // Accepted from earlier statements: Glow's January, and Harbor's February (its reference set as the bank wrote it).
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: glow.id,
                period: glow.calendar.period(containing: day("2026-01-15")),
                amount: cents(2400),
                receivedOn: day("2026-02-05"),
                reference: "Bank: ACH DEPOSIT PAYOUT GLOW AESTHETICS REF 0205"
            )
        )
        let paid = try #require(try await store.payouts(PayoutQuery(clinicID: harbor.id)).first)
        try await store.deletePayout(paid.id)
        _ = try await store.createPayout(
            PayoutDraft(
                clinicID: harbor.id,
                period: paid.period,
                amount: paid.amount,
                receivedOn: paid.receivedOn,
                reference: "Bank: SEPA Gutschrift Provision HARBOR DENTAL"
            )
        )
        let statement = try BankStatement(
            origin: .data(
                Data(
                    """
                    Date,Description,Amount
                    2026-04-06,ACH DEPOSIT PAYOUT HARBOR DENTAL,12.00
                    2026-04-07,ACH DEPOSIT REFUND AMAZON MKTPLACE,7.77
                    2026-04-08,SEPA Gutschrift CLINICA SOL,14.00

                    """.utf8
                ),
                name: "bank.csv"
            ),
            currency: .usd
        )
        let proposals = try await DepositMatching.propose(statement.deposits, store: store, today: day("2026-04-15"))
        func clinic(_ proposal: DepositProposal) -> String? {
            if case .pays(let clinic, _) = proposal.outcome { clinic.name } else { nil }
        }
        #expect(proposals.map(clinic) == ["Harbor Dental", nil, "Clínica Sol"], "\(proposals.map(\.why))")
        #expect(proposals[1].outcome == .unmatched)
    }

    /// A statement with a money-out and a money-in column: "Haben" is read as the deposits, "Soll"
    /// said to be passed over; where the money-in column is not known, the hint never proposes the
    /// debit column, and the mapping she gives is kept with --save-mapping and read by itself next time.
    @Test("The hint never proposes the debit column, and a mapping is kept") func debitColumnNeverProposed()
        async throws
    {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        let known = file(
            "soll-haben.csv",
            "Buchungstag;Verwendungszweck;Soll;Haben\n20.03.2026;GLOW AESTHETICS LTD JAN+FEB;;36,00\n21.03.2026;Miete;-700,00;\n",
            in: directory
        )
        let read = try commission(["payout", "bank", known, "--date", "2026-04-15", "--db", path])
        #expect(
            read.status == 0 && read.stdout.contains("1 deposit") && read.stdout.contains("passed over: Soll"),
            "\(read.stdout)\(read.stderr)"
        )
        let unknown = file(
            "zugang.csv",
            "Buchungstag;Verwendungszweck;Soll;Zugang\n20.03.2026;GLOW AESTHETICS LTD JAN+FEB;;36,00\n",
            in: directory
        )
        let refused = try commission(["payout", "bank", unknown, "--date", "2026-04-15", "--db", path])
        #expect(
            refused.status != 0 && refused.stderr.contains("--map \"Zugang=amount\"")
                && !refused.stderr.contains("Soll=amount")
                && refused.stderr.contains("--save-mapping NAME"),
            "\(refused.stderr)"
        )
        let mapped = try commission([
            "payout", "bank", unknown, "--map", "Zugang=amount", "--save-mapping", "Sparkasse", "--date", "2026-04-15",
            "--db", path,
        ])
        #expect(
            mapped.status == 0 && mapped.stdout.contains("Saved the column mapping “Sparkasse”")
                && mapped.stdout.contains("1 deposit"),
            "\(mapped.stdout)\(mapped.stderr)"
        )
        let next = try commission(["payout", "bank", unknown, "--date", "2026-04-15", "--db", path])
        #expect(
            next.status == 0 && next.stdout.contains("columns as mapped in “Sparkasse”"),
            "\(next.stdout)\(next.stderr)"
        )
        // The clinic's statement the same way: compare keeps its mapping too.
        let theirs = file("theirs.csv", "Date,Item,Qty,Their cut\n2026-03-05,Serum,3,36.00\n", in: directory)
        let compared = try commission([
            "compare", "Glow Aesthetics", theirs, "--map", "Their cut=commission", "--save-mapping", "Glow statements",
            "--db", path,
        ])
        #expect(
            compared.status == 0 && compared.stdout.contains("Saved the column mapping “Glow statements”"),
            "\(compared.stdout)\(compared.stderr)"
        )
        #expect(
            try commission(["compare", "Glow Aesthetics", theirs, "--db", path]).stdout.contains(
                "columns as mapped in “Glow statements”"
            )
        )
    }

    @Test("A German statement with a credit column and a deposit naming the clinic but not its balance")
    func germanStatementWithCredits() async throws {
        let directory = temporaryDirectory()
        let path = try Self.book(in: directory)
        // A German bank's export: `;`, day.month.year, decimal commas, money in and out in two columns.
        let bank = directory.appendingPathComponent("kontoauszug.csv")
        try """
        Buchungstag;Verwendungszweck;Soll;Haben
        20.03.2026;Glow Aesthetics Abschlag;;20,00
        21.03.2026;Miete;-500,00;

        """.write(to: bank, atomically: true, encoding: .utf8)
        let proposed = try commission([
            "payout", "bank", bank.path, "--map", "Haben=amount", "--date", "2026-04-15", "--db", path,
        ])
        #expect(proposed.status == 0, "\(proposed.stderr)")
        // Named, but $20 is no balance: January (the oldest unpaid), marked for her to check, and not an exact proposal.
        #expect(proposed.stdout.contains("→ Glow Aesthetics, 2026-01-01 – 2026-01-31: 20.00"), "\(proposed.stdout)")
        #expect(proposed.stdout.contains("but more is owed for it: check the amount"), "\(proposed.stdout)")
        #expect(proposed.stdout.contains("Nothing to record."), "\(proposed.stdout)")
        #expect(proposed.stdout.contains("1 deposit, 1 other row (money out) passed over"), "\(proposed.stdout)")
        // She records it all the same, by its line.
        let chosen = try commission([
            "payout", "bank", bank.path, "--map", "Haben=amount", "--date", "2026-04-15", "--line", "2", "--db", path,
        ])
        #expect(chosen.stdout.contains("Recorded 1 payout from 1 deposit."), "\(chosen.stdout)\(chosen.stderr)")

        // A statement without an amount column says what it has and the flag.
        let bare = directory.appendingPathComponent("bare.csv")
        try "Buchungstag;Verwendungszweck\n20.03.2026;x\n".write(to: bare, atomically: true, encoding: .utf8)
        let refused = try commission(["payout", "bank", bare.path, "--db", path])
        #expect(
            refused.status != 0 && refused.stderr.contains("lacks the required column \"amount\""),
            "\(refused.stderr)"
        )
        #expect(
            refused.stderr.contains("--map \"Verwendungszweck=amount\"") || refused.stderr.contains("--map"),
            "\(refused.stderr)"
        )
    }
}

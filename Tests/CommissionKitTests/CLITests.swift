import AsyncHTTPClient
import CommissionKit
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import Synchronization
import Testing

@Suite struct CLITests {
    static let commands: [[String]] = [
        [], ["init"], ["clinic"], ["clinic", "add"], ["clinic", "list"], ["clinic", "edit"], ["clinic", "archive"],
        ["clinic", "restore"],
        ["clinic", "delete"], ["clinic", "schedule"], ["price"], ["price", "set"], ["price", "list"],
        ["price", "remove"],
        ["deduction"], ["deduction", "add"], ["deduction", "list"], ["deduction", "end"], ["deduction", "remove"],
        ["product"], ["product", "add"], ["product", "list"], ["product", "edit"], ["product", "archive"],
        ["product", "delete"], ["terms"], ["terms", "add"], ["terms", "list"], ["terms", "edit"], ["terms", "archive"],
        ["sale"],
        ["sale", "add"], ["sale", "repeat"], ["sale", "list"], ["sale", "edit"], ["sale", "void"], ["report"],
        ["statement"], ["payout"], ["payout", "add"],
        ["payout", "list"], ["payout", "delete"], ["payout", "bank"], ["compare"], ["mapping"], ["mapping", "list"],
        ["mapping", "remove"], ["year"], ["period"], ["period", "close"], ["period", "reopen"], ["reconcile"],
        ["import"],
        ["export"], ["backup"], ["restore"], ["demo"], ["watch"], ["serve"], ["token"], ["token", "create"],
        ["token", "list"],
        ["token", "revoke"], ["migrate"], ["books"], ["books", "list"], ["books", "add"], ["books", "link"],
        ["books", "move"], ["books", "backup"], ["books", "restore"],
        ["sync"],
    ]

    @Test(arguments: commands)
    func everyCommandExplainsItselfWithAnExample(_ command: [String]) throws {
        let run = try commission(command + ["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("OVERVIEW:"))
        #expect(run.stdout.contains("commission \(command.first ?? "")"), "no example in: \(run.stdout)")
        #expect(run.stdout.contains("Example"), "no example in: \(run.stdout)")
    }

    /// Shell completions come from the commands themselves (`scripts/man-and-completions` installs them with the man page).
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsKnowEveryCommand(_ shell: String) throws {
        let run = try commission(["--generate-completion-script", shell])
        #expect(run.status == 0 && run.stdout.count > 1_000)
        // fish writes options without dashes
        for word in ["import", "compare", "payout", "bank", "mapping", "decimal-comma", "dispute-csv"] {
            #expect(run.stdout.contains(word), "the \(shell) completion does not know \(word)")
        }
    }

    @Test func theVersionIsSaid() throws {
        let run = try commission(["--version"])
        #expect(
            run.status == 0
                && run.stdout == "\(CommissionRelease.version) (book archive format \(ArchiveFile.version))\n",
            "\(run.stdout)"
        )
    }

    /// Every command the tool has (as its own help dump lists them) is in `commands`, so that each explains itself.
    @Test func everyCommandIsChecked() throws {
        let dump = try commission(["--experimental-dump-help"])
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            guard command["shouldDisplay"] as? Bool != false, path != ["help"] else { return }
            paths.append(path)
            // A backslash ends a line only in a shell example: in prose it is a Swift line continuation written twice.
            for line in (command["discussion"] as? String ?? "").split(separator: "\n") where line.hasSuffix("\\") {
                #expect(
                    line.trimmingCharacters(in: .whitespaces).hasPrefix("commission "),
                    "commission \(path.joined(separator: " ")): a stray backslash in \(line)"
                )
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(tree["command"] as? [String: Any]), [])
        #expect(Set(paths.map { $0.joined(separator: " ") }) == Set(Self.commands.map { $0.joined(separator: " ") }))
    }

    @Test func aQuickSaleAndItsReportsInEveryFormat() async throws {
        let directory = temporaryDirectory()
        let db = directory.appendingPathComponent("book.sqlite").path
        for arguments in [
            ["init", "--currency", "EUR", "--time-zone", "Europe/Paris"],
            ["clinic", "add", "Glow", "--schedule", "semimonthly"],
            ["product", "add", "Serum 30ml", "--price", "50.00", "--cost", "20.00"],
            ["terms", "add", "Glow", "--share", "40", "--from", "2026-01-01"],
        ] {
            let run = try commission(arguments + ["--db", db])
            #expect(run.status == 0, "\(run.stderr)")
        }
        // 2 × 50.00 − 20.00 × 2 = 60.00 profit × 40% = 24.00.
        let sale = try commission(["sale", "add", "Glow", "Serum 30ml", "2", "--date", "2026-03-02", "--db", db])
        #expect(sale.stdout.contains("commission 24.00"), "\(sale.stdout)\(sale.stderr)")

        let json = try commission(["statement", "Glow", "--period", "2026-03-02", "--format", "json", "--db", db])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let totals = object?["totals"] as? [String: Any]
        #expect(totals?["commission"] as? String == "24.00")
        #expect(object?["periodEnd"] as? String == "2026-03-15")

        let csv = try commission(["statement", "Glow", "--period", "2026-03-02", "--format", "csv", "--db", db])
        #expect(csv.stdout.hasPrefix("Sale,Date,Product,Qty,Price,Discount,Revenue,Profit,Share,Commission\r\n"))
        #expect(csv.stdout.contains(",2026-03-02,Serum 30ml,2,50.00,0.00,100.00,60.00,40.00%,24.00\r\n"))

        let report = try commission(["report", "--date", "2026-03-02", "--format", "json", "--db", db])
        let dashboard = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        #expect((dashboard?["todayTotals"] as? [String: Any])?["commission"] as? String == "24.00")
        #expect(dashboard?["currency"] as? String == "EUR")

        let table = try commission(["report", "--date", "2026-03-02", "--db", db])
        #expect(table.stdout.contains("Glow") && table.stdout.contains("24.00"))

        // Only a product: the sale goes to the clinic of the last sale, as the entry page does; and Repeat.
        let quick = try commission(["sale", "add", "Serum 30ml", "--date", "2026-03-03", "--db", db])
        #expect(
            quick.status == 0 && quick.stdout.contains("1 × Serum 30ml at Glow (your last clinic) on 2026-03-03"),
            "\(quick.stdout)\(quick.stderr)"
        )
        let repeated = try commission(["sale", "repeat", "1", "--date", "2026-03-04", "--db", db])
        #expect(
            repeated.stdout.contains("2 × Serum 30ml at Glow on 2026-03-04")
                && repeated.stdout.contains("commission 24.00"),
            "\(repeated.stdout)\(repeated.stderr)"
        )
        #expect(try commission(["sale", "void", "2", "--db", db]).status == 0)
        #expect(try commission(["sale", "void", "3", "--db", db]).status == 0)

        // Lists print the API's shapes: ids and counts are numbers, flags booleans, amounts decimal strings.
        let list = try commission(["sale", "list", "--format", "json", "--db", db])
        let sales = try JSONDecoder().decode([API.Sale].self, from: Data(list.stdout.utf8))
        #expect(sales.count == 1)  // the two above are voided
        #expect(sales.first?.quantity == 2 && sales.first?.voided == false && sales.first?.commission == "24.00")
        #expect(sales.first?.clinic == "Glow" && sales.first?.product == "Serum 30ml" && sales.first?.share == "40.00")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(
            listed.first?["id"] is Int && listed.first?["noCommission"] as? Bool == false
                && listed.first?["unitPrice"] as? String == "50.00"
        )
        let clinics = try JSONDecoder().decode(
            [API.Clinic].self,
            from: Data(try commission(["clinic", "list", "--format", "json", "--db", db]).stdout.utf8)
        )
        #expect(clinics.map(\.schedule) == ["semimonthly"] && clinics.first?.archived == false)
        let terms = try JSONDecoder().decode(
            [API.Terms].self,
            from: Data(try commission(["terms", "list", "--format", "json", "--db", db]).stdout.utf8)
        )
        #expect(
            terms.first?.share == "40.00" && terms.first?.clinic == "Glow" && terms.first?.effectiveFrom == "2026-01-01"
        )

        // The export of sales imports again into another book and gives the same statement.
        let exported = directory.appendingPathComponent("sales.csv").path
        #expect(try commission(["export", "sales", "--output", exported, "--db", db]).status == 0)
        let other = directory.appendingPathComponent("other.sqlite").path
        for arguments in [
            ["init", "--currency", "EUR"], ["clinic", "add", "Glow", "--schedule", "semimonthly"],
            ["product", "add", "Serum 30ml", "--price", "1.00"],
            ["terms", "add", "Glow", "--share", "40", "--from", "2026-01-01"],
            ["import", exported],
        ] {
            let run = try commission(arguments + ["--db", other])
            #expect(run.status == 0, "\(run.stderr)")
        }
        // A book made by `commission init` whose first sales came by import asks about them on its
        // pages (its history, to the day after the last sale); a second import asks nothing more.
        let asked = try await SQLiteStore(.file(other)).historyQuestion()
        let lastSale = try await SQLiteStore(.file(other)).sales(SaleQuery(includeVoided: true, page: Page(limit: 1)))
            .first?.date
        #expect(asked != nil && asked == lastSale.map { $0.adding(days: 1) }, "\(String(describing: asked))")
        let again = try commission(["statement", "Glow", "--period", "2026-03-02", "--format", "csv", "--db", other])
        #expect(
            again.stdout.contains(",2026-03-02,Serum 30ml,2,50.00,0.00,100.00,60.00,40.00%,24.00\r\n"),
            "\(again.stdout)"
        )

        // Every statement of a range at once: March's first half holds the one sale left.
        let all = try commission([
            "statement", "--all", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "csv", "--db", db,
        ])
        #expect(
            all.stdout.hasPrefix("Clinic,Period start,Period end,Closed,Sale,Date,Product"),
            "\(all.stdout)\(all.stderr)"
        )
        #expect(
            all.stdout.contains(
                "Glow,2026-03-01,2026-03-15,no,1,2026-03-02,Serum 30ml,2,50.00,0.00,100.00,60.00,40.00%,24.00\r\n"
            )
        )
        let allJSON = try JSONDecoder().decode(
            [API.Statement].self,
            from: Data(
                try commission(
                    [
                        "statement", "--all", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "json", "--db",
                        db,
                    ]).stdout.utf8
            )
        )
        #expect(allJSON.map(\.periodStart) == ["2026-03-01"] && allJSON.first?.totals.commission == "24.00")
        let none = try commission(["statement", "--all", "--from", "2025-01-01", "--to", "2025-01-31", "--db", db])
        #expect(none.status == 0 && none.stdout.contains("No sales or payouts in this range."))
        let both = try commission(["statement", "Glow", "--all", "--from", "2026-03-01", "--db", db])
        #expect(both.status != 0 && both.stderr.contains("leave out the clinic's name"), "\(both.stderr)")
        let thisMonth = try commission(["statement", "--all", "--to", "2026-03-20", "--format", "json", "--db", db])
        #expect(
            try JSONDecoder().decode([API.Statement].self, from: Data(thisMonth.stdout.utf8)).map(\.periodStart) == [
                "2026-03-01"
            ],
            "\(thisMonth.stdout)"
        )  // from March 1st
    }

    /// Her real terms from the command line: a clinic's price, and a change of schedule.
    @Test func aClinicsPriceAndAScheduleChange() throws {
        let db = temporaryDirectory().appendingPathComponent("book.sqlite").path
        func run(_ arguments: [String]) throws -> Run {
            let run = try commission(arguments + ["--db", db])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            return run
        }
        _ = try run(["init", "--currency", "USD", "--time-zone", "UTC"])
        _ = try run(["clinic", "add", "Glow", "--schedule", "monthly"])
        _ = try run(["product", "add", "Serum 30ml", "--price", "50.00", "--cost", "20.00", "--sku", "SER-30"])
        _ = try run(["terms", "add", "Glow", "--share", "40", "--from", "2026-01-01"])
        let set = try run(["price", "set", "Glow", "SER-30", "45.00", "--cost", "18.00", "--from", "2026-03-15"])
        #expect(set.stdout.hasPrefix("Price 1: Serum 30ml at Glow 45.00, cost 18.00 from 2026-03-15."), "\(set.stdout)")
        // 45.00 − 18.00 = 27.00 at 40% = 10.80; before the 15th, the product's 50.00: 12.00.
        #expect(
            try run(["sale", "add", "Glow", "Serum 30ml", "--date", "2026-03-20"]).stdout.contains("commission 10.80")
        )
        #expect(
            try run(["sale", "add", "Glow", "Serum 30ml", "--date", "2026-03-14"]).stdout.contains("commission 12.00")
        )
        let listed = try run(["price", "list", "--clinic", "Glow", "--format", "csv"]).stdout
        #expect(listed.contains("1,Glow,Serum 30ml,45.00,18.00,2026-03-15"), "\(listed)")
        let refused = try commission(["price", "set", "Glow", "Nothing", "1.00", "--db", db])
        #expect(refused.status == 1 && refused.stderr.contains("Nothing"))

        // Weekly on Tuesdays from 17 March: 1–16 March is a period of its own.
        let changed = try run(["clinic", "schedule", "Glow", "weekly:tuesday", "--from", "2026-03-17"])
        #expect(changed.stdout.contains("is paid monthly, then weekly:tuesday from 2026-03-17."), "\(changed.stdout)")
        let statement = try run(["statement", "Glow", "--period", "2026-03-14", "--format", "json"]).stdout
        #expect(
            statement.contains("\"periodEnd\":\"2026-03-16\"") || statement.contains("\"periodEnd\" : \"2026-03-16\""),
            "\(statement)"
        )
        _ = try run(["period", "close", "Glow", "--period", "2026-03-02"])
        let overClosed = try commission(["clinic", "schedule", "Glow", "--remove", "2026-03-17", "--db", db])
        #expect(
            overClosed.status == 1 && overClosed.stderr.contains("closed period 2026-03-01…2026-03-16"),
            "\(overClosed.stderr)"
        )
        _ = try run(["price", "remove", "1"])
        #expect(try run(["price", "list"]).stdout.contains("Serum") == false)

        // Tiers and a deduction in April: 4 × (50.00 − 20.00) = 120.00 profit; 40% = 48.00; 20.00
        // beyond 100.00 at +10% = 2.00; less rent 5.00: 45.00 net payable.
        let terms = try run(["terms", "add", "Glow", "--share", "40", "--tier", "100.00:50%", "--from", "2026-04-01"])
        #expect(
            terms.stdout.contains("40.00% of profit at Glow, 50.00% beyond 100.00 from 2026-04-01"),
            "\(terms.stdout)"
        )
        #expect(
            try commission(["terms", "add", "Glow", "--share", "40", "--tier", "100", "--db", db]).stderr.contains(
                "is not a tier"
            )
        )
        let rent = try run(["deduction", "add", "Glow", "Room rent", "--amount", "5.00", "--from", "2026-04-01"])
        #expect(rent.stdout == "Deduction 1: Room rent, 5.00 a period, from 2026-04-01 at Glow.\n", "\(rent.stdout)")
        _ = try run(["sale", "add", "Glow", "Serum 30ml", "4", "--date", "2026-04-07"])
        let april = try run(["statement", "Glow", "--period", "2026-04-07"]).stdout
        #expect(
            april.contains("Accelerator") && april.contains("Less Room rent") && april.contains("Net payable"),
            "\(april)"
        )
        let json = try run(["statement", "Glow", "--period", "2026-04-07", "--format", "json"]).stdout
        #expect(json.contains("\"netPayable\":\"45.00\"") || json.contains("\"netPayable\" : \"45.00\""), "\(json)")
        #expect(try run(["deduction", "end", "1", "--on", "2026-04-30"]).stdout.contains("through 2026-04-30"))
        #expect(try run(["deduction", "list"]).stdout.contains("Room rent"))
    }

    /// Several files given to one `import` land together or not at all: a bad row in the last
    /// leaves the first ones unwritten, and the error names the file; mended, all of them land.
    /// Her history in one pass: what the sales need that the book lacks is said with where the
    /// file has it, made with them by --create-missing, or written to fill in by --write-missing.
    @Test func herHistoryComesInOnePass() throws {
        let directory = temporaryDirectory()
        let db = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["init", "--currency", "EUR", "--time-zone", "Europe/Berlin", "--db", db]).status == 0)
        let history = file(
            "history.csv",
            """
            date,clinic,product,quantity,unit price,unit cost
            2026-09-02,Praxis Mitte,Hyaluron Serum,2,89.00,31.00
            2026-09-07,Haut & Co,Hyaluron Serum,1,,
            2026-10-01,Haut & Co,Peeling Set,3,45.50,12.00

            """,
            in: directory
        )
        let asked = try commission(["import", history, "--db", db])
        #expect(asked.status != 0)
        #expect(
            asked.stderr.contains(
                "Praxis Mitte (first sale 2026-09-02, line 2), Haut & Co (first sale 2026-09-07, line 3)"
            )
                && asked.stderr.contains("Hyaluron Serum (89.00, cost 31.00, line 2)")
                && asked.stderr.contains("--create-missing"),
            "\(asked.stderr)"
        )
        // Without a share for the new clinics, the flag says so; nothing is made.
        let noShare = try commission(["import", history, "--create-missing", "--db", db])
        #expect(noShare.status != 0 && noShare.stderr.contains("--share PERCENT"), "\(noShare.stderr)")

        // Written to fill in: files `commission import` reads, and the command that imports them.
        let additions = directory.appendingPathComponent("additions").path
        let written = try commission(["import", history, "--write-missing", additions, "--db", db])
        #expect(written.status == 0, "\(written.stderr)")
        let terms = try String(contentsOfFile: additions + "/terms.csv", encoding: .utf8)
        #expect(
            terms
                == "clinic,share,basis,effective from\nPraxis Mitte,,profit,2026-09-02\nHaut & Co,,profit,2026-09-07\n"
        )
        #expect(
            written.stdout.contains(
                "commission import \(additions)/clinics.csv \(additions)/products.csv \(additions)/terms.csv \(history)"
            )
        )
        #expect(
            try commission(["clinic", "list", "--format", "csv", "--db", db]).stdout.split(separator: "\n").count == 1
        )

        let made = try commission([
            "import", history, "--create-missing", "--schedule", "semimonthly", "--share", "50", "--db", db,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("imported 2 clinics, 2 products, 2 terms, 3 sales"), "\(made.stdout)")
        // (89.00 − 31.00) × 2 × 50%: her split from the first sale there, on the schedule given.
        let statement = try commission([
            "statement", "Praxis Mitte", "--period", "2026-09-02", "--format", "json", "--db", db,
        ])
        #expect(
            statement.stdout.contains("\"commission\" : \"58.00\"") && statement.stdout.contains("2026-09-15"),
            "\(statement.stdout)"
        )
    }

    @Test func filesImportedTogetherLandWholeOrNotAtAll() throws {
        let directory = temporaryDirectory()
        let db = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["init", "--currency", "USD", "--db", db]).status == 0)
        let clinics = file("clinics.csv", "name,schedule\nGlow,monthly\n", in: directory)
        let products = file("products.csv", "name,unit price,unit cost\nSerum 30ml,50.00,20.00\n", in: directory)
        let terms = file("terms.csv", "clinic,share,effective from\nGlow,40,2026-01-01\n", in: directory)
        let badSales = file(
            "sales.csv",
            "date,clinic,product\n2026-03-02,Glow,Serum 30ml\n2026-03-03,Glwo,Serum 30ml\n",
            in: directory
        )
        let refused = try commission(["import", clinics, products, terms, badSales, "--db", db])
        #expect(refused.status != 0)
        // A clinic the book lacks (here misspelt) is named with where the file first has it, and
        // what would make it in the same step.
        #expect(
            refused.stderr.contains("4 files: The sales need what the book lacks")
                && refused.stderr.contains("Glwo (first sale 2026-03-03, \(badSales), line 3)")
                && refused.stderr.contains("Nothing was imported") && refused.stderr.contains("--create-missing"),
            "\(refused.stderr)"
        )
        #expect(
            try commission(["clinic", "list", "--format", "json", "--db", db]).stdout.filter { !$0.isWhitespace }
                == "[]"
        )

        let sales = file(
            "sales.csv",
            "date,clinic,product\n2026-03-02,Glow,Serum 30ml\n2026-03-03,Glow,Serum 30ml\n",
            in: directory
        )
        let landed = try commission(["import", clinics, products, terms, sales, "--db", db])
        #expect(landed.status == 0, "\(landed.stderr)")
        #expect(landed.stdout.contains("imported 1 clinic, 1 product, 1 terms, 2 sales."), "\(landed.stdout)")
        let statement = try commission(["statement", "Glow", "--period", "2026-03-02", "--format", "json", "--db", db])
            .stdout
        #expect(statement.contains("\"commission\" : \"24.00\""), "\(statement)")

        // The same files a second time are recognised by their bytes, not refused clinic by clinic.
        let rerun = try commission(["import", clinics, products, terms, sales, "--db", db])
        #expect(rerun.status != 0)
        #expect(
            rerun.stderr.contains("clinics.csv was imported before, on ") && rerun.stderr.contains("--again")
                && !rerun.stderr.contains("already exists"),
            "\(rerun.stderr)"
        )
        let more = file("more.csv", "date,clinic,product\n2026-03-04,Glow,Serum 30ml\n", in: directory)
        #expect(try commission(["import", more, "--db", db]).status == 0)
        #expect(try commission(["import", more, "--db", db]).stderr.contains("more.csv was imported before"))
        #expect(try commission(["import", more, "--again", "--db", db]).status == 0)
        let count =
            try JSONSerialization.jsonObject(
                with: Data(try commission(["sale", "list", "--format", "json", "--db", db]).stdout.utf8)
            ) as? [Any]
        #expect(count?.count == 4)
    }

    @Test func demoBuildsABookAndPrintsItsDashboard() throws {
        let home = temporaryDirectory()
        let run = try commission(["demo"], environment: ["XDG_DATA_HOME": home.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Year to date"))
        for clinic in ["Glow Aesthetics", "Harbor Skin Clinic", "Lumen Dermatology", "Northside Day Spa"] {
            #expect(run.stdout.contains(clinic))
        }
        let path = home.appendingPathComponent("commission/demo.sqlite").path
        #expect(FileManager.default.fileExists(atPath: path))
        // The demo's payouts leave periods that stand out: Harbor was paid 25.00 short once.
        let reconcile = try commission(["reconcile", "Harbor Skin Clinic", "--format", "json", "--db", path])
        #expect(reconcile.stdout.contains("\"difference\" : \"25.00\""), "\(reconcile.stdout)")
        #expect(reconcile.stdout.contains("\"status\" : \"underpaid\""))
        // Running it again rebuilds the same book rather than failing.
        #expect(try commission(["demo"], environment: ["XDG_DATA_HOME": home.path]).status == 0)
    }

    @Test func theDefaultBookFollowsXDGAndCommissionDB() throws {
        let home = temporaryDirectory()
        #expect(try commission(["clinic", "add", "Glow"], environment: ["XDG_DATA_HOME": home.path]).status == 0)
        #expect(
            FileManager.default.fileExists(atPath: home.appendingPathComponent("commission/commission.sqlite").path)
        )
        let explicit = home.appendingPathComponent("elsewhere.sqlite").path
        #expect(
            try commission(
                ["clinic", "add", "Harbor"],
                environment: ["XDG_DATA_HOME": home.path, "COMMISSION_DB": explicit]
            ).status == 0
        )
        let list = try commission(["clinic", "list", "--format", "csv", "--db", explicit])
        #expect(list.stdout.contains("Harbor") && !list.stdout.contains("Glow"))
    }

    @Test func backupAndRestoreKeepEveryFigure() throws {
        let home = temporaryDirectory()
        let demo = home.appendingPathComponent("demo.sqlite").path
        #expect(try commission(["demo", "--db", demo]).status == 0)
        let backup = home.appendingPathComponent("backup.sqlite").path
        #expect(try commission(["backup", backup, "--db", demo]).status == 0)
        let reportBefore = try commission(["reconcile", "--format", "json", "--date", "2026-11-22", "--db", demo])
            .stdout

        let fresh = home.appendingPathComponent("fresh.sqlite").path
        #expect(try commission(["restore", backup, "--db", fresh]).status == 0)
        #expect(
            try commission(["reconcile", "--format", "json", "--date", "2026-11-22", "--db", fresh]).stdout
                == reportBefore
        )
        // Restoring over a book with sales needs --force; a file that is not a backup is refused.
        #expect(try commission(["restore", backup, "--db", fresh]).status == 1)
        let junk = file("junk.sqlite", "not a database", in: home)
        let refused = try commission(["restore", junk, "--force", "--db", fresh])
        #expect(refused.status == 1 && refused.stderr.contains("not an SQLite database"), "\(refused.stderr)")
        #expect(
            try commission(["reconcile", "--format", "json", "--date", "2026-11-22", "--db", fresh]).stdout
                == reportBefore
        )
    }
}

@Suite struct WatchTests {
    @Test(.timeLimit(.minutes(10))) func watchRedrawsWhenAnotherProcessRecordsASale() async throws {
        let directory = temporaryDirectory()
        let db = directory.appendingPathComponent("book.sqlite").path
        #expect(try commission(["demo", "--db", db]).status == 0)

        let process = Process()
        process.executableURL = commissionExecutable
        process.arguments = ["watch", "--count", "2", "--db", db]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }  // the time limit ended the test: no watch left behind
        // Read as it comes, to its end, on a thread of its own (a blocking read on the test's
        // would not heed the time limit).
        final class Read: Sendable { let state = Mutex((text: "", ended: false)) }
        let read = Read()
        let handle = output.fileHandleForReading
        Thread.detachNewThread {
            // availableData: what is there (a read of a length waits for all of it); empty at the end.
            while case let data = handle.availableData, !data.isEmpty {
                read.state.withLock { $0.text += String(decoding: data, as: UTF8.self) }
            }
            read.state.withLock { $0.ended = true }
        }
        // Wait for the first drawing, then record a sale from another process (however long a busy
        // machine takes: the time limit ends a watch that never draws or never redraws).
        while !read.state.withLock({ $0.text.contains("Watching") || $0.ended }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(read.state.withLock { $0.text.contains("Watching") })
        let sale = try commission(["sale", "add", "Glow Aesthetics", "SPF-50", "3", "--price", "1000.00", "--db", db])
        #expect(sale.status == 0, "\(sale.stderr)")
        // it ended after its second drawing
        while !read.state.withLock({ $0.ended }) { try await Task.sleep(for: .milliseconds(20)) }
        let text = read.state.withLock { $0.text }
        // The second drawing's "Today" revenue is the first one's plus 3 × 1000.00 (the demo may
        // already hold sales dated today, so the difference is what is checked).
        #expect(text.components(separatedBy: "Watching").count == 3)
        let todayRevenue = text.split(separator: "\n")
            .filter { $0.hasPrefix("Today ") }
            .compactMap { line in
                line.split(separator: " ").dropFirst(2).first.map { Int($0.replacingOccurrences(of: ".", with: "")) }
                    ?? nil
            }
        #expect(todayRevenue.count == 2)
        if todayRevenue.count == 2 { #expect(todayRevenue[1] - todayRevenue[0] == 300_000) }
    }
}

/// `commission sync`: a laptop's book kept equal to a server's, offline in between.
@Suite struct SyncCLITests {
    @Test("A laptop takes the server's book, sends its offline sale, and says when the server is away")
    func laptopSyncsItsOfflineSale() async throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let serverBook = folder.appendingPathComponent("server.sqlite").path,
            laptop = folder.appendingPathComponent("laptop.sqlite").path
        #expect(try commission(["demo", "--db", serverBook]).status == 0)
        let store = try SQLiteStore(.file(serverBook))
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")
        let token = "cm_sync_\(UUID().uuidString)"
        _ = try await store.createToken(
            account: owner.id,
            name: "laptop",
            tokenDigest: WebSecrets.digest(token),
            now: Date()
        )
        let server = try ServerProcess(["--db", serverBook])
        try await server.waitUntilAnswering(HTTPClient.shared)

        let first = try commission(
            ["sync", "--db", laptop, "--url", server.base],
            environment: ["COMMISSION_TOKEN": token]
        )
        #expect(
            first.status == 0 && first.stdout.contains("This book now equals the server's (its whole book was taken)."),
            "\(first.stdout) \(first.stderr)"
        )
        let sales = try await store.countSales(SaleQuery(includeVoided: true))
        #expect(try await SQLiteStore(.file(laptop)).countSales(SaleQuery(includeVoided: true)) == sales)

        // Recorded on the laptop (no network needed), then sent: once, however often the sync runs.
        let clinic = try #require(try await store.clinics(ClinicQuery()).first),
            product = try #require(try await store.products(ProductQuery()).first)
        let today = try await store.settings().today()
        let sale = try commission([
            "sale", "add", clinic.name, product.name, "--date", today.description, "--note", "on the train", "--db",
            laptop,
        ])
        #expect(sale.status == 0, "\(sale.stderr)")
        let sent = try commission(["sync", "--db", laptop, "--url", server.base, "--token", token])
        #expect(
            sent.status == 0 && sent.stdout.contains("Sent 1 change to the server.")
                && sent.stdout.contains("(its changes were taken)"),
            "\(sent.stdout) \(sent.stderr)"
        )
        #expect(
            try commission(["sync", "--db", laptop, "--url", server.base, "--token", token]).stdout.contains(
                "Nothing new to send."
            )
        )
        #expect(try await store.sales(SaleQuery(text: "on the train")).count == 1)

        server.stop()
        let away = try commission(["sync", "--db", laptop, "--url", server.base, "--token", token])
        #expect(away.status != 0 && away.stderr.contains("cannot be reached"), "\(away.stderr)")
        let noToken = try commission(["sync", "--db", laptop, "--url", server.base])
        #expect(noToken.status != 0 && noToken.stderr.contains("COMMISSION_TOKEN"))
    }
}

@Suite struct TokenCLITests {
    @Test func tokensAreCreatedListedAndRevokedForTheOwner() async throws {
        let db = temporaryDirectory().appendingPathComponent("book.sqlite").path
        let refused = try commission(["token", "create", "script", "--db", db])
        #expect(refused.status == 1 && refused.stderr.contains("no owner yet"))
        let store = try SQLiteStore(.file(db))
        let owner = try await store.createOwner(username: "ana", passwordHash: "x")

        let created = try commission(["token", "create", "laptop script", "--db", db])
        #expect(created.status == 0, "\(created.stderr)")
        let secret = try #require(created.stdout.split(separator: "\n").dropFirst().first.map(String.init))
        #expect(secret.hasPrefix("cm_") && secret.count == 67)
        // The store keeps a digest, and it finds the owner by it.
        #expect(try await store.account(tokenDigest: WebSecrets.digest(secret), now: Date())?.id == owner.id)
        #expect(try commission(["token", "list", "--db", db]).stdout.contains("laptop script"))
        let id = try #require(try await store.tokens(account: owner.id).first?.id)
        #expect(try commission(["token", "revoke", "\(id)", "--db", db]).status == 0)
        #expect(try await store.account(tokenDigest: WebSecrets.digest(secret), now: Date()) == nil)
    }
}

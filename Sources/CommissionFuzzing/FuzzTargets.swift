import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import ZIPFoundation

/// The code that reads untrusted text, driven with arbitrary bytes: by libFuzzer (`fuzz/`, built
/// with `-sanitize=fuzzer`), and by the tests, which replay every input that ever crashed it
/// (`fuzz/regressions/`). A crash, a trap or a broken round trip is a finding.
public enum FuzzTargets {
    /// Any bytes as an import file (and as a bank statement and a clinic's statement). Every
    /// outcome must be rows, problems or a thrown error whose message names the file; no row may
    /// come from beyond the input, no problem from line 0.
    public static func csvImport(_ data: Data) {
        // The first byte chooses the reading options, so that the fuzzer explores all of them.
        let options = data.first ?? 0
        let delimiters: [Character?] = [nil, ",", ";", "\t"]
        let orders: [DateOrder?] = [nil, .mdy, .dmy, .ymd]
        let format = CSVFormat(
            delimiter: delimiters[Int(options & 3)],
            decimalComma: options & 4 != 0,
            dates: orders[Int(options >> 6)]
        )
        let lines = data.count + 2
        // The same bytes as a bank statement and as a clinic's statement: rows or a refusal, never a crash.
        let origin = CSVImportSource.Origin.data(Data(data.dropFirst()), name: "fuzz.csv")
        // try?: a refusal is an outcome the fuzzer accepts; only a crash or a failed check is a finding
        if let bank = try? BankStatement(origin: origin, format: format, currency: .usd) {
            check(
                bank.deposits.allSatisfy { $0.amount > .zero && $0.line >= 2 && $0.line <= lines },
                "a deposit that is not money in, or beyond the file"
            )
        }
        // try?: a refusal is an outcome the fuzzer accepts; only a crash or a failed check is a finding
        if let theirs = try? TheirStatement(origin: origin, format: format, currency: .usd) {
            check(theirs.lines.allSatisfy { $0.line >= 2 && $0.line <= lines }, "a statement line beyond the file")
        }
        let kinds: [ImportKind?] = [nil] + ImportKind.allCases
        let kind = kinds[Int(options >> 3) % kinds.count]
        let source: CSVImportSource
        do {
            source = try CSVImportSource(
                origin: .data(Data(data.dropFirst()), name: "fuzz.csv"),
                kind: kind,
                format: format,
                currency: .usd
            )
        } catch {
            check("\(error)".contains("fuzz.csv"), "an error that does not name the file: \(error)")
            return
        }
        do {
            let problems = try source.read { row in
                check(row.line >= 2 && row.line <= lines, "a row at line \(row.line) of a \(data.count)-byte file")
            }
            for problem in problems {
                check(
                    problem.line >= 1 && problem.line <= lines,
                    "a problem at line \(problem.line) of a \(data.count)-byte file"
                )
                check(!problem.reason.isEmpty, "a problem without a reason")
            }
        } catch {
            check(!"\(error)".isEmpty, "an error without a message")
        }
    }

    /// Any text as an amount, a share and a day. What parses must print back to text that parses
    /// to the same value.
    public static func parsers(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for currency in [
            Currency.usd, try! Currency(code: "JPY", minorDigits: 0), try! Currency(code: "KWD", minorDigits: 3),
        ] {
            for separator: Character in [".", ","] {
                // try?: text that is no amount is skipped; only what parses must print back
                guard let money = try? currency.parse(text, decimalSeparator: separator) else { continue }
                let printed = currency.format(money)
                check(
                    // try?: a printed amount that does not parse is nil, which fails this check
                    (try? currency.parse(printed)) == money,
                    "\(currency.code) \(text.debugDescription) → \(money) → \(printed.debugDescription)"
                )
            }
        }
        // try?: text that is no share is skipped; only what parses must print back
        if let share = try? Share(parsing: text) {
            // try?: a printed share that does not parse is nil, which fails this check
            check((try? Share(parsing: share.description)) == share, "share \(text.debugDescription) → \(share)")
        }
        // try?: text that is no day is skipped; only what parses must print back
        if let day = try? Day(parsing: text) {
            // try?: a printed day that does not parse is nil, which fails this check
            check((try? Day(parsing: day.description)) == day, "day \(text.debugDescription) → \(day)")
        }
    }

    /// Any bytes as a bank's own file (OFX, CAMT.053, MT940), the first byte choosing which, so
    /// that the fuzzer gets past the telling of formats: every outcome is transactions or a thrown
    /// error with a sentence; each transaction is on a line of the file, dated, in a currency of
    /// three letters; as a statement, every deposit is money in.
    public static func bankFiles(_ data: Data) {
        let formats: [BankFileFormat] = [.ofx(xml: false), .ofx(xml: true), .camt053(version: "08"), .mt940]
        let format = formats[Int(data.first ?? 0) % formats.count]
        let body = Data(data.dropFirst())
        // Each format counts its lines its way (libxml2 counts a lone CR too): a line past the file's bytes is a finding.
        let lines = body.count + 1
        do {
            let file = try BankFile(body, format: format, name: "fuzz.ofx")
            for transaction in file.transactions {
                check(
                    transaction.line >= 1 && transaction.line <= lines,
                    "a transaction at line \(transaction.line) of a \(body.count)-byte file"
                )
                check(transaction.currency.count == 3, "a transaction in \(transaction.currency.debugDescription)")
            }
        } catch let error as BankFileError {
            check(!error.description.isEmpty, "a refusal without a sentence")
        } catch {
            check(false, "an error that is not a bank file's refusal: \(error)")
        }
        // try?: a refusal is an outcome the fuzzer accepts; only a crash or a failed check is a finding
        if let statement = try? BankStatement(origin: .data(body, name: "fuzz.ofx"), currency: .usd) {
            check(statement.deposits.allSatisfy { $0.amount > .zero }, "a deposit that is not money in")
        }
    }

    /// Any bytes as a workbook: as the whole `.xlsx` file, and as the XML of the one sheet of a
    /// sound container (where the fuzzer gets past the ZIP layer). Every outcome must be rows or a
    /// thrown error naming the workbook; rows come in increasing order; a number cell's text is
    /// plain decimal text of at most 15 significant digits that reads back as itself.
    public static func workbook(_ data: Data) {
        // try?: a refusal is an outcome the fuzzer accepts; only a crash is a finding
        if let workbook = try? Workbook(data: data, name: "fuzz.xlsx") {
            // try?: a refusal is an outcome the fuzzer accepts; only a crash is a finding
            for sheet in workbook.sheets { _ = try? workbook.rows(of: sheet) { _, _ in true } }
        }
        let text = String(decoding: data, as: UTF8.self)
        if let number = Workbook.decimal(text) {
            let digits = number.filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }
            check(
                digits.count <= 15 && !number.contains("e") && !number.contains("E"),
                "\(text.debugDescription) read as \(number)"
            )
            check(
                Workbook.decimal(number) == number,
                "\(text.debugDescription) → \(number) → \(Workbook.decimal(number) ?? "nil")"
            )
        }
        guard let container = sheetContainer(data) else { return }
        do {
            let workbook = try Workbook(data: container, name: "fuzz.xlsx")
            var last = 0
            for sheet in workbook.sheets {
                try workbook.rows(of: sheet) { cells, row in
                    check(row > last && row >= 1 && row <= 1_048_576, "row \(row) after row \(last)")
                    check(cells.count <= 16_384, "a row of \(cells.count) cells")
                    last = row
                    return true
                }
                // try?: run for crashes only; a refusal is an outcome the fuzzer accepts
                _ = try? workbook.importSources(currency: .usd)
            }
        } catch {
            check("\(error)".contains("fuzz.xlsx"), "an error that does not name the workbook: \(error)")
        }
    }

    /// A workbook of one sheet whose XML is `sheet`, in memory.
    static func sheetContainer(_ sheet: Data) -> Data? {
        // try?: an in-memory ZIP; failing to make it only skips this input
        guard let archive = try? Archive(data: Data(), accessMode: .create, pathEncoding: nil) else { return nil }
        let parts: [(String, Data)] = [
            (
                "xl/workbook.xml",
                Data(#"<workbook xmlns:r="r"><sheets><sheet name="Sales" r:id="rId1"/></sheets></workbook>"#.utf8)
            ),
            (
                "xl/_rels/workbook.xml.rels",
                Data(#"<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>"#.utf8)
            ),
            (
                "xl/styles.xml",
                Data(
                    #"<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="10"/></cellXfs></styleSheet>"#
                        .utf8
                )
            ),
            ("xl/worksheets/sheet1.xml", sheet),
        ]
        for (path, data) in parts {
            guard
                // try?: an entry that cannot be added only skips this input
                (try? archive.addEntry(
                    with: path,
                    type: .file,
                    uncompressedSize: Int64(data.count),
                    provider: { position, size in
                        data.subdata(in: Int(position)..<Int(position) + size)
                    }
                )) != nil
            else { return nil }
        }
        return archive.data
    }

    /// A finding: stops the process with the reason, which libFuzzer reports with the input.
    static func check(_ condition: Bool, _ reason: @autoclosure () -> String) {
        if !condition { fatalError("fuzz finding: \(reason())") }
    }
}

import CommissionCore
import CommissionKit
import CommissionStore
import Foundation

/// The code that reads untrusted text, driven with arbitrary bytes: by libFuzzer (`fuzz/`, built
/// with `-sanitize=fuzzer`), and by the tests, which replay every input that ever crashed it
/// (`fuzz/regressions/`). A crash, a trap or a broken round trip is a finding.
public enum FuzzTargets {
    /// Any bytes as an import file. Every outcome must be rows, problems or a thrown error whose
    /// message names the file; no row may come from beyond the input, no problem from line 0.
    public static func csvImport(_ data: Data) {
        // The first byte chooses the reading options, so that the fuzzer explores all of them.
        let options = data.first ?? 0
        let delimiters: [Character?] = [nil, ",", ";", "\t"]
        let format = CSVFormat(delimiter: delimiters[Int(options & 3)], decimalComma: options & 4 != 0)
        let kinds: [ImportKind?] = [nil] + ImportKind.allCases
        let kind = kinds[Int(options >> 3) % kinds.count]
        let source: CSVImportSource
        do {
            source = try CSVImportSource(origin: .data(Data(data.dropFirst()), name: "fuzz.csv"), kind: kind, format: format, currency: .usd)
        } catch {
            check("\(error)".contains("fuzz.csv"), "an error that does not name the file: \(error)")
            return
        }
        let lines = data.count + 2
        do {
            let problems = try source.read { row in
                check(row.line >= 2 && row.line <= lines, "a row at line \(row.line) of a \(data.count)-byte file")
            }
            for problem in problems {
                check(problem.line >= 1 && problem.line <= lines, "a problem at line \(problem.line) of a \(data.count)-byte file")
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
        for currency in [Currency.usd, try! Currency(code: "JPY", minorDigits: 0), try! Currency(code: "KWD", minorDigits: 3)] {
            for separator: Character in [".", ","] {
                guard let money = try? currency.parse(text, decimalSeparator: separator) else { continue }
                let printed = currency.format(money)
                check((try? currency.parse(printed)) == money, "\(currency.code) \(text.debugDescription) → \(money) → \(printed.debugDescription)")
            }
        }
        if let share = try? Share(parsing: text) {
            check((try? Share(parsing: share.description)) == share, "share \(text.debugDescription) → \(share)")
        }
        if let day = try? Day(parsing: text) {
            check((try? Day(parsing: day.description)) == day, "day \(text.debugDescription) → \(day)")
        }
    }

    /// A finding: stops the process with the reason, which libFuzzer reports with the input.
    static func check(_ condition: Bool, _ reason: @autoclosure () -> String) {
        if !condition { fatalError("fuzz finding: \(reason())") }
    }
}

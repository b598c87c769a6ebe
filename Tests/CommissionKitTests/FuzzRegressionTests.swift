import CommissionFuzzing
import Foundation
import Testing

/// Every input a fuzz target ever crashed on (`fuzz/regressions/`), and the seeds, run through the
/// same entry points in every test run: a fixed finding stays fixed. (The fuzzing itself is
/// `scripts/fuzz`, which `scripts/test` runs for a bounded time.)
@Suite struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fuzz")

    static func inputs(_ target: String) -> [URL] {
        ["regressions", "corpus"].flatMap { folder in
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted().map {
                directory.appendingPathComponent($0)
            }
        }
    }

    @Test func everyKeptInputOfTheCSVImportTargetRunsClean() throws {
        let inputs = Self.inputs("csv-import")
        #expect(inputs.count >= 3)
        for input in inputs { FuzzTargets.csvImport(try Data(contentsOf: input)) }
    }

    @Test func everyKeptInputOfTheWorkbookTargetRunsClean() throws {
        let inputs = Self.inputs("workbook")
        #expect(inputs.count >= 4)
        for input in inputs { FuzzTargets.workbook(try Data(contentsOf: input)) }
    }

    @Test func everyKeptInputOfTheBankFilesTargetRunsClean() throws {
        let inputs = Self.inputs("bank-files")
        #expect(inputs.count >= 4)
        for input in inputs { FuzzTargets.bankFiles(try Data(contentsOf: input)) }
    }

    @Test func everyKeptInputOfTheParsersTargetRunsClean() throws {
        let inputs = Self.inputs("parsers")
        #expect(inputs.count >= 4)
        for input in inputs { FuzzTargets.parsers(try Data(contentsOf: input)) }
    }
}

import CommissionCore
import CommissionSQLite
import CommissionStore
import Foundation
import Testing

/// A fresh directory for one test's files.
func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("commission-kit-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes `bytes` to a new file and returns its path.
func file(_ name: String, _ bytes: [UInt8], in directory: URL) -> String {
    let url = directory.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    return url.path
}

func file(_ name: String, _ text: String, in directory: URL) -> String {
    file(name, Array(text.utf8), in: directory)
}

/// The result of running the real `commission` executable.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The `commission` executable the tests start: `COMMISSION_EXECUTABLE` when set (scripts/test sets
/// the release binary the README's first command builds: what ships is what is tested), else the
/// one SwiftPM built next to the test bundle.
let commissionExecutable: URL = {
    if let given = ProcessInfo.processInfo.environment["COMMISSION_EXECUTABLE"], !given.isEmpty {
        guard FileManager.default.isExecutableFile(atPath: given) else {
            fatalError("COMMISSION_EXECUTABLE is \(given), which is not an executable")
        }
        return URL(fileURLWithPath: given)
    }
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        Bundle.main.bundleURL.deletingLastPathComponent(),
        Bundle.main.bundleURL,
    ]
    for directory in candidates {
        var url = directory
        // Inside an .xctest bundle, climb out of it.
        while url.path != "/" {
            let candidate = url.appendingPathComponent("commission")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                return candidate
            }
            url = url.deletingLastPathComponent()
            if url.lastPathComponent == ".build" { break }
        }
    }
    fatalError("the commission executable was not found next to the tests")
}()

/// Runs `commission` with `arguments`, with XDG_DATA_HOME pointing at a private directory.
func commission(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = commissionExecutable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["COMMISSION_DB"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self)
    )
}

/// A SHA-256 of the database's whole content, as Debian's `sqlite3 .dump` prints it: schema and rows.
/// Computed by programs independent of Commission's code.
func contentChecksum(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "sqlite3 \"$1\" .dump | sha256sum", "sh", path]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(process.terminationStatus == 0 && text.count > 64, "sqlite3 .dump failed")
    return text
}

func day(_ text: String) -> Day { try! Day(parsing: text) }
func cents(_ minor: Int64) -> Money { Money(minorUnits: minor) }

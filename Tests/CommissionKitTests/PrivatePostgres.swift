import Foundation
import Testing

/// A PostgreSQL server of the test's own, in a new cluster under /tmp, on a free port of 127.0.0.1:
/// one the test may stop and start again (the shared throw-away server of `scripts/test` is every
/// test's). Made with the same tools `scripts/with-postgres` uses (run as the package's `postgres`
/// user when the tests run as root); removed by ``remove()``.
final class PrivatePostgres: Sendable {
    let directory: String
    let port: Int
    let bin: String

    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    init() async throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            throw Failure("PostgreSQL's server tools are not installed (scripts/with-postgres installs them).")
        }
        bin = "/usr/lib/postgresql/\(version)/bin"
        directory = "/tmp/commission-private-postgres-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try ServerSocketPort().port
        if getuid() == 0 { try await Self.run("/bin/chown", ["postgres", directory]) }
        try await run("initdb", ["-D", "\(directory)/data", "-A", "trust", "-U", "postgres"])
        try await start()
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    func start() async throws {
        try await run("pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-o",
                           "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
    }

    /// Stops the server at once (`-m fast`: open connections are cut, as when a database goes away).
    func stop() async throws {
        try await run("pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
    }

    func remove() async {
        try? await stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ tool: String, _ arguments: [String]) async throws {
        if getuid() == 0 {
            try await Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(bin)/\(tool)"] + arguments)
        } else {
            try await Self.run("\(bin)/\(tool)", arguments)
        }
    }

    /// Runs a tool through a shell that first closes every descriptor but the standard ones: the
    /// server `pg_ctl` leaves running must not inherit the test process's own (Foundation waits for
    /// one of them to close before it sees the tool end). Its end is awaited, not waited for: a
    /// blocking `waitUntilExit` holds one of the few threads the server under test runs on.
    private static func run(_ path: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#, "bash", path]
            + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else {
            throw Failure("\(path) \(arguments.joined(separator: " ")) failed (status \(status)); the server's log is beside its data")
        }
    }
}

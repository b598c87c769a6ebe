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
    /// The server's own settings (`-c name=value …`), kept for every start.
    let settings: String

    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    /// A new cluster; `settings` are more of the server's (`-c synchronous_standby_names=*`).
    init(settings: String = "") async throws {
        (bin, directory, port, self.settings) = try await Self.place(settings: settings)
        do {
            try await run("initdb", ["-D", "\(directory)/data", "-A", "trust", "-U", "postgres"])
            try await start()
        } catch {
            await remove()
            throw error
        }
    }

    /// A hot standby of `primary`, copied from it with `pg_basebackup -R` (it streams the
    /// primary's WAL from then on), started.
    init(standbyOf primary: PrivatePostgres) async throws {
        (bin, directory, port, settings) = try await Self.place(settings: "")
        do {
            try await run(
                "pg_basebackup",
                [
                    "-D", "\(directory)/data", "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "postgres", "-R", "-X",
                    "stream",
                ]
            )
            try await start()
        } catch {
            await remove()
            throw error
        }
    }

    private static func place(
        settings: String
    ) async throws -> (bin: String, directory: String, port: Int, settings: String) {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            throw Failure("PostgreSQL's server tools are not installed (scripts/with-postgres installs them).")
        }
        let directory = "/tmp/commission-private-postgres-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try await Self.run("/bin/chown", ["postgres", directory]) }
        return ("/usr/lib/postgresql/\(version)/bin", directory, try ServerSocketPort().port, settings)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    func start() async throws {
        try await run(
            "pg_ctl",
            [
                "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off \(settings)", "start",
            ]
        )
    }

    /// Kills the server at once — SIGKILL to its postmaster and its backends (the process group
    /// `pg_ctl` starts it in): the machine lost, nothing flushed or said.
    func kill() throws {
        let pidFile = try String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8)
        guard let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw Failure("no postmaster.pid in \(directory)")
        }
        if Foundation.kill(-pid, SIGKILL) != 0 { Foundation.kill(pid, SIGKILL) }
    }

    /// Promotes a standby to primary (`pg_ctl promote`, waiting until it is).
    func promote() async throws {
        try await run("pg_ctl", ["-D", "\(directory)/data", "-w", "promote"])
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
        process.arguments =
            [
                "-c",
                #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#,
                "bash", path,
            ]
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
            throw Failure(
                "\(path) \(arguments.joined(separator: " ")) failed (status \(status)); the server's log is beside its data"
            )
        }
    }
}

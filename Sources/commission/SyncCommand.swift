import ArgumentParser
import AsyncHTTPClient
import CommissionClient
import CommissionStore
import Foundation
import OpenAPIAsyncHTTPClient

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep this book equal to a book on a Commission server (local-first).",
        discussion: """
            Sends what was recorded in this book since the last sync — new clinics and products, \
            sales (new, changed, voided), payouts (new, removed), periods closed or reopened — then \
            takes what changed on the server since the last sync (its own sales back among them), so \
            that this book equals the server's: a few kilobytes, whatever the size of the book. It takes \
            the server's whole book instead when the server's book was restored or replaced since, or \
            when a change made here did not reach it. Work offline in between: a sale is sent with an idempotency key, so a sync cut off by the network is \
            simply run again, and nothing is recorded twice.

            The server's rules decide: a sale into a period the clinic has closed meanwhile is \
            refused, and the sync says which and why (the server's book, taken back, does not have \
            it). Changes of terms, prices, deductions and settings are made on the server.

            The first sync of a book takes the server's book whole, so it needs an empty book \
            (a new --db file). What the sync has sent is kept beside the book (BOOK.sync.json).

            The token is an API token of the server's book (its Settings page, or `commission token \
            create` on the server), given with --token or COMMISSION_TOKEN.

            Examples:
              COMMISSION_TOKEN=cm_… commission sync --db laptop.sqlite --url https://commission.example.org
              commission sync --db laptop.sqlite --url http://127.0.0.1:8080 --token cm_…
            """
    )

    @OptionGroup var book: BookOptions
    @Option(help: ArgumentHelp("The server's address.", valueName: "url")) var url: String
    @Option(help: ArgumentHelp("An API token of the server's book (default: COMMISSION_TOKEN).", valueName: "token"))
    var token: String?

    func run() async throws {
        guard let server = URL(string: url), let scheme = server.scheme, ["http", "https"].contains(scheme),
            server.host != nil
        else {
            throw ValidationError(
                "The server's address is a URL such as https://commission.example.org, not \"\(url)\"."
            )
        }
        guard let token = token ?? ProcessInfo.processInfo.environment["COMMISSION_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give an API token of the server's book: --token TOKEN, or COMMISSION_TOKEN.")
        }
        let local = try book.open()
        // A server that does not answer is said within 10 seconds; a slow download of a big book is not cut off.
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(timeout: .init(connect: .seconds(10), read: .seconds(120)))
        )
        let transport = AsyncHTTPClientTransport(configuration: .init(client: http, timeout: .hours(1)))
        let sync = BookSync(
            local: local,
            remote: HTTPStore(url: server, token: token, transport: transport),
            statePath: book.path + ".sync.json"
        )
        let report: SyncReport
        do {
            report = try await sync.sync()
            try await http.shutdown()
        } catch {
            // try?: closing the client on the way out with the sync's error, which is what she must see
            try? await http.shutdown()
            throw error
        }
        var lines: [String] = []
        lines.append(
            report.pushed == 0
                ? "Nothing new to send." : "Sent \(report.pushed) change\(report.pushed == 1 ? "" : "s") to the server."
        )
        lines.append(
            report.tookWholeBook
                ? "This book now equals the server's (its whole book was taken)."
                : report.pulled
                    ? "This book now equals the server's (its changes were taken)."
                    : "The server's book has not moved: this book already equals it."
        )
        if !report.refused.isEmpty {
            lines.append("Not taken by the server (\(report.refused.count)):")
            lines += report.refused.map { "  \($0)" }
        }
        output(lines.joined(separator: "\n") + "\n")
    }
}

import AsyncHTTPClient
import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import NIOCore

/// Every page of the web app as her browser asks for it — signed in with a session cookie, the
/// whole HTML read — on a book: the time of each request over loopback (the server's time and a
/// loopback hop), p50 and p99, and the page's size. Issue 51's rule is the dashboard's: a page at
/// 1M sales within 30 ms and 300 KB, and no more than twice its time at 10k.
struct PageBench {
    /// A page measured: its time and size.
    struct Figure {
        var timing: Timing
        var bytes: Int
    }

    /// The pages, each by a name and its path in this book: the busiest clinic's (or the first's)
    /// statement, clinic page and periods; a product's sales.
    static func pages(
        clinic: Clinic.ID?,
        product: Product.ID?,
        sale: Sale.ID?,
        today: Day
    ) -> [(name: String, path: String)] {
        var pages: [(String, String)] = [
            ("/ (Sale)", "/"), ("/dashboard", "/dashboard"), ("/sales", "/sales"), ("/statements", "/statements"),
            ("/payouts", "/payouts"), ("/year", "/year"), ("/book", "/book"), ("/compare", "/compare"),
            ("/transfer", "/transfer"), ("/settings", "/settings"), ("/more", "/more"),
        ]
        if let clinic {
            pages += [
                ("/statements?clinic", "/statements?clinic=\(clinic)"),
                // Its last whole period: a busy clinic's month.
                (
                    "/statements?clinic&date (last month)",
                    "/statements?clinic=\(clinic)&date=\(today.firstOfMonth.adding(days: -1))"
                ),
                ("/book/clinics/:id", "/book/clinics/\(clinic)"),
                ("/payouts/clinics/:id", "/payouts/clinics/\(clinic)"),
            ]
        }
        if let product { pages.append(("/sales?product", "/sales?product=\(product)")) }
        if let clinic, let product {
            pages.append(("/sales?clinic&product", "/sales?clinic=\(clinic)&product=\(product)"))
        }
        if let sale { pages.append(("/sales/:id/edit", "/sales/\(sale)/edit")) }
        return pages
    }

    /// Each page of `store`'s book, served in this process as `commission serve` serves it: at
    /// most `repetitions` requests each after one to warm it, or fewer for a page slower than
    /// `budget` seconds in all (at least three). `only`: the pages whose name is one of these.
    static func measure(
        _ store: SQLiteStore,
        clinic: Clinic.ID?,
        repetitions: Int = 20,
        budget: Double = 10,
        only: [String]? = nil
    ) async throws -> [(name: String, path: String, figure: Figure)] {
        let server = try await BenchServer(store: store)
        defer { server.stop() }
        guard let owner = try await store.ownerAccount() else { throw StoreError.storage("the book has no owner") }
        let secret = WebSecrets.make()
        try await store.createSession(
            account: owner.id,
            tokenDigest: WebSecrets.digest(secret),
            csrfToken: WebSecrets.make(),
            expiresAt: Date().addingTimeInterval(86_400)
        )
        let product = try await store.sales(SaleQuery(clinicID: clinic, page: Page(limit: 1))).first?.productID
        let sale = try await store.sales(SaleQuery(page: Page(limit: 1))).first?.id
        var figures: [(name: String, path: String, figure: Figure)] = []
        let today = try await store.settings().today()
        for (name, path) in pages(clinic: clinic, product: product, sale: sale, today: today)
        where only?.contains(name) ?? true {
            func fetch() async throws -> Int {
                var request = HTTPClientRequest(url: server.base + path)
                request.headers.add(name: "Cookie", value: "commission_session=\(secret)")
                request.headers.add(name: "Accept", value: "text/html")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                let body = try await response.body.collect(upTo: 256 * 1024 * 1024)
                guard response.status == .ok else {
                    throw StoreError.storage(
                        "\(path) answered \(response.status.code): \(String(buffer: body).prefix(200))"
                    )
                }
                return body.readableBytes
            }
            let bytes = try await fetch()
            var samples: [Double] = []
            let started = ContinuousClock.now
            while samples.count < repetitions, samples.count < 3 || (ContinuousClock.now - started).seconds < budget {
                let start = ContinuousClock.now
                _ = try await fetch()
                samples.append((ContinuousClock.now - start).seconds * 1000)
            }
            figures.append((name, path, Figure(timing: Timing(samples: samples), bytes: bytes)))
        }
        return figures
    }

    /// The rows of one book's pages: each page's p50 against the same page at 10k sales (`small`,
    /// nil for the 10k book itself), its p99, and its size.
    static func report(
        _ figures: [(name: String, path: String, figure: Figure)],
        size: Int,
        store: String,
        small: [String: Double]?,
        into report: inout Report
    ) {
        for (name, _, figure) in figures {
            let p50 = figure.timing.p50, baseline = small?[name]
            report.add(
                "page \(name) at \(size) (\(store)): p50",
                measured: p50,
                unit: "ms",
                baseline: baseline,
                baselineName: baseline == nil ? nil : "the same page at 10000 sales",
                target: "≤ 30 ms, ≤ 2× at 10k",
                met: p50 <= 30 && baseline.map { p50 <= 2 * $0 } ?? true
            )
            report.add(
                "page \(name) at \(size) (\(store)): p99",
                measured: figure.timing.p99,
                unit: "ms",
                baseline: nil,
                baselineName: nil,
                target: nil,
                met: nil
            )
            report.add(
                "page \(name) at \(size) (\(store)): HTML",
                measured: Double(figure.bytes) / 1024,
                unit: "KB",
                baseline: nil,
                baselineName: nil,
                target: "≤ 300 KB",
                met: figure.bytes <= 300 * 1024
            )
        }
    }
}

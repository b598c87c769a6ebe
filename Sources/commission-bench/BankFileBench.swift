import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionSQLite
import CommissionStore
import Foundation

/// Her bank's own files at a busy account's size: a CAMT.053 statement of 10,000 entries read
/// into deposits, beside the same deposits as her bank's CSV read the same way (the path every
/// bank file took before the formats were read).
struct BankFileBench {
    static let entries = 10_000

    let directory: URL

    func run(report: inout Report) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var camt = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
            <GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-12-31T23:00:00</CreDtTm></GrpHdr>
            <Stmt><Id>BENCH-1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>

            """
        var csv = "Booking date,Description,Amount\n"
        for index in 0..<Self.entries {
            let day = Day(ordinal: try Day(parsing: "2026-01-01").ordinal + index % 365)
            let cents = 1000 + index * 7 % 90000
            let amount = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            let credit = index % 5 != 0
            camt += """
                <Ntry><NtryRef>\(index)</NtryRef><Amt Ccy="USD">\(amount)</Amt><CdtDbtInd>\(credit ? "CRDT" : "DBIT")</CdtDbtInd>
                <Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>\(day)</Dt></BookgDt><ValDt><Dt>\(day)</Dt></ValDt>
                <AcctSvcrRef>REF-\(index)</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>
                <RltdPties><Dbtr><Pty><Nm>CLINIC \(index % 40)</Nm></Pty></Dbtr></RltdPties>
                <RmtInf><Ustrd>PAYOUT \(index)</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>

                """
            csv += "\(day),CLINIC \(index % 40) PAYOUT \(index),\(credit ? "" : "-")\(amount)\n"
        }
        camt += "</Stmt></BkToCstmrStmt></Document>\n"
        let camtPath = directory.appendingPathComponent("camt053-10000.xml").path
        let csvPath = directory.appendingPathComponent("bank-10000.csv").path
        try camt.write(toFile: camtPath, atomically: true, encoding: .utf8)
        try csv.write(toFile: csvPath, atomically: true, encoding: .utf8)

        func read(_ path: String) throws -> Double {
            var samples: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                let statement = try BankStatement(origin: .file(path: path), currency: .usd)
                samples.append((ContinuousClock.now - start).seconds * 1000)
                guard statement.deposits.count == Self.entries * 4 / 5 else {
                    throw ValidationError("\(path): \(statement.deposits.count) deposits read")
                }
            }
            return percentile(samples, 50)
        }
        try await statementPDF(report: &report)
        let fromCAMT = try read(camtPath), fromCSV = try read(csvPath)
        report.add(
            "CAMT.053 of \(Self.entries) entries read",
            measured: fromCAMT,
            unit: "ms",
            baseline: fromCSV,
            baselineName: "the same deposits as CSV",
            target: "≤ 1 s",
            met: fromCAMT <= 1000
        )
    }

    /// A clinic's statement of 3,000 lines printed to PDF over 58 pages (the test fixture LibreOffice
    /// printed), read and compared with her book's month of the same sales, beside the same lines as CSV.
    func statementPDF(report: inout Report) async throws {
        let pdf = "Tests/CommissionKitTests/Fixtures/pdf/glow-long.pdf"
        guard FileManager.default.fileExists(atPath: pdf) else {
            note("  (no \(pdf) here: run the benchmark from the repository's root for the PDF row)")
            return
        }
        let lines = try TheirStatement(origin: .file(path: pdf), currency: .usd).lines
        let csvPath = directory.appendingPathComponent("statement-3000.csv").path
        try
            (["date,product,quantity,price,commission"]
            + lines.map {
                "\($0.date),\($0.product.contains(",") ? "\"\($0.product)\"" : $0.product),\($0.quantity),\(Currency.usd.format($0.price ?? .zero)),\(Currency.usd.format($0.commission))"
            })
            .joined(separator: "\n").write(toFile: csvPath, atomically: true, encoding: .utf8)
        // Her book: Glow's March with the same 3,000 sales, for the comparison to match line by line.
        let store = try SQLiteStore(.inMemory)
        let glow = try await store.createClinic(ClinicDraft(name: "Glow Aesthetics", schedule: .monthly))
        var products: [String: Product] = [:]
        for (name, price) in [
            ("Serum", 5000), ("Peel kit", 7000), ("Hydrating Serum with Hyaluronic Acid, 30 ml", 5000),
        ] {
            products[name] = try await store.createProduct(
                ProductDraft(name: name, unitPrice: Money(minorUnits: Int64(price)), unitCost: Money(minorUnits: 2000))
            )
        }
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2026-01-01")
            )
        )
        for line in lines {
            _ = try await store.createSale(
                SaleDraft(
                    clinicID: glow.id,
                    productID: products[line.product]!.id,
                    date: line.date,
                    quantity: line.quantity
                ),
                idempotencyKey: nil
            )
        }
        let march = glow.calendar.period(containing: try Day(parsing: "2026-03-01"))
        func compared(_ path: String) async throws -> Double {
            var samples: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                let read = try TheirStatement(origin: .file(path: path), currency: .usd)
                let comparison = try await StatementComparison.compare(read, clinic: glow, period: march, store: store)
                samples.append((ContinuousClock.now - start).seconds * 1000)
                guard read.lines.count == 3000, comparison.differing.count < 3000 else {
                    throw ValidationError(
                        "\(path): \(read.lines.count) lines read, \(comparison.differing.count) differ"
                    )
                }
            }
            return percentile(samples, 50)
        }
        let fromPDF = try await compared(pdf), fromCSV = try await compared(csvPath)
        report.add(
            "clinic statement of 3000 lines as PDF compared",
            measured: fromPDF,
            unit: "ms",
            baseline: fromCSV,
            baselineName: "the same lines as CSV",
            target: "≤ 3× baseline",
            met: fromPDF <= 3 * fromCSV
        )
    }
}

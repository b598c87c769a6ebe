import ArgumentParser
import CommissionCore
import CommissionKit
import Foundation

/// Her bank's own files at a busy account's size: a CAMT.053 statement of 10,000 entries read
/// into deposits, beside the same deposits as her bank's CSV read the same way (the path every
/// bank file took before the formats were read).
struct BankFileBench {
    static let entries = 10_000

    let directory: URL

    func run(report: inout Report) throws {
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
}

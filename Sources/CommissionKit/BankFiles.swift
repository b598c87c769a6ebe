import CommissionCore
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A transaction as her bank's own file writes it (OFX, CAMT.053, MT940): before it is a deposit.
public struct BankTransaction: Sendable, Hashable {
    /// Where it starts in the file (the line of its `<STMTTRN>`, `<Ntry>` or `:61:`); its place in
    /// the file's order when the file writes several on one line.
    public var line: Int
    /// The day the bank booked it.
    public var date: Day
    /// Money in is positive, money out negative.
    public var amount: Money
    /// The currency the file gives it, as the file spells its code ("EUR").
    public var currency: String
    /// The payer's name and the remittance text, as written.
    public var text: String
    /// The bank's own id of the transaction, when the file gives one.
    public var id: BankTransactionID?
}

/// The bank's own id of a transaction, with the name the format gives it: `FITID` (OFX),
/// `AcctSvcrRef`, `NtryRef` or `EndToEndId` (CAMT.053), `MT940` (the bank's reference of a `:61:` line).
public struct BankTransactionID: Sendable, Hashable, CustomStringConvertible {
    public var kind: String
    public var value: String

    public init(kind: String, value: String) {
        self.kind = kind
        self.value = value
    }

    /// "FITID 20260312001": how a payout's reference carries it.
    public var description: String { "\(kind) \(value)" }
}

/// The formats of bank files read by their content, not their name.
public enum BankFileFormat: Sendable, Hashable, CustomStringConvertible {
    /// OFX 1.x (SGML: leaf tags left open, what QFX and most US banks give) or 2.x (XML).
    case ofx(xml: Bool)
    /// ISO 20022 `BkToCstmrStmt`; `version` is the namespace's, such as `001.08`.
    case camt053(version: String)
    /// SWIFT MT940 (`:61:` and `:86:` lines; the German banks' `?20`–`?32` subfields read).
    case mt940

    public var description: String {
        switch self {
        case .ofx(let xml): xml ? "OFX 2 (XML)" : "OFX 1 (SGML)"
        case .camt053(let version): "CAMT.053 (camt.053.\(version))"
        case .mt940: "MT940"
        }
    }
}

/// A bank file in one of its own formats that cannot be read, in a sentence that says what to do.
public struct BankFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}

/// Her bank's file in one of the bank's own formats: its transactions, every one (money in and
/// out, in any currency: what becomes a deposit is ``BankStatement``'s to say).
public struct BankFile: Sendable {
    public let format: BankFileFormat
    public let transactions: [BankTransaction]
    /// Entries the file holds that are not yet booked (CAMT.053's pending and informational ones):
    /// never a payment to record.
    public let notBooked: Int

    /// The largest bank file read (a year of a busy account in CAMT.053 is a few megabytes).
    public static let largest = 64 << 20

    /// Reads `origin` when its content is in a bank format; nil for anything else (a CSV, a sheet).
    /// - Throws: ``BankFileError`` for a bank file that cannot be read, or for XML that is not a
    ///   statement; ``CSVFileError/cannotOpen(_:)`` for a file that cannot be opened.
    public static func read(_ origin: CSVImportSource.Origin) throws -> BankFile? {
        let name = origin.name
        switch origin {
        case .sheet: return nil
        case .data(let data, _):
            guard let format = try format(of: data.prefix(8192), name: name) else { return nil }
            return try BankFile(data, format: format, name: name)
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { throw CSVFileError.cannotOpen(path) }
            defer { try? handle.close() }  // try?: a file only read from loses nothing on close
            // try?: a file that cannot be read here is the CSV reader's to refuse, in its words
            guard let head = try? handle.read(upToCount: 8192), let format = try format(of: head, name: name) else {
                return nil
            }
            try handle.seek(toOffset: 0)
            let data = try handle.read(upToCount: largest + 1) ?? Data()
            guard data.count <= largest else {
                throw BankFileError(
                    "\(name) is larger than \(largest >> 20) MB: export a shorter period from your bank."
                )
            }
            return try BankFile(data, format: format, name: name)
        }
    }

    /// The bank format of a file by its first bytes, or nil for anything else.
    /// - Throws: ``BankFileError`` for XML that is not a statement (a camt.052 or .054, or another document).
    public static func format(of head: Data, name: String = "The file") throws -> BankFileFormat? {
        let text = String(decoding: head, as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.hasPrefix("OFXHEADER") { return .ofx(xml: false) }
        if start.hasPrefix("<") {
            if text.range(of: "<OFX>", options: .caseInsensitive) != nil {
                return .ofx(xml: start.hasPrefix("<?xml") || text.contains("<?OFX"))
            }
            if let range = text.range(of: #"camt\.05[0-9]\.001\.[0-9]{2}"#, options: .regularExpression) {
                let found = text[range]
                if found.hasPrefix("camt.053") { return .camt053(version: String(found.dropFirst("camt.053.".count))) }
                throw BankFileError(
                    "\(name) is a \(found.prefix(8)) file (\(found.hasPrefix("camt.052") ? "an intraday report" : "a notice of single payments")), not an account statement: download the statement (CAMT.053) from your bank."
                )
            }
            if text.contains("BkToCstmrStmt") { return .camt053(version: "?") }
            if start.hasPrefix("<?xml") || start.hasPrefix("<Document") {
                throw BankFileError(
                    "\(name) is XML, but not a bank statement this reads (OFX or CAMT.053): download the statement as CAMT.053, OFX or CSV."
                )
            }
            return nil
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.drop(while: \.isWhitespace) }
        let firstLine = lines.first { !$0.isEmpty } ?? ""
        if firstLine.hasPrefix("{1:") || firstLine.hasPrefix(":20:")
            || (lines.contains { $0.hasPrefix(":20:") } && lines.contains { $0.hasPrefix(":25:") })
        {
            return .mt940
        }
        return nil
    }

    package init(_ data: Data, format: BankFileFormat, name: String) throws {
        self.format = format
        var transactions: [BankTransaction] = []
        var notBooked = 0
        switch format {
        case .ofx: transactions = try OFXReader.read(Self.text(data), name: name)
        case .camt053: (transactions, notBooked) = try CAMTReader.read(data, name: name)
        case .mt940: transactions = try MT940Reader.read(Self.text(data), name: name)
        }
        // A file that writes several on one line (a one-line XML export): each numbered in the file's order.
        if Set(transactions.map(\.line)).count < transactions.count {
            for index in transactions.indices { transactions[index].line = index + 1 }
        }
        self.transactions = transactions
        self.notBooked = notBooked
    }

    /// The file's text: UTF-8, or else Windows-1252 (what an OFX 1 file's `CHARSET:1252` says).
    static func text(_ data: Data) -> String {
        String(data: data, encoding: .utf8) ?? String(data: data, encoding: .windowsCP1252)
            ?? String(decoding: data, as: UTF8.self)
    }

    /// A bank's amount read exactly in its currency: digits with a point (or a comma, as MT940 and
    /// some OFX write it), a sign, and no more decimals than the currency has beyond zeros.
    static func amount(_ written: String, code: String) -> Money? {
        // try?: a code that is no currency is said by the caller, which gets nil
        guard let currency = try? Currency(code: code) else { return nil }
        var text = written.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("+") { text.removeFirst() }
        if !text.contains("."), text.filter({ $0 == "," }).count == 1 {
            text = text.replacingOccurrences(of: ",", with: ".")
        }
        if text.hasPrefix(".") { text = "0" + text } else if text.hasPrefix("-.") { text = "-0" + text.dropFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        if let point = text.firstIndex(of: ".") {
            // Zeros past the currency's decimals say nothing ("33.0000").
            while text.distance(from: point, to: text.endIndex) - 1 > currency.minorDigits, text.last == "0" {
                text.removeLast()
            }
            if text.last == "." { text.removeLast() }
        }
        // try?: an amount it cannot read is said by the caller, which gets nil
        return try? currency.parse(text)
    }

    /// What the problems of a file's transactions add up to, in one refusal.
    static func refusal(_ problems: [String], name: String, total: Int) -> BankFileError {
        BankFileError(
            "\(name) has \(problems.count) transaction\(problems.count == 1 ? "" : "s") of \(total) that cannot be read: "
                + problems.prefix(3).joined(separator: "; ") + (problems.count > 3 ? "…" : ".")
                + " Nothing was read from it: download it again from your bank, or export a CSV."
        )
    }
}

// MARK: OFX

/// OFX 1.x and 2.x: the same tags, SGML with its leaf tags left open or XML with them closed.
/// Each `<STMTTRN>`'s `DTPOSTED`, `TRNAMT`, `NAME` (or its payee's), `MEMO` and `FITID`, in the
/// statement's `CURDEF` unless it gives a `CURRENCY` of its own.
enum OFXReader {
    static func read(_ text: String, name: String) throws -> [BankTransaction] {
        var transactions: [BankTransaction] = [], problems: [String] = [], total = 0
        var currency = "", line = 1, leaf: String?, open: [String: String]?, openLine = 0
        let bytes = Array(text.utf8)
        var index = 0

        func finish() {
            guard let fields = open else { return }
            open = nil
            total += 1
            let code = (fields["CURSYM"] ?? currency).uppercased()
            let posted = fields["DTPOSTED"] ?? ""
            guard let date = day(posted) else {
                problems.append("line \(openLine): its DTPOSTED “\(posted)” is not a date")
                return
            }
            guard let written = fields["TRNAMT"], let amount = BankFile.amount(written, code: code) else {
                problems.append(
                    "line \(openLine): its TRNAMT “\(fields["TRNAMT"] ?? "")” is not an amount in \(code.isEmpty ? "a currency (no CURDEF)" : code)"
                )
                return
            }
            let words = [fields["NAME"], fields["MEMO"]].compactMap { $0 }.filter { !$0.isEmpty }
            transactions.append(
                BankTransaction(
                    line: openLine,
                    date: date,
                    amount: amount,
                    currency: code,
                    text: words.joined(separator: " "),
                    id: fields["FITID"].flatMap { $0.isEmpty ? nil : BankTransactionID(kind: "FITID", value: $0) }
                )
            )
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { break }
                let tag = bytes[(index + 1)..<end]
                line += tag.lazy.filter { $0 == 10 }.count
                index = end + 1
                if tag.first == UInt8(ascii: "!") || tag.first == UInt8(ascii: "?") {
                    // A comment may hold a ">": passed over to its "-->".
                    if tag.starts(with: Array("!--".utf8)), !tag.suffix(2).elementsEqual("--".utf8) {
                        if let close = bytes[index...].firstRange(of: Array("-->".utf8))?.lowerBound {
                            line += bytes[index..<close].lazy.filter { $0 == 10 }.count
                            index = close + 3
                        } else {
                            index = bytes.count
                        }
                    }
                    continue
                }
                let closing = tag.first == UInt8(ascii: "/")
                let name =
                    String(decoding: closing ? tag.dropFirst() : tag, as: UTF8.self)
                    .split(whereSeparator: \.isWhitespace).first?.uppercased() ?? ""
                leaf = nil
                if closing {
                    if name == "STMTTRN" || name == "BANKTRANLIST" { finish() }
                } else if name == "STMTTRN" {
                    finish()
                    open = [:]
                    openLine = line
                } else {
                    leaf = name
                }
                continue
            }
            let next = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
            let run = bytes[index..<next]
            line += run.lazy.filter { $0 == 10 }.count
            index = next
            guard let tag = leaf else { continue }
            leaf = nil
            let value = entities(String(decoding: run, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            if open != nil {
                if open?[tag] == nil { open?[tag] = value }
            } else if tag == "CURDEF" {
                currency = value
            }
        }
        finish()
        guard problems.isEmpty else { throw BankFile.refusal(problems, name: name, total: total) }
        guard total > 0 else {
            throw BankFileError(
                "\(name) is an OFX file without transactions (no <STMTTRN>): download a statement with the period's transactions."
            )
        }
        return transactions
    }

    /// `YYYYMMDD…` (a time and a zone may follow): the day as the bank wrote it.
    static func day(_ text: String) -> Day? {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits) else { return nil }
        // try?: a day that does not exist is said by the caller, which gets nil
        return try? Day(year: number / 10000, month: number / 100 % 100, day: number % 100)
    }

    static func entities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
    }
}

// MARK: CAMT.053

/// ISO 20022 `BkToCstmrStmt` (`camt.053.001.02` to `.08` and later: the elements read are the
/// same in all): each booked `<Ntry>`'s amount and currency, `CdtDbtInd`, booking date (else value
/// date), its debtor's name (`Dbtr/Nm`, or `Dbtr/Pty/Nm` from version 8), the remittance text
/// (`Ustrd`, and the structured creditor reference) and the bank's reference.
enum CAMTReader {
    static func read(_ data: Data, name: String) throws -> (transactions: [BankTransaction], notBooked: Int) {
        // Foundation's XML parser traps on a name that is not UTF-8 (as the workbook's parts found):
        // such a file never reaches it. ISO 20022 files are UTF-8.
        var utf8 = UTF8Check()
        guard utf8.feed(data), utf8.isComplete else {
            throw BankFileError(
                "\(name) is not UTF-8 text, as a CAMT.053 statement is: download it again from your bank."
            )
        }
        let tree = Tree()
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = tree
        // A file cut short can end without libxml2 saying so through a stream: whole only once its root is closed.
        guard parser.parse(), tree.closed, tree.failure == nil,
            tree.rootName == "Document" || tree.rootName == "BkToCstmrStmt"
        else {
            throw BankFileError(
                "\(name) is not a whole CAMT.053 statement: its XML breaks off or cannot be read at line \(parser.lineNumber). Download it again from your bank."
            )
        }
        var transactions: [BankTransaction] = [], problems: [String] = [], notBooked = 0
        for (entry, accountCurrency) in tree.entries {
            let status = (entry.child("Sts")?.child("Cd") ?? entry.child("Sts"))?.text ?? "BOOK"
            guard status == "BOOK" else {
                notBooked += 1
                continue
            }
            let amountElement = entry.child("Amt")
            let code = (amountElement?.attributes["Ccy"] ?? accountCurrency ?? "").uppercased()
            guard let written = amountElement?.text, let amount = BankFile.amount(written, code: code), amount >= .zero
            else {
                problems.append(
                    "line \(entry.line): its Amt “\(amountElement?.text ?? "")” is not an amount in \(code.isEmpty ? "a currency" : code)"
                )
                continue
            }
            let sign = entry.child("CdtDbtInd")?.text
            guard sign == "CRDT" || sign == "DBIT" else {
                problems.append("line \(entry.line): its CdtDbtInd “\(sign ?? "")” is neither CRDT nor DBIT")
                continue
            }
            let dated = entry.child("BookgDt") ?? entry.child("ValDt")
            let booked = (dated?.child("Dt") ?? dated?.child("DtTm"))?.text ?? ""
            // try?: a date that cannot be read is said just below
            guard booked.count >= 10, let date = try? Day(parsing: String(booked.prefix(10))) else {
                problems.append("line \(entry.line): its booking date “\(booked)” is not a date")
                continue
            }
            let details = entry.child("NtryDtls")
            let payers = details?.all("Dbtr").compactMap { $0.first("Nm")?.text } ?? []
            let remittance =
                (details?.all("Ustrd").map(\.text) ?? [])
                + (details?.all("CdtrRefInf").compactMap { $0.child("Ref")?.text } ?? [])
            let said = [entry.child("AddtlNtryInf")?.text].compactMap { $0 }
            let words = unique(payers + remittance + (payers.isEmpty && remittance.isEmpty ? said : []))
            transactions.append(
                BankTransaction(
                    line: entry.line,
                    date: date,
                    amount: sign == "DBIT" ? Money(minorUnits: -amount.minorUnits) : amount,
                    currency: code,
                    text: words.joined(separator: " "),
                    id: id(entry)
                )
            )
        }
        let total = transactions.count + problems.count
        guard problems.isEmpty else { throw BankFile.refusal(problems, name: name, total: total) }
        return (transactions, notBooked)
    }

    /// The bank's own reference of an entry: its `AcctSvcrRef`, its `NtryRef`, or its one
    /// transaction's (an `EndToEndId` other than `NOTPROVIDED`).
    static func id(_ entry: Node) -> BankTransactionID? {
        func given(_ node: Node?) -> String? {
            guard let text = node?.text, !text.isEmpty, text != "NOTPROVIDED" else { return nil }
            return text
        }
        if let value = given(entry.child("AcctSvcrRef")) { return BankTransactionID(kind: "AcctSvcrRef", value: value) }
        if let value = given(entry.child("NtryRef")) { return BankTransactionID(kind: "NtryRef", value: value) }
        let references = entry.child("NtryDtls")?.all("Refs") ?? []
        guard references.count == 1 else { return nil }
        if let value = given(references[0].child("AcctSvcrRef")) {
            return BankTransactionID(kind: "AcctSvcrRef", value: value)
        }
        if let value = given(references[0].child("EndToEndId")) {
            return BankTransactionID(kind: "EndToEndId", value: value)
        }
        return nil
    }

    static func unique(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// An element of an entry, with the line it starts on.
    final class Node {
        let name: String
        let line: Int
        var attributes: [String: String]
        var text = ""
        var children: [Node] = []

        init(name: String, line: Int, attributes: [String: String]) {
            self.name = name
            self.line = line
            self.attributes = attributes
        }

        func child(_ name: String) -> Node? { children.first { $0.name == name } }
        /// The first element of that name below this one, at any depth.
        func first(_ name: String) -> Node? {
            for child in children {
                if child.name == name { return child }
                if let found = child.first(name) { return found }
            }
            return nil
        }
        /// Every element of that name below this one, in the file's order.
        func all(_ name: String) -> [Node] {
            children.flatMap { $0.name == name ? [$0] : $0.all(name) }
        }
    }

    /// Keeps each `<Ntry>` as a tree, with its statement's account currency; the rest passes by.
    final class Tree: NSObject, XMLParserDelegate {
        var rootName: String?
        /// The root element ended: the document is whole.
        var closed = false
        var failure: (any Error)?
        var entries: [(Node, String?)] = []
        private var path: [String] = []
        private var open: [Node] = []
        private var accountCurrency: String?
        private var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement element: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if rootName == nil { rootName = element }
            if element == "Stmt" { accountCurrency = nil }
            path.append(element)
            text = ""
            if element == "Ntry" || !open.isEmpty {
                let node = Node(name: element, line: parser.lineNumber, attributes: attributes)
                open.last?.children.append(node)
                open.append(node)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) { failure = failure ?? error }

        func parser(
            _ parser: XMLParser,
            didEndElement element: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            if element == "Ccy", path.suffix(2) == ["Acct", "Ccy"] { accountCurrency = value }
            path.removeLast()
            if path.isEmpty { closed = true }
            guard let node = open.popLast() else { return }
            if node.children.isEmpty { node.text = value }
            if open.isEmpty { entries.append((node, accountCurrency)) }
        }
    }
}

// MARK: MT940

/// SWIFT MT940: each `:61:` line's booking date (its entry date, else its value date), credit or
/// debit mark, amount and references, in the currency of the statement's opening balance
/// (`:60F:`/`:60M:`), with the `:86:` after it as its text — the German banks' subfields read as
/// the payer's name (`?32`, `?33`) and the purpose (`?20`–`?29`, `?60`–`?63`).
enum MT940Reader {
    static func read(_ text: String, name: String) throws -> [BankTransaction] {
        // The fields, each with the line it starts on; a line that starts no field goes on the one before.
        var fields: [(tag: Substring, value: String, line: Int)] = []
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .init(charactersIn: "\r"))
            if line.hasPrefix(":"), let close = line.dropFirst().firstIndex(of: ":"),
                line.distance(from: line.startIndex, to: close) <= 4
            {
                fields.append(
                    (
                        line[line.index(after: line.startIndex)..<close], String(line[line.index(after: close)...]),
                        number + 1
                    )
                )
            } else if line == "-" || line.hasPrefix("-}") || line.hasPrefix("{") || line.isEmpty {
                continue
            } else if !fields.isEmpty {
                fields[fields.count - 1].value += "\n" + line
            }
        }
        var transactions: [BankTransaction] = [], problems: [String] = [], total = 0, currency = ""
        for (index, field) in fields.enumerated() {
            switch field.tag {
            case "60F", "60M":
                // C260301EUR1000,00: the mark, the day, then the currency.
                currency = String(field.value.dropFirst(7).prefix(3)).uppercased()
            case "61":
                total += 1
                let next =
                    fields.indices.contains(index + 1) && fields[index + 1].tag == "86" ? fields[index + 1].value : ""
                do {
                    transactions.append(
                        try transaction(field.value, purpose: next, currency: currency, line: field.line)
                    )
                } catch {
                    problems.append("line \(field.line): \(error.description)")
                }
            default:
                break
            }
        }
        guard problems.isEmpty else { throw BankFile.refusal(problems, name: name, total: total) }
        guard total > 0 else {
            throw BankFileError(
                "\(name) is an MT940 file without transactions (no :61: line): download a statement with the period's transactions."
            )
        }
        return transactions
    }

    /// `2603120312CR33,00NTRFNONREF//B2603120001`: value day, entry day (month and day), mark
    /// (C, D, RC, RD), an optional funds code, the amount, the type, her reference and the bank's.
    static func transaction(
        _ field: String,
        purpose: String,
        currency: String,
        line: Int
    ) throws(BankFileError)
        -> BankTransaction
    {
        let first = Array(field.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        var at = 0
        func digits(_ count: Int) -> Int? {
            guard at + count <= first.count, first[at..<(at + count)].allSatisfy(\.isASCIIDigit) else { return nil }
            defer { at += count }
            return Int(String(first[at..<(at + count)]))
        }
        guard let valueDate = digits(6) else { throw BankFileError("its :61: does not begin with a date (YYMMDD)") }
        let year = 2000 + valueDate / 10000, month = valueDate / 100 % 100
        var booked = (year: year, month: month, day: valueDate % 100)
        if let entry = digits(4) {
            let entryMonth = entry / 100
            let entryYear = entryMonth == 12 && month == 1 ? year - 1 : entryMonth == 1 && month == 12 ? year + 1 : year
            booked = (entryYear, entryMonth, entry % 100)
        }
        // try?: a day that does not exist is said just below
        guard let date = try? Day(year: booked.year, month: booked.month, day: booked.day) else {
            throw BankFileError("its :61: date is not a day")
        }
        var credit: Bool
        if first[at...].starts(with: ["R", "C"]) || first[at...].starts(with: ["R", "D"]) {
            credit = first[at + 1] == "D"  // a reversed debit is money in, a reversed credit money out
            at += 2
        } else if at < first.count, first[at] == "C" || first[at] == "D" {
            credit = first[at] == "C"
            at += 1
        } else {
            throw BankFileError("its :61: has no credit or debit mark (C or D) after its date")
        }
        if at < first.count, first[at].isLetter { at += 1 }  // the funds code (the currency's third letter)
        let amountStart = at
        while at < first.count, first[at].isASCIIDigit || first[at] == "," { at += 1 }
        let written = String(first[amountStart..<at])
        guard let amount = BankFile.amount(written, code: currency) else {
            throw BankFileError(
                "its :61: amount “\(written)” is not an amount in \(currency.isEmpty ? "a currency (no :60F: before it)" : currency)"
            )
        }
        at = min(first.count, at + 4)  // the transaction type: N and three letters
        let references = String(first[at...]).components(separatedBy: "//")
        let theirs = references.first?.trimmingCharacters(in: .whitespaces) ?? ""
        let bank = references.count > 1 ? references[1].trimmingCharacters(in: .whitespaces) : ""
        let id = !bank.isEmpty ? bank : theirs.isEmpty || theirs.uppercased() == "NONREF" ? nil : theirs
        return BankTransaction(
            line: line,
            date: date,
            amount: credit ? amount : Money(minorUnits: -amount.minorUnits),
            currency: currency,
            text: words(purpose),
            id: id.map { BankTransactionID(kind: "MT940", value: $0) }
        )
    }

    /// The text of an `:86:` field: with the German banks' subfields, the payer's name and the
    /// purpose; otherwise its lines joined.
    static func words(_ field: String) -> String {
        let joined = field.split(separator: "\n").joined()
        guard joined.count >= 5, joined.prefix(3).allSatisfy(\.isASCIIDigit), joined.dropFirst(3).hasPrefix("?") else {
            return field.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }
        var subfields: [Int: String] = [:]
        for part in joined.dropFirst(4).split(separator: "?", omittingEmptySubsequences: false) {
            guard part.count >= 2, let code = Int(part.prefix(2)) else { continue }
            subfields[code, default: ""] += part.dropFirst(2)
        }
        let payer = [32, 33].compactMap { subfields[$0] }.joined()
        let purpose = (Array(20...29) + Array(60...63)).compactMap { subfields[$0] }.joined()
        return [payer, purpose].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

import CommissionCore
import CommissionStore
import Foundation

/// A line of a clinic's own statement: a sale as the clinic recorded it.
public struct TheirLine: Sendable, Hashable {
    /// Where it is in their file (its line, or its sheet's row).
    public var line: Int
    public var date: Day
    /// The product as the clinic names it.
    public var product: String
    public var quantity: Int64
    /// The price they show: a unit price (or, as some clinics print it, the line's total).
    public var price: Money?
    /// The commission they credit her for it.
    public var commission: Money

    public init(line: Int, date: Day, product: String, quantity: Int64, price: Money?, commission: Money) {
        self.line = line
        self.date = date
        self.product = product
        self.quantity = quantity
        self.price = price
        self.commission = commission
    }
}

/// A clinic's statement for a pay period, as the clinic sends it (CSV or a sheet: date, product,
/// quantity, price, commission; columns, mappings and locale read as an import reads them).
public struct TheirStatement: Sendable {
    public let name: String
    public let lines: [TheirLine]
    /// How the file is read, in words.
    public private(set) var said: [String]
    /// The column mapping it was read with (given, or saved for its headers), and its headers as spelled.
    public let mapping: ImportMapping?
    public let headers: [String]

    /// - Throws: ``CSVFileError`` for a file that cannot be read, or lacks a date, product or
    ///   commission column; ``StoreError/importRejected(_:total:)`` listing the rows that cannot be read.
    ///   A PDF (what accounting software prints) is read through ``PDFTable``: its table's text, then
    ///   as a CSV of it; ``PDFTableError`` when it has no text or no table.
    public init(origin: CSVImportSource.Origin, format: CSVFormat = CSVFormat(), currency: Currency) throws {
        if let pdf = try PDFTable.read(origin) {
            self = try TheirStatement(
                origin: .data(Data(pdf.csv.utf8), name: origin.name),
                format: format,
                currency: currency
            )
            said = pdf.said + said
            return
        }
        var lines: [TheirLine] = []
        (said, mapping, headers) = try OpenedTable.readWhole(
            origin,
            format: format,
            currency: currency,
            needs: [.date, .product, .commission],
            reads: [.quantity, .unitPrice]
        ) { row in
            let date = row.day(.date), product = row.required(.product), quantity = row.quantity()
            let price = row.money(.unitPrice, optional: true), commission = row.money(.commission)
            guard let date = date.flatMap({ $0 }), let product, let quantity, let price,
                let commission = commission.flatMap({ $0 }),
                row.problems.isEmpty
            else { return }
            lines.append(
                TheirLine(
                    line: row.line,
                    date: date,
                    product: product,
                    quantity: quantity ?? 1,
                    price: price,
                    commission: commission
                )
            )
        }
        name = origin.name
        self.lines = lines
    }
}

/// One line of the comparison of a clinic's statement with her book: their line, her sale, or
/// both, and how they differ.
public struct ComparedLine: Sendable, Hashable {
    public enum Difference: Sendable, Hashable {
        /// Their line has no sale in her book (it could become one).
        case missingOnHers
        /// Her sale is not on their statement.
        case missingOnTheirs
        /// The clinic's name for the product is not one of her products, nor one she has told.
        case unknownProduct(String)
        /// The same sale, a day apart.
        case shifted(theirs: Day, hers: Day)
        case quantity(theirs: Int64, hers: Int64)
        case price(theirs: Money, hers: Money)
        case commission(theirs: Money, hers: Money)
    }

    public var theirs: TheirLine?
    public var hers: Sale?
    /// Her product's name (or, for a product she has not told, the clinic's).
    public var product: String
    public var differences: [Difference]
    /// What the line adds to the difference of the totals: their commission minus hers (a line
    /// missing on one side counts whole).
    public var commissionDifference: Money

    public var date: Day { theirs?.date ?? hers!.date }
    /// Whether the line can become a sale of her book: theirs alone, of a product she has.
    public var canAccept: Bool {
        hers == nil && !differences.contains { if case .unknownProduct = $0 { true } else { false } }
    }
}

/// A clinic's statement for a pay period set beside her book, line by line: every line of theirs
/// is matched to a sale of hers (same day, product and quantity; then a day apart; then the same
/// product with another quantity) or found missing, every sale of hers not matched is missing on
/// theirs, and the difference of the totals is the sum of the lines' differences.
public struct StatementComparison: Sendable {
    public let clinic: Clinic
    public let period: PayPeriod
    public let lines: [ComparedLine]
    /// Their statement's total commission, and her sales' (each line's, before tiers and deductions).
    public let theirTotal: Money, herTotal: Money

    /// `theirTotal − herTotal`: positive when the clinic credits her more than her book does
    /// (worked out when the comparison is made: a difference that does not fit is refused there).
    public let difference: Money
    /// The lines that differ.
    public var differing: [ComparedLine] { lines.filter { !$0.differences.isEmpty } }

    /// Compares `theirs` with her sales at `clinic` in `period`, reading the clinic's product names
    /// through the aliases she told (``ProductAliases``) and then her products' names and SKUs.
    public static func compare(
        _ theirs: TheirStatement,
        clinic: Clinic,
        period: PayPeriod,
        store: any CommissionStore
    ) async throws -> StatementComparison {
        let products = try await store.products(ProductQuery(includeArchived: true))
        let aliases = try await (store as? any ProductAliases)?.aliases(clinic: clinic.id) ?? []
        let statement = try await store.statement(clinic: clinic.id, period: period)
        var byKey: [String: Product] = [:]
        for product in products {
            byKey[ImportMapping.key(product.name)] = product
            if let sku = product.sku, byKey[ImportMapping.key(sku)] == nil { byKey[ImportMapping.key(sku)] = product }
        }
        let byID = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
        for alias in aliases {
            if let product = byID[alias.productID] { byKey[ImportMapping.key(alias.name)] = product }
        }
        return try compare(
            theirs.lines,
            hers: statement.lines.map(\.sale),
            clinic: clinic,
            period: period,
            product: { byKey[ImportMapping.key($0)] },
            name: { byID[$0]?.name ?? "product \($0.rawValue)" }
        )
    }

    static func compare(
        _ theirs: [TheirLine],
        hers: [Sale],
        clinic: Clinic,
        period: PayPeriod,
        product: (String) -> Product?,
        name: (Product.ID) -> String
    ) throws -> StatementComparison {
        var matchedHers = Set<Sale.ID>()
        var pairs: [Int: Sale] = [:]  // their line's index → her sale
        let resolved = theirs.map { product($0.product) }
        // Same day, product and quantity; then a day apart; then the same product on the day (or a day apart), another quantity.
        let passes: [(TheirLine, Sale) -> Bool] = [
            { $0.date == $1.date && $0.quantity == $1.quantity },
            {
                ($0.date.adding(days: 1) == $1.date || $0.date.adding(days: -1) == $1.date)
                    && $0.quantity == $1.quantity
            },
            { $0.date == $1.date },
            { ($0.date.adding(days: 1) == $1.date || $0.date.adding(days: -1) == $1.date) },
        ]
        // How far a sale's figures agree with their line: its price, and its commission.
        func agreement(_ line: TheirLine, _ sale: Sale) -> Int {
            let price = line.price.map { $0 == sale.line.unitPrice || $0 == sale.figures.revenue } ?? true
            return (price ? 1 : 0) + (line.commission == sale.figures.commission ? 1 : 0)
        }
        // In each pass the lines whose figures agree with a sale pair first, so that two sales of a
        // day at different prices are never paired crosswise.
        for pass in passes {
            for least in [2, 1, 0] {
                for (index, line) in theirs.enumerated() where pairs[index] == nil {
                    guard let product = resolved[index] else { continue }
                    let candidates = hers.filter {
                        !matchedHers.contains($0.id) && $0.productID == product.id && pass(line, $0)
                    }
                    if let sale = candidates.first(where: { agreement(line, $0) >= least }) {
                        pairs[index] = sale
                        matchedHers.insert(sale.id)
                    }
                }
            }
        }
        var lines: [ComparedLine] = []
        for (index, line) in theirs.enumerated() {
            guard let sale = pairs[index] else {
                let differences: [ComparedLine.Difference] =
                    resolved[index] == nil ? [.missingOnHers, .unknownProduct(line.product)] : [.missingOnHers]
                lines.append(
                    ComparedLine(
                        theirs: line,
                        hers: nil,
                        product: resolved[index]?.name ?? line.product,
                        differences: differences,
                        commissionDifference: line.commission
                    )
                )
                continue
            }
            var differences: [ComparedLine.Difference] = []
            if line.date != sale.date { differences.append(.shifted(theirs: line.date, hers: sale.date)) }
            if line.quantity != sale.quantity {
                differences.append(.quantity(theirs: line.quantity, hers: sale.quantity))
            }
            if let price = line.price, price != sale.line.unitPrice, price != sale.figures.revenue {
                differences.append(.price(theirs: price, hers: sale.line.unitPrice))
            }
            if line.commission != sale.figures.commission {
                differences.append(.commission(theirs: line.commission, hers: sale.figures.commission))
            }
            lines.append(
                ComparedLine(
                    theirs: line,
                    hers: sale,
                    product: name(sale.productID),
                    differences: differences,
                    commissionDifference: try line.commission.subtracting(sale.figures.commission)
                )
            )
        }
        for sale in hers where !matchedHers.contains(sale.id) {
            lines.append(
                ComparedLine(
                    theirs: nil,
                    hers: sale,
                    product: name(sale.productID),
                    differences: [.missingOnTheirs],
                    commissionDifference: try Money.zero.subtracting(sale.figures.commission)
                )
            )
        }
        lines.sort { ($0.date, $0.theirs?.line ?? Int.max) < ($1.date, $1.theirs?.line ?? Int.max) }
        let theirTotal = try Money.sum(theirs.map(\.commission))
        let herTotal = try Money.sum(hers.map(\.figures.commission))
        return StatementComparison(
            clinic: clinic,
            period: period,
            lines: lines,
            theirTotal: theirTotal,
            herTotal: herTotal,
            difference: try theirTotal.subtracting(herTotal)
        )
    }
}

extension ComparedLine.Difference {
    /// The difference in words, amounts by `format`: as she reads it ("on theirs … in your
    /// book"), or as the clinic reads her dispute ("on your statement … in my records").
    public func described(_ format: (Money) -> String, toClinic: Bool = false) -> String {
        let (theirs, hers) = toClinic ? ("on your statement", "in my records") : ("on theirs", "in your book")
        switch self {
        case .missingOnHers: return toClinic ? "not in my records" : "not in your book"
        case .missingOnTheirs: return toClinic ? "not on your statement" : "not on their statement"
        case .unknownProduct(let name):
            return toClinic
                ? "“\(name)” is not a product I sell" : "their product “\(name)” is not one of yours: say which it is"
        case .shifted(let a, let b): return "dated \(a) \(theirs), \(b) \(hers)"
        case .quantity(let a, let b): return "quantity \(a) \(theirs), \(b) \(hers)"
        case .price(let a, let b): return "price \(format(a)) \(theirs), \(format(b)) \(hers)"
        case .commission(let a, let b): return "commission \(format(a)) \(theirs), \(format(b)) \(hers)"
        }
    }
}

extension ComparedLine {
    /// Their side as a line shows it: `2 × 45.00 → 8.00` (quantity, price, commission), or `—`.
    public func theirFigures(_ format: (Money) -> String) -> String {
        Self.figures(theirs?.quantity, theirs?.price, theirs?.commission, format)
    }

    /// Her side the same way.
    public func herFigures(_ format: (Money) -> String) -> String {
        Self.figures(hers?.quantity, hers?.line.unitPrice, hers?.figures.commission, format)
    }

    static func figures(
        _ quantity: Int64?,
        _ price: Money?,
        _ commission: Money?,
        _ format: (Money) -> String
    ) -> String {
        guard let quantity, let commission else { return "—" }
        return "\(quantity)" + (price.map { " × \(format($0))" } ?? "") + " → \(format(commission))"
    }

    /// Every difference in words, `; ` between them.
    public func explained(_ format: (Money) -> String, toClinic: Bool = false) -> String {
        differences.map { $0.described(format, toClinic: toClinic) }.joined(separator: "; ")
    }
}

extension Renderer {
    /// The lines of a comparison that differ, numbered as `commission compare` and the page refer
    /// to them, with a last row of the totals: what differs, their figures, hers, and each line's
    /// part of the difference, which add up to the totals' difference.
    /// - Throws: ``MoneyError/overflow(_:)`` when the chosen lines' total does not fit.
    public func differences(_ comparison: StatementComparison, only numbers: Set<Int>? = nil) throws -> TextTable {
        let c = currency
        func signed(_ money: Money) -> String { (money > .zero ? "+" : "") + c.format(money) }
        var rows: [[String]] = []
        var total = Money.zero
        for (index, line) in comparison.differing.enumerated() where numbers?.contains(index + 1) ?? true {
            total = try total.adding(line.commissionDifference)
            rows.append([
                "\(index + 1)", line.date.description, line.product,
                line.theirFigures(c.format), line.herFigures(c.format),
                line.explained(c.format), signed(line.commissionDifference),
            ])
        }
        rows.append([
            "", "", "Total", c.format(comparison.theirTotal), c.format(comparison.herTotal),
            numbers == nil ? "their total minus yours" : "the lines above",
            signed(numbers == nil ? comparison.difference : total),
        ])
        return TextTable(
            [
                .init("#", .right), .init("date"), .init("product"), .init("theirs"), .init("yours"),
                .init("what differs"),
                .init("difference", .right),
            ],
            rows: rows
        )
    }

    /// The dispute she sends back, addressed to the clinic ("your", the clinic's; "my", hers): the
    /// clinic, the period, and each disputed line (by its number among the differing lines) with
    /// both sides' figures and what differs, and their total, as CSV.
    /// - Throws: ``MoneyError/overflow(_:)`` when the disputed lines' total does not fit.
    public func disputeCSV(_ comparison: StatementComparison, lines numbers: Set<Int>) throws -> String {
        let c = currency
        var rows: [[String]] = []
        var total = Money.zero
        for (index, line) in comparison.differing.enumerated() where numbers.contains(index + 1) {
            total = try total.adding(line.commissionDifference)
            rows.append([
                comparison.clinic.name, comparison.period.start.description, comparison.period.end.description,
                line.date.description,
                line.product, line.theirs.map { "\($0.line)" } ?? "", line.theirs.map { "\($0.quantity)" } ?? "",
                line.hers.map { "\($0.quantity)" } ?? "", line.theirs?.price.map(c.format) ?? "",
                line.hers.map { c.format($0.line.unitPrice) } ?? "",
                line.theirs.map { c.format($0.commission) } ?? "",
                line.hers.map { c.format($0.figures.commission) } ?? "",
                c.format(line.commissionDifference), line.explained(c.format, toClinic: true),
            ])
        }
        rows.append([
            comparison.clinic.name, comparison.period.start.description, comparison.period.end.description, "", "Total",
            "", "", "", "", "", "", "",
            c.format(total), "the disputed lines",
        ])
        return TextTable(
            [
                "clinic", "period start", "period end", "date", "product", "line of your statement", "your quantity",
                "my quantity", "your price",
                "my price", "your commission", "my commission", "difference", "what differs",
            ].map { .init($0) },
            rows: rows
        ).csv()
    }
}

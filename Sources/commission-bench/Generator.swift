import CommissionCore
import Foundation

/// Writes a deterministic book as CSV files: 50 clinics on mixed schedules and splits (one of them
/// with a fifth of the sales), 500 products, and `sales` sales spread over five years up to today,
/// with returns, discounts and samples; and her real terms (``realTermsCommands``).
struct BookGenerator {
    let sales: Int
    let directory: URL
    let lastDay: Day
    var clinicsCSV: String { directory.appendingPathComponent("clinics.csv").path }
    var productsCSV: String { directory.appendingPathComponent("products.csv").path }
    var termsCSV: String { directory.appendingPathComponent("terms.csv").path }
    var salesCSV: String { directory.appendingPathComponent("sales.csv").path }

    static let clinicCount = 50
    static let productCount = 500

    init(sales: Int, directory: URL) throws {
        self.sales = sales
        self.directory = directory
        self.lastDay = Day(Date(), in: .current)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var firstDay: Day { lastDay.adding(days: -5 * 365) }

    func write() throws {
        var random = SplitMix64(seed: UInt64(sales))
        let schedules = ["monthly", "semimonthly", "weekly:monday", "weekly:friday", "biweekly:\(firstDay)"]
        var clinics = "name,schedule\n"
        for index in 1...Self.clinicCount {
            clinics += "Clinic \(String(format: "%03d", index)),\(schedules[(index - 1) % schedules.count])\n"
        }
        try clinics.write(toFile: clinicsCSV, atomically: true, encoding: .utf8)

        var products = "name,sku,unit price,unit cost\n"
        var prices: [Int64] = []
        for index in 1...Self.productCount {
            let price = Int64.random(in: 500...15_000, using: &random)
            prices.append(price)
            let cost = price * Int64.random(in: 30...60, using: &random) / 100
            products += "Product \(String(format: "%03d", index)),P\(index),\(cents(price)),\(cents(cost))\n"
        }
        try products.write(toFile: productsCSV, atomically: true, encoding: .utf8)

        var terms = "clinic,product,share,basis,effective from\n"
        for index in 1...Self.clinicCount {
            let clinic = "Clinic \(String(format: "%03d", index))"
            if index % 5 == 0 {
                terms += "\(clinic),,\(Int.random(in: 10...15, using: &random)),revenue,\(firstDay)\n"
            } else {
                terms += "\(clinic),,\(Int.random(in: 30...60, using: &random)).5,profit,\(firstDay)\n"
            }
            // A raise half-way, and a product line with its own split.
            terms +=
                "\(clinic),,\(Int.random(in: 40...65, using: &random)),profit,\(firstDay.adding(days: 900 + index))\n"
            terms += "\(clinic),Product \(String(format: "%03d", index)),70,profit,\(firstDay)\n"
        }
        try terms.write(toFile: termsCSV, atomically: true, encoding: .utf8)

        _ = FileManager.default.createFile(atPath: salesCSV, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: salesCSV))
        // try?: FileHandle does not buffer: every write reached the file before this close
        defer { try? handle.close() }
        var chunk = "date,clinic,product,quantity,unit price,discount,no commission,note\n"
        let span = firstDay.days(to: lastDay)
        for index in 0..<sales {
            // Spread evenly over the five years, so that every book reaches today.
            let date = firstDay.adding(days: Int(Int64(index) * Int64(span) / Int64(max(1, sales - 1))))
            // Clinic 001 (monthly) is the busy one, with a fifth of the sales: its statements run to thousands of lines.
            let clinic =
                Int.random(in: 0..<5, using: &random) == 0 ? 1 : Int.random(in: 2...Self.clinicCount, using: &random)
            let product = Int.random(in: 1...Self.productCount, using: &random)
            let roll = Int.random(in: 0..<100, using: &random)
            let quantity = roll < 3 ? -1 : (roll < 80 ? 1 : Int.random(in: 2...3, using: &random))
            let discount = quantity > 0 && roll >= 90 ? cents(prices[product - 1] * Int64(quantity) / 10) : ""
            chunk +=
                "\(date),Clinic \(String(format: "%03d", clinic)),Product \(String(format: "%03d", product)),\(quantity),,\(discount),\(roll == 50 ? "yes" : ""),\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
    }

    func cents(_ minor: Int64) -> String { Currency.usd.format(Money(minorUnits: minor)) }

    /// Her real terms, entered with the command line before the sales are imported: clinic price
    /// lists (ten clinics, five products each at 95% of their price, from the second year; one
    /// entry without a cost), a
    /// schedule change at five clinics (weekly from the third year), tiers on one product line's
    /// terms, and deductions (a fixed rent at three clinics, a card fee at two).
    var realTermsCommands: [[String]] {
        var commands: [[String]] = []
        // The products' own prices, drawn as `write()` draws them: a clinic sells at 95% of them.
        var random = SplitMix64(seed: UInt64(sales))
        let prices = (1...Self.productCount).map { _ in
            let price = Int64.random(in: 500...15_000, using: &random)
            _ = Int64.random(in: 30...60, using: &random)
            return price
        }
        for index in stride(from: 2, through: 20, by: 2) {
            let clinic = "Clinic \(String(format: "%03d", index))"
            for product in 1...5 {
                var command = [
                    "price", "set", clinic, "P\(product)", cents(prices[product - 1] * 95 / 100), "--from",
                    firstDay.adding(days: 365).description,
                ]
                if product != 5 { command += ["--cost", cents(prices[product - 1] * 40 / 100)] }
                commands.append(command)
            }
        }
        for index in [3, 8, 13, 18, 23] {
            commands.append([
                "clinic", "schedule", "Clinic \(String(format: "%03d", index))", "weekly:tuesday", "--from",
                firstDay.adding(days: 730).description,
            ])
        }
        commands.append([
            "terms", "add", "Clinic 050", "--product", "Product 050", "--share", "70", "--tier", "500.00:75%", "--tier",
            "1000.00:80%",
            "--from", firstDay.adding(days: 365).description,
        ])
        for index in [4, 9, 14] {
            commands.append([
                "deduction", "add", "Clinic \(String(format: "%03d", index))", "Room rent", "--amount", "150.00",
                "--from", firstDay.description,
            ])
        }
        for index in [5, 10] {
            commands.append([
                "deduction", "add", "Clinic \(String(format: "%03d", index))", "Card fees", "--share", "2.5", "--from",
                firstDay.adding(days: 365).description,
            ])
        }
        return commands
    }
}

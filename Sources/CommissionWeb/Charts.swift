import CommissionCore

/// Simple SVG charts, drawn on the server (no script, no external library).
enum Charts {
    static let palette = ["#0b5cad", "#bf3989", "#1a7f37", "#9a6700", "#6639ba", "#cf222e", "#0a3069", "#57606a"]

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Stacked bars: one bar per month, one colour per clinic. Negative months draw as zero height.
    static func monthly(months: [String], series: [(name: String, values: [Int64])], currency: Currency) -> String {
        let width = 640, height = 220, left = 56, bottom = 24, top = 8
        let totals = months.indices.map { index in series.reduce(Int64(0)) { $0 + max(0, $1.values[index]) } }
        let maximum = max(totals.max() ?? 1, 1)
        let slot = (width - left) / max(months.count, 1)
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(width) \(height + 40)\" role=\"img\" aria-labelledby=\"monthly-title\"><title id=\"monthly-title\">Commission per month and clinic</title>"
        svg += "<text x=\"0\" y=\"\(top + 10)\">\(escape(currency.format(Money(minorUnits: maximum))))</text><text x=\"0\" y=\"\(height - bottom)\">0</text>"
        for (index, month) in months.enumerated() {
            var y = height - bottom
            let x = left + index * slot + 4
            for (seriesIndex, entry) in series.enumerated() {
                let value = max(0, entry.values[index])
                let barHeight = Int(scale(value, to: height - bottom - top, of: maximum))
                guard barHeight > 0 else { continue }
                y -= barHeight
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(slot - 8)\" height=\"\(barHeight)\" fill=\"\(palette[seriesIndex % palette.count])\"><title>\(escape(entry.name)) \(month): \(escape(currency.format(Money(minorUnits: entry.values[index]))))</title></rect>"
            }
            svg += "<text x=\"\(x)\" y=\"\(height - 6)\">\(month.suffix(5))</text>"
        }
        for (seriesIndex, entry) in series.enumerated() {
            let x = left + (seriesIndex % 3) * 190, y = height + 14 + (seriesIndex / 3) * 14
            svg += "<rect x=\"\(x)\" y=\"\(y - 9)\" width=\"10\" height=\"10\" fill=\"\(palette[seriesIndex % palette.count])\"/><text x=\"\(x + 14)\" y=\"\(y)\">\(escape(entry.name))</text>"
        }
        return svg + "</svg>"
    }

    /// `value × size / total`, rounded down, in exact integer arithmetic (no amount goes through a Double).
    static func scale(_ value: Int64, to size: Int, of total: Int64) -> Int64 {
        guard total > 0, value > 0 else { return 0 }
        let product = value.multipliedFullWidth(by: Int64(size))
        return total.dividingFullWidth((product.high, product.low)).quotient
    }

    /// Horizontal bars: each clinic's share of the year's commission.
    static func share(_ entries: [(name: String, amount: Int64)], currency: Currency) -> String {
        let total = entries.reduce(Int64(0)) { $0 + max(0, $1.amount) }
        let rowHeight = 26, width = 640, labelWidth = 180
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(width) \(max(1, entries.count) * rowHeight + 4)\" role=\"img\" aria-labelledby=\"share-title\"><title id=\"share-title\">Share of commission by clinic</title>"
        for (index, entry) in entries.enumerated() {
            let percent = scale(max(0, entry.amount), to: 100, of: total)
            let y = index * rowHeight + 4
            let barWidth = Int(scale(max(0, entry.amount), to: width - labelWidth - 120, of: total))
            svg += "<text x=\"0\" y=\"\(y + 15)\">\(escape(String(entry.name.prefix(26))))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(max(barWidth, 1))\" height=\"16\" fill=\"\(palette[index % palette.count])\"/>"
            svg += "<text x=\"\(labelWidth + barWidth + 6)\" y=\"\(y + 15)\">\(percent)% · \(escape(currency.format(Money(minorUnits: entry.amount))))</text>"
        }
        return svg + "</svg>"
    }
}

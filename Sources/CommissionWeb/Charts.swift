import CommissionCore

/// The dashboard's charts, drawn on the server (no script, no external library), legible on a
/// 360-pixel phone: drawn at about the width they are shown at, with 12-pixel text.
///
/// A clinic has one colour everywhere — its card, both charts, their legends — from its place
/// among the book's clinics by id (``colorClass(_:)``); the colours are CSS classes (`c0` … `c11`
/// in app.css), since the pages' Content-Security-Policy allows no inline style.
enum Charts {
    static let paletteSize = 12

    /// Each clinic's colour class, by its place among all the book's clinics (archived ones
    /// included), so that it never changes with what a chart shows.
    static func colorClasses(_ clinics: [Clinic]) -> [Clinic.ID: String] {
        Dictionary(
            uniqueKeysWithValues: clinics.sorted { $0.id < $1.id }.enumerated().map {
                ($0.element.id, "c\($0.offset % paletteSize)")
            }
        )
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A round step for an axis that reaches `maximum` major units in four steps: 1, 2 or 5 × 10ⁿ.
    static func axisStep(forMaximum maximum: Int64) -> Int64 {
        let needed = max(1, (maximum + 3) / 4)
        var power: Int64 = 1
        while true {
            for factor: Int64 in [1, 2, 5] {
                let (step, overflow) = power.multipliedReportingOverflow(by: factor)
                if overflow || step >= needed { return overflow ? .max / 4 : step }
            }
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { return .max / 4 }
            power = next
        }
    }

    /// How wide a chart is drawn: about the width it is shown at, so that its 12-pixel text stays 12 pixels.
    enum Size: String {
        /// A phone's width (360): a month's bar is too narrow for its name, so every other month is named.
        case narrow
        /// A wide screen's chart column (640): every month named.
        case wide

        var width: Int { self == .narrow ? 360 : 640 }
        var height: Int { self == .narrow ? 200 : 240 }
    }

    /// The room a month's name needs under its bar (three letters of 12-pixel text and a gap).
    static let monthLabelRoom = 30

    /// Stacked bars: a bar per month, a colour per clinic; a labelled amount axis with gridlines,
    /// month names below — as many as fit without touching. Negative months draw as nothing (their
    /// figures are in the tables). The legend is ``legend(_:)``'s.
    static func monthly(
        months: [Day],
        series: [(name: String, color: String, values: [Int64])],
        style: LocaleStyle,
        size: Size
    ) -> String {
        let width = size.width, height = size.height, right = 6, top = 10, bottom = 22
        let scale = style.currency.scale
        let totals = months.indices.map { index in series.reduce(Int64(0)) { $0 &+ max(0, $1.values[index]) } }
        let step = axisStep(forMaximum: ((totals.max() ?? 0) + scale - 1) / scale)
        // Room for the widest amount on the axis ("20.000 €"), at about 7 units a character: never cut.
        let left = max(58, style.formatWhole(step * 4).count * 7 + 8)
        let top4 = step * 4 * scale  // the axis's top, in minor units
        let plot = height - top - bottom
        let id = "monthly-title-\(size.rawValue)"
        var svg =
            "<svg class=\"chart chart-\(size.rawValue)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(id)\"><title id=\"\(id)\">Commission per month and clinic, the last \(months.count) months</title>"
        for line in 0...4 {
            let y = top + plot - Int(scaleValue(Int64(line) * step * scale, to: plot, of: top4))
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y)\" y2=\"\(y)\"/>"
            svg +=
                "<text class=\"axis\" x=\"\(left - 4)\" y=\"\(y + 4)\" text-anchor=\"end\">\(escape(style.formatWhole(Int64(line) * step)))</text>"
        }
        let slot = (width - left - right) / max(months.count, 1)
        // Every month named when its bar is wide enough, else every second or third: names never touch.
        let every = max(1, (monthLabelRoom + slot - 1) / max(slot, 1))
        for (index, month) in months.enumerated() {
            var y = top + plot
            let x = left + index * slot + 2
            for entry in series {
                let value = max(0, entry.values[index])
                let barHeight = Int(scaleValue(value, to: plot, of: top4))
                guard barHeight > 0 else { continue }
                y -= barHeight
                svg +=
                    "<rect class=\"\(entry.color) fill\" x=\"\(x)\" y=\"\(y)\" width=\"\(slot - 4)\" height=\"\(barHeight)\"><title>\(escape(entry.name)), \(escape(style.monthName(month.month))) \(month.year): \(escape(style.format(Money(minorUnits: entry.values[index]))))</title></rect>"
            }
            // The newest month is always named; the others counting back from it.
            if (months.count - 1 - index) % every == 0 {
                svg +=
                    "<text class=\"axis month\" x=\"\(x + (slot - 4) / 2)\" y=\"\(height - 6)\" text-anchor=\"middle\">\(escape(style.monthName(month.month)))</text>"
            }
        }
        return svg + "</svg>"
    }

    /// The clinics' colours, named: one legend for both drawings of the monthly chart.
    static func legend(_ series: [(name: String, color: String, values: [Int64])]) -> String {
        var html = "<ul class=\"legend\">"
        for entry in series {
            html +=
                "<li><svg class=\"swatch-box\" viewBox=\"0 0 10 10\" aria-hidden=\"true\"><rect class=\"\(entry.color) fill\" width=\"10\" height=\"10\"/></svg> \(escape(entry.name))</li>"
        }
        return html + "</ul>"
    }

    /// `value × size / total`, rounded down, in exact integer arithmetic (no amount goes through a Double).
    static func scaleValue(_ value: Int64, to size: Int, of total: Int64) -> Int64 {
        guard total > 0, value > 0 else { return 0 }
        let product = value.multipliedFullWidth(by: Int64(size))
        return min(Int64(size), total.dividingFullWidth((product.high, product.low)).quotient)
    }

    /// Each clinic's share of the year's commission: a bar each, the name above it, the share
    /// (whole percentages that add up to 100) and the amount beside it.
    static func share(_ entries: [(name: String, color: String, amount: Int64)], style: LocaleStyle) -> String {
        let width = 360, rowHeight = 40, barLeft = 0, barRoom = 200
        let percentages = Percentages.largestRemainder(entries.map(\.amount))
        let largest = max(entries.map { max(0, $0.amount) }.max() ?? 0, 1)
        var svg =
            "<svg class=\"chart\" viewBox=\"0 0 \(width) \(max(1, entries.count) * rowHeight + 4)\" role=\"img\" aria-labelledby=\"share-title\"><title id=\"share-title\">Share of this year's commission by clinic</title>"
        for (index, entry) in entries.enumerated() {
            let y = index * rowHeight
            let barWidth = max(Int(scaleValue(max(0, entry.amount), to: barRoom, of: largest)), 1)
            svg += "<text x=\"\(barLeft)\" y=\"\(y + 14)\">\(escape(String(entry.name.prefix(44))))</text>"
            svg +=
                "<rect class=\"\(entry.color) fill\" x=\"\(barLeft)\" y=\"\(y + 19)\" width=\"\(barWidth)\" height=\"14\"/>"
            svg +=
                "<text x=\"\(barLeft + barWidth + 6)\" y=\"\(y + 31)\">\(percentages[index])% · \(escape(style.format(Money(minorUnits: entry.amount))))</text>"
        }
        return svg + "</svg>"
    }
}

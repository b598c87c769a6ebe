import CommissionCore
import CommissionStore
import Foundation
import GRDB

// Hand-written mapping between rows and domain values: the hot records are read by the thousand,
// and GRDB's Codable path costs ~10 µs a row more (PERFORMANCE.md).

enum Rows {
    static let clinicColumns =
        "clinic.id, clinic.name, clinic.scheduleKind, clinic.scheduleAnchor, clinic.isArchived, clinic.scheduleChanges"

    static func clinic(_ row: Row, at i: Int = 0) throws -> Clinic {
        let schedule: PaySchedule
        do {
            schedule = try PaySchedule(kind: row[i + 2], anchor: row[i + 3])
        } catch {
            throw StoreError.storage("a stored pay schedule is malformed")
        }
        return Clinic(
            id: Clinic.ID(row[i] as Int64),
            name: row[i + 1],
            schedule: schedule,
            scheduleChanges: try ScheduleChange.reading(stored: row[i + 5], clinic: row[i]),
            isArchived: row[i + 4]
        )
    }

    static let productColumns =
        "product.id, product.name, product.sku, product.unitPriceMinor, product.unitCostMinor, product.isArchived"

    static func product(_ row: Row, at i: Int = 0) -> Product {
        Product(
            id: Product.ID(row[i] as Int64),
            name: row[i + 1],
            sku: row[i + 2],
            unitPrice: Money(minorUnits: row[i + 3]),
            unitCost: Money(minorUnits: row[i + 4]),
            isArchived: row[i + 5]
        )
    }

    static let termsColumns =
        "terms.id, terms.clinicId, terms.productId, terms.basis, terms.shareBasisPoints, terms.effectiveFrom, terms.isArchived, terms.tiers"

    static func terms(_ row: Row) throws -> Terms {
        // try?: a share out of range is thrown just after, as malformed stored terms
        guard let basis = CommissionBasis(rawValue: row[3]), let share = try? Share(basisPoints: row[4]) else {
            throw StoreError.storage("stored terms are malformed")
        }
        return Terms(
            id: Terms.ID(row[0] as Int64),
            clinicID: Clinic.ID(row[1] as Int64),
            productID: (row[2] as Int64?).map { Product.ID($0) },
            basis: basis,
            share: share,
            tiers: try Tier.reading(stored: row[7], terms: row[0]),
            effectiveFrom: try Day.stored(row[5], row: "Terms \(row[0] as Int64)'s effective date"),
            isArchived: row[6]
        )
    }

    /// A sale's id, its columns (``SaleRow/columns``) and its voided flag: what ``sale(_:)`` reads.
    static let saleColumns = (["id"] + SaleRow.columns + ["isVoided"]).map { "sale.\($0)" }.joined(separator: ", ")

    static func sale(_ row: some SaleCells) throws -> Sale {
        try SaleRow(
            id: row.int64(0),
            clinicID: row.int64(1),
            productID: row.int64(2),
            date: row.text(3),
            quantity: row.int64(4),
            unitPriceMinor: row.int64(5),
            unitCostMinor: row.int64(6),
            discountMinor: row.int64(7),
            termsID: row.optionalInt64(8),
            shareBasisPoints: row.optionalInt64(9).map { Int($0) },
            basis: row.optionalText(10),
            revenueMinor: row.int64(11),
            costMinor: row.int64(12),
            profitMinor: row.int64(13),
            commissionExact: row.int64(14),
            commissionMinor: row.int64(15),
            note: row.optionalText(16),
            isVoided: row.int64(17) != 0
        ).sale()
    }

    static func payout(_ row: Row) throws -> Payout {
        Payout(
            id: Payout.ID(row[0] as Int64),
            clinicID: Clinic.ID(row[1] as Int64),
            period: PayPeriod(
                start: try Day.stored(row[2], row: "Payout \(row[0] as Int64)'s period"),
                end: try Day.stored(row[3], row: "Payout \(row[0] as Int64)'s period")
            ),
            amount: Money(minorUnits: row[4]),
            receivedOn: try Day.stored(row[5], row: "Payout \(row[0] as Int64)'s date received"),
            reference: row[6]
        )
    }

    static let auditColumns = "id, at, actor, subject, subjectId, lastSubjectId, action, before, after"

    static func audit(_ row: Row) -> AuditEntry {
        AuditEntry(
            id: AuditEntry.ID(row[0] as Int64),
            at: Date(timeIntervalSince1970: TimeInterval(row[1] as Int64)),
            actor: row[2],
            subject: AuditSubject(rawValue: row[3]) ?? .sale,
            subjectID: row[4],
            lastSubjectID: row[5],
            action: row[6],
            before: row[7],
            after: row[8]
        )
    }

    static let payoutColumns =
        "payout.id, payout.clinicId, payout.periodStart, payout.periodEnd, payout.amountMinor, payout.receivedOn, payout.reference"

    /// Totals from a summary row: saleCount, quantity, revenue, cost, profit, commission, exact commission.
    static func totals(_ row: Row, at i: Int, rounding: RoundingPolicy) -> Totals {
        let exact = ExactCommission(tenThousandths: row[i + 6] ?? 0)
        return Totals(
            saleCount: row[i] ?? 0,
            quantity: row[i + 1] ?? 0,
            revenue: Money(minorUnits: row[i + 2] ?? 0),
            cost: Money(minorUnits: row[i + 3] ?? 0),
            profit: Money(minorUnits: row[i + 4] ?? 0),
            commission: rounding.scope == .perLine ? Money(minorUnits: row[i + 5] ?? 0) : exact.rounded(rounding.rule)
        )
    }

    /// The sums of a summary row, unrounded, to be added to others' before they are rounded.
    static func sums(_ row: Row, at i: Int) -> Totals.Accumulator {
        var sums = Totals.Accumulator()
        sums.saleCount = row[i] ?? 0
        sums.quantity = row[i + 1] ?? 0
        sums.revenue = Money(minorUnits: row[i + 2] ?? 0)
        sums.cost = Money(minorUnits: row[i + 3] ?? 0)
        sums.profit = Money(minorUnits: row[i + 4] ?? 0)
        sums.roundedCommission = Money(minorUnits: row[i + 5] ?? 0)
        sums.exactCommission = ExactCommission(tenThousandths: row[i + 6] ?? 0)
        return sums
    }

    /// The select list that sums a summary table in the order ``totals(_:at:rounding:)`` reads.
    static let totalsSums =
        "sum(saleCount), sum(quantity), sum(revenueMinor), sum(costMinor), sum(profitMinor), sum(commissionMinor), sum(commissionExact)"
}

extension Rows {
    static let priceColumns =
        "priceListEntry.id, priceListEntry.clinicId, priceListEntry.productId, priceListEntry.unitPriceMinor, "
        + "priceListEntry.unitCostMinor, priceListEntry.effectiveFrom"

    static func price(_ row: Row) throws -> PriceListEntry {
        PriceListEntry(
            id: PriceListEntry.ID(row[0] as Int64),
            clinicID: Clinic.ID(row[1] as Int64),
            productID: Product.ID(row[2] as Int64),
            unitPrice: Money(minorUnits: row[3]),
            unitCost: (row[4] as Int64?).map { Money(minorUnits: $0) },
            effectiveFrom: try Day.stored(row[5], row: "Price-list entry \(row[0] as Int64)'s effective date")
        )
    }
}

extension Rows {
    static let deductionColumns =
        "deduction.id, deduction.clinicId, deduction.name, deduction.kind, deduction.amountMinor, deduction.shareBasisPoints, "
        + "deduction.effectiveFrom, deduction.lastDay"

    static func deduction(_ row: Row) throws -> Deduction {
        let id: Int64 = row[0]
        return Deduction(
            id: Deduction.ID(id),
            clinicID: Clinic.ID(row[1] as Int64),
            name: row[2],
            amount: try DeductionAmount(kind: row[3], amountMinor: row[4], shareBasisPoints: row[5], deduction: id),
            effectiveFrom: try Day.stored(row[6], row: "Deduction \(id)'s first day"),
            lastDay: try (row[7] as String?).map { try Day.stored($0, row: "Deduction \(id)'s last day") }
        )
    }
}

/// A row's cells by position, as ``Rows/sale(_:)`` reads them: a GRDB `Row`, or a statement's
/// current row read through SQLite's C API (``FastRow``).
protocol SaleCells {
    func int64(_ index: Int) -> Int64
    func optionalInt64(_ index: Int) -> Int64?
    func text(_ index: Int) -> String
    func optionalText(_ index: Int) -> String?
}

extension Row: SaleCells {
    func int64(_ index: Int) -> Int64 { self[index] }
    func optionalInt64(_ index: Int) -> Int64? { self[index] }
    func text(_ index: Int) -> String { self[index] }
    func optionalText(_ index: Int) -> String? { self[index] }
}

import CommissionCore

/// The book's data access object: every read and write of Commission goes through it.
///
/// Implementations (SQLite, PostgreSQL) run the same conformance suite. The rules they share:
///
/// - Every write is atomic: when a method throws, nothing it started is left behind.
/// - Errors are ``StoreError`` values (or the domain's own errors for malformed values), each with a
///   sentence a user can act on.
/// - Money history is never deleted: a clinic or product with sales can only be archived, a sale
///   only voided.
/// - Sales keep a snapshot of the price, cost, share and basis they were computed with; only
///   terms changes recompute them, and never in a closed period.
/// - Every committed write is announced on ``changes()``, which drives live queries.
public protocol CommissionStore: Sendable {
    // MARK: Book

    /// The book's currency, time zone and rounding.
    func settings() async throws -> BookSettings
    /// Changes the book's settings. The currency cannot change once amounts are recorded; a new
    /// rounding rule recomputes the sales of open periods.
    func updateSettings(_ settings: BookSettings) async throws

    // MARK: Clinics

    func createClinic(_ draft: ClinicDraft) async throws -> Clinic
    func clinic(_ id: Clinic.ID) async throws -> Clinic
    /// The clinic with this name, compared without regard to case; archived ones included.
    func clinic(named name: String) async throws -> Clinic
    func clinics(_ query: ClinicQuery) async throws -> [Clinic]
    /// Renames, reschedules, archives or restores a clinic.
    func updateClinic(_ clinic: Clinic) async throws -> Clinic
    /// Deletes a clinic that never sold anything (with its terms). Refused with
    /// ``StoreError/hasHistory(_:name:sales:)`` otherwise.
    func deleteClinic(_ id: Clinic.ID) async throws

    // MARK: Products

    func createProduct(_ draft: ProductDraft) async throws -> Product
    func product(_ id: Product.ID) async throws -> Product
    /// The product with this name or SKU, compared without regard to case; archived ones included.
    func product(named name: String) async throws -> Product
    func products(_ query: ProductQuery) async throws -> [Product]
    /// Changes a product. Past sales keep the price and cost they were recorded with.
    func updateProduct(_ product: Product) async throws -> Product
    func deleteProduct(_ id: Product.ID) async throws

    // MARK: Terms

    /// Adds terms; sales on or after the effective date in open periods are recomputed.
    func createTerms(_ draft: TermsDraft) async throws -> TermsChange
    func terms(_ id: Terms.ID) async throws -> Terms
    func terms(_ query: TermsQuery) async throws -> [Terms]
    /// Changes or archives terms, recomputing the affected sales of open periods.
    func updateTerms(_ terms: Terms) async throws -> TermsChange

    // MARK: Price lists

    /// Sets a clinic's own price (and, optionally, cost) of a product from a day on: the default of
    /// every sale of it there from that day (`SalePrice`). An entry of the same clinic, product and
    /// day is replaced. Recorded sales never change.
    func setPrice(_ draft: PriceDraft) async throws -> PriceListEntry
    /// Price-list entries, by clinic, product and day.
    func prices(_ query: PriceQuery) async throws -> [PriceListEntry]
    /// Removes an entry; the sales recorded with its price keep it.
    func removePrice(_ id: PriceListEntry.ID) async throws

    // MARK: Deductions

    /// Adds a fee the clinic deducts from what it pays (the id of `deduction` is ignored). Refused
    /// when its dates take in a closed period.
    func createDeduction(_ deduction: Deduction) async throws -> Deduction
    /// The deductions of one clinic, or of all, by clinic and first day.
    func deductions(clinic: Clinic.ID?) async throws -> [Deduction]
    /// One deduction. - Throws: ``StoreError/notFound(_:id:)``.
    func deduction(_ id: Deduction.ID) async throws -> Deduction
    /// Changes a deduction (its name, amount or dates: ending it is giving it a last day). Refused
    /// when its dates, before or after, take in a closed period.
    func updateDeduction(_ deduction: Deduction) async throws -> Deduction
    /// Removes a deduction, under the same refusal.
    func deleteDeduction(_ id: Deduction.ID) async throws

    // MARK: Sales

    /// Records a sale. With an idempotency key, a second call with the same key records nothing and
    /// returns the sale recorded by the first.
    func createSale(_ draft: SaleDraft, idempotencyKey: String?) async throws -> Sale
    func sale(_ id: Sale.ID) async throws -> Sale
    func sales(_ query: SaleQuery) async throws -> [Sale]
    /// How many sales a query matches (its page ignored).
    func countSales(_ query: SaleQuery) async throws -> Int
    /// The days from `first` through `last` with at least one sale (not voided): what the entry
    /// assistant's missed days are found from, read from the day summary.
    func daysWithSales(from first: Day, through last: Day) async throws -> Set<Day>
    /// Replaces a sale's content; nil prices keep the sale's own snapshot. Terms are resolved again.
    func updateSale(_ id: Sale.ID, with draft: SaleDraft) async throws -> Sale
    /// Voids a sale: it stays on record but counts nowhere.
    func voidSale(_ id: Sale.ID) async throws -> Sale

    // MARK: Payouts and periods

    func createPayout(_ draft: PayoutDraft) async throws -> Payout
    /// Records several payouts in one transaction: all of them, or (when one is refused) none —
    /// a deposit that pays two periods is two payouts.
    func createPayouts(_ drafts: [PayoutDraft]) async throws -> [Payout]
    func payouts(_ query: PayoutQuery) async throws -> [Payout]
    func deletePayout(_ id: Payout.ID) async throws
    /// Closes a clinic's period: its sales and payouts cannot change until it is reopened.
    func closePeriod(clinic: Clinic.ID, period: PayPeriod) async throws
    func reopenPeriod(clinic: Clinic.ID, period: PayPeriod) async throws

    // MARK: Transactions

    /// Makes several writes in one transaction: all of them, or (when one is refused, with its
    /// error) none. See ``transaction(_:)``.
    func apply(_ writes: [StoreWrite]) async throws -> [StoreWritten]

    // MARK: Reports

    func dashboard(today: Day) async throws -> Dashboard
    /// The dashboard's headline figures alone (today, this month, the year to date): what a live
    /// update carries. A store can answer it without the rest of the dashboard.
    func headline(today: Day) async throws -> Headline
    /// Every sale line of a clinic's period and what the clinic owes for it.
    func statement(clinic: Clinic.ID, period: PayPeriod) async throws -> Statement
    /// Each clinic's totals per calendar month, for the months from `first` through `last` that have sales.
    func clinicMonths(from first: Day, through last: Day) async throws -> [ClinicMonth]
    /// Every period of a clinic with sales or payouts up to today's, with a running balance.
    func reconciliation(clinic: Clinic.ID, today: Day) async throws -> Reconciliation
    /// The reconciliations of `clinics`, in their order, read together (a page of every clinic):
    /// each as ``reconciliation(clinic:today:)`` says it.
    func reconciliations(clinics: [Clinic.ID], today: Day) async throws -> [Reconciliation]

    // MARK: Import

    /// Applies a whole import in one transaction: every row lands, or (on any problem, or a dry run)
    /// none does. Problems are thrown as ``StoreError/importRejected(_:total:)``.
    func importRows(from source: any ImportSource, options: ImportOptions) async throws -> ImportSummary

    // MARK: Audit

    /// The record of every change to sales, terms, payouts, periods and settings (who, when, before
    /// and after), newest first. An import is one entry covering the sales it created.
    func auditLog(_ query: AuditQuery) async throws -> [AuditEntry]

    // MARK: Changes

    /// The tables touched by each committed write, from now on — including writes by other
    /// processes on the same database, where the implementation can see them.
    func changes() -> StoreChanges
}

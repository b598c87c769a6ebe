import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore
import Foundation

struct SaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sale",
        abstract: "Record, list, change or void sales.",
        discussion: """
            Example:
              commission sale add "Glow" "Serum 30ml" 2
              commission sale list --clinic "Glow" --from 2026-03-01
            """,
        subcommands: [Add.self, Repeat.self, List.self, Edit.self, Void.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a sale (or, with a negative quantity, a return).",
            discussion: """
                Name the clinic, the product (name or SKU) and the quantity; or only the product (and \
                a quantity), and the sale goes to the clinic of your last sale, as the quick entry \
                page does. Price and cost default to the product's; the commission follows the \
                clinic's terms in force on the sale's date.

                Examples:
                  commission sale add "Glow" "Serum 30ml" 2
                  commission sale add SER-30                      # at the clinic of your last sale
                  commission sale add SER-30 2 --date yesterday
                  commission sale add "Glow" SER-30 --return --note "returned, allergy"
                  commission sale add "Harbor" "Daily SPF 50" --price 35.00 --discount 3.50 --date 2026-03-02
                  commission sale add "Harbor" "Daily SPF 50" --no-commission --note sample
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(
            help: ArgumentHelp(
                "[CLINIC] PRODUCT [QUANTITY]: the clinic's name, the product's name or SKU, units sold (for a return add --return, or write `-- -1`).",
                valueName: "words"
            )
        )
        var words: [String] = []
        @Flag(name: .customLong("return"), help: "A return: the quantity comes back, and so does its commission.")
        var isReturn = false
        @Option(help: "The sale's date (YYYY-MM-DD, today, yesterday; default today).") var date: String?
        @Option(help: "Unit price, when not the product's.") var price: String?
        @Option(help: "Unit cost, when not the product's.") var cost: String?
        @Option(help: "A discount on the whole line.") var discount: String?
        @Flag(name: .long, help: "A sample or personal use: no commission.") var noCommission = false
        @Option(help: "A note.") var note: String?
        @Option(
            name: .customLong("idempotency-key"),
            help: "A key that makes retrying safe: the same key records one sale."
        ) var key: String?

        /// The words as clinic (or none: the entry form's), product and quantity.
        func parts() throws -> (clinic: String?, product: String, quantity: Int64) {
            switch words.count {
            case 1: return (nil, words[0], 1)
            case 2:
                if let quantity = Int64(words[1]) { return (nil, words[0], quantity) }
                return (words[0], words[1], 1)
            case 3:
                guard let quantity = Int64(words[2]) else {
                    throw ValidationError("The quantity \"\(words[2])\" is not a whole number.")
                }
                return (words[0], words[1], quantity)
            default:
                throw ValidationError(
                    "Name the product, with the clinic before it and the quantity after it if you like: commission sale add \"Glow\" SER-30 2"
                )
            }
        }

        func validate() throws { _ = try parts() }

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let (clinicName, productName, quantity) = try parts()
            let clinic: Clinic
            if let clinicName {
                clinic = try await store.clinic(named: clinicName)
            } else {
                guard let chosen = try await EntryRequest(today: settings.today()).fetch(from: store).clinic else {
                    throw Failure("There is no clinic yet: add one with `commission clinic add`.")
                }
                clinic = chosen
            }
            let product = try await store.product(named: productName)
            let sale = try await store.createSale(
                SaleDraft(
                    clinicID: clinic.id,
                    productID: product.id,
                    date: try date.map { try parseDay($0) } ?? settings.today(),
                    quantity: isReturn ? -abs(quantity) : quantity,
                    unitPrice: try price.map { try settings.money($0, "price") },
                    unitCost: try cost.map { try settings.money($0, "cost") },
                    discount: try discount.map { try settings.money($0, "discount") } ?? .zero,
                    noCommission: noCommission,
                    note: note
                ),
                idempotencyKey: key
            )
            output(
                describe(
                    sale,
                    product: product.name,
                    clinic: clinic.name + (clinicName == nil ? " (your last clinic)" : ""),
                    settings: settings
                )
            )
        }
    }

    struct Repeat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a sale again: the same clinic, product, quantity, price, cost, discount and note, today.",
            discussion: """
                Example:
                  commission sale repeat 42
                  commission sale repeat 42 --date yesterday --idempotency-key phone-7f3a
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The id of the sale to repeat (see `commission sale list`).") var id: Int64
        @Option(help: "The new sale's date (YYYY-MM-DD, today, yesterday; default today).") var date: String?
        @Option(
            name: .customLong("idempotency-key"),
            help: "A key that makes retrying safe: the same key records one sale."
        ) var key: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let original = try await store.sale(Sale.ID(id))
            let sale = try await store.createSale(
                SaleDraft(repeating: original, on: try date.map { try parseDay($0) } ?? settings.today()),
                idempotencyKey: key
            )
            output(
                describe(
                    sale,
                    product: try await store.product(sale.productID).name,
                    clinic: try await store.clinic(sale.clinicID).name,
                    settings: settings
                )
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List sales, newest first.",
            discussion: """
                Example:
                  commission sale list --clinic "Glow" --from 2026-03-01 --to 2026-03-31 --format csv
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Option(help: "Only this clinic's sales.") var clinic: String?
        @Option(help: "Only this product's sales.") var product: String?
        @Option(help: "From this date.") var from: String?
        @Option(help: "Through this date.") var to: String?
        @Option(help: "Only sales whose note or product contains this text.") var search: String?
        @Option(help: "At most this many sales.") var limit: Int = 50
        @Option(help: "Skip this many sales first.") var offset: Int = 0
        @Flag(name: .long, help: "Include voided sales.") var voided = false

        func run() async throws {
            let store = try book.open()
            let renderer = Renderer(
                currency: try await store.settings().currency,
                names: try await Presenter.Names(store: store)
            )
            let query = SaleQuery(
                clinicID: try await clinic.asyncMap { try await store.clinic(named: $0).id },
                productID: try await product.asyncMap { try await store.product(named: $0).id },
                from: try from.map { try parseDay($0) },
                through: try to.map { try parseDay($0) },
                text: search,
                includeVoided: voided,
                page: Page(limit: limit, offset: offset)
            )
            let sales = try await store.sales(query)
            output(renderer.render(renderer.sales(sales), as: format.format))
            if format.format == .table {
                let total = try await store.countSales(query)
                if total > sales.count {
                    note("Showing \(sales.count) of \(total) sales; use --limit and --offset for more.")
                }
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a sale; its commission is computed again.",
            discussion: """
                Options left out keep the sale's current values.

                Example:
                  commission sale edit 42 --quantity 3 --discount 5.00
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The sale's id.") var id: Int64
        @Option(help: "Another clinic.") var clinic: String?
        @Option(help: "Another product.") var product: String?
        @Option(help: "Another date.") var date: String?
        @Option(help: "Another quantity.") var quantity: Int64?
        @Option(help: "Another unit price.") var price: String?
        @Option(help: "Another unit cost.") var cost: String?
        @Option(help: "Another discount.") var discount: String?
        @Option(help: "Another note.") var note: String?
        @Flag(inversion: .prefixedNo, help: "Mark or unmark as no commission.") var commission: Bool?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let sale = try await store.sale(Sale.ID(id))
            var draft = SaleDraft(
                clinicID: sale.clinicID,
                productID: sale.productID,
                date: sale.date,
                quantity: sale.quantity,
                unitPrice: sale.line.unitPrice,
                unitCost: sale.line.unitCost,
                discount: sale.line.discount,
                noCommission: sale.isNoCommission,
                note: sale.note
            )
            if let clinic { draft.clinicID = try await store.clinic(named: clinic).id }
            if let product { draft.productID = try await store.product(named: product).id }
            if let date { draft.date = try parseDay(date) }
            if let quantity { draft.quantity = quantity }
            if let price { draft.unitPrice = try settings.money(price, "price") }
            if let cost { draft.unitCost = try settings.money(cost, "cost") }
            if let discount { draft.discount = try settings.money(discount, "discount") }
            if let note { draft.note = note }
            if let commission { draft.noCommission = !commission }
            let updated = try await store.updateSale(sale.id, with: draft)
            output(
                "Sale \(updated.id): commission \(settings.currency.format(sale.figures.commission)) → \(settings.currency.format(updated.figures.commission)).\n"
            )
        }
    }

    struct Void: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Void a sale: it stays on record but counts nowhere.",
            discussion: """
                Example:
                  commission sale void 42
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The sale's id.") var id: Int64

        func run() async throws {
            let store = try book.open()
            let sale = try await store.voidSale(Sale.ID(id))
            output("Voided sale \(sale.id) of \(sale.date).\n")
        }
    }
}

/// A recorded sale, as `sale add` and `sale repeat` print it.
func describe(_ sale: Sale, product: String, clinic: String, settings: BookSettings) -> String {
    let c = settings.currency
    return
        "Sale \(sale.id): \(sale.quantity) × \(product) at \(clinic) on \(sale.date) — revenue \(c.format(sale.figures.revenue)), profit \(c.format(sale.figures.profit)), commission \(c.format(sale.figures.commission)).\n"
}

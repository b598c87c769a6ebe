import ArgumentParser
import CommissionCore
import CommissionKit
import CommissionStore

struct PriceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
        abstract: "Set, list or remove a clinic's own prices.",
        discussion: """
            A clinic may sell a product at its own price, and supply it at its own cost, from a date \
            on. A sale's price and cost start from the clinic's entry with the latest date on or \
            before the sale's, else from the product; an entry without a cost takes the product's. \
            A price typed on a sale beats both, and a recorded sale never changes.

            Example:
              commission price set "Glow" "Serum 30ml" 45.00 --cost 18.00 --from 2026-03-15
              commission price list --clinic "Glow"
            """,
        subcommands: [SetPrice.self, List.self, Remove.self]
    )

    struct SetPrice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a clinic's price of a product from a date on.",
            discussion: """
                An entry of the same clinic, product and date is replaced.

                Example:
                  commission price set "Glow" "Serum 30ml" 45.00 --from 2026-03-15
                  commission price set "Glow" SER-30 48.00 --cost 19.50 --from 2026-04-01
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The clinic's name.") var clinic: String
        @Argument(help: "The product's name or SKU.") var product: String
        @Argument(help: "The clinic's unit price (45.00).") var price: String
        @Option(help: "The clinic's unit cost, when it supplies the product at its own (default: the product's).")
        var cost: String?
        @Option(help: "First day of the price (YYYY-MM-DD; default today).") var from: String?

        func run() async throws {
            let store = try book.open()
            let settings = try await store.settings()
            let clinic = try await store.clinic(named: self.clinic)
            let product = try await store.product(named: self.product)
            let entry = try await store.setPrice(
                PriceDraft(
                    clinicID: clinic.id,
                    productID: product.id,
                    unitPrice: try settings.money(price, "price"),
                    unitCost: try cost.map { try settings.money($0, "cost") },
                    effectiveFrom: try from.map { try parseDay($0, "first day") } ?? settings.today()
                )
            )
            let c = settings.currency
            output(
                "Price \(entry.id): \(product.name) at \(clinic.name) \(c.format(entry.unitPrice)), cost "
                    + "\(entry.unitCost.map(c.format) ?? "\(c.format(product.unitCost)) (the product's)") from \(entry.effectiveFrom).\n"
                    + "Sales recorded before keep their prices.\n"
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List price-list entries.",
            discussion: """
                Example:
                  commission price list --clinic "Glow" --format csv
                """
        )
        @OptionGroup var book: BookOptions
        @OptionGroup var format: FormatOption
        @Option(help: "Only this clinic's entries.") var clinic: String?
        @Option(help: "Only this product's entries (name or SKU).") var product: String?

        func run() async throws {
            let store = try book.open()
            let renderer = Renderer(
                currency: try await store.settings().currency,
                names: try await Presenter.Names(store: store)
            )
            let clinicID = try await clinic.asyncMap { try await store.clinic(named: $0).id }
            let productID = try await product.asyncMap { try await store.product(named: $0).id }
            output(
                renderer.render(
                    renderer.prices(try await store.prices(PriceQuery(clinicID: clinicID, productID: productID))),
                    as: format.format
                )
            )
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a price-list entry; recorded sales keep their prices.",
            discussion: """
                Example:
                  commission price remove 4
                """
        )
        @OptionGroup var book: BookOptions
        @Argument(help: "The entry's id (see `commission price list`).") var id: Int64

        func run() async throws {
            let store = try book.open()
            try await store.removePrice(PriceListEntry.ID(id))
            output("Removed price-list entry \(id). Sales recorded with it keep their prices.\n")
        }
    }
}

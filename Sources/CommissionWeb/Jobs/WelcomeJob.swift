import CommissionCore
import CommissionStore
import Foundation
import Hummingbird

/// Her first minutes: a clinic in one form — its name, how it pays, her split, and what she sells
/// there — on the set-up page itself, or later at `/welcome`; then the Sale page. The clinic's
/// terms are in force from the start of her records, so a sale she enters for last week simply
/// works. Until the book has a clinic, a product and a sale, the Sale page and the dashboard show
/// the first steps, each a link to the form that does it.
struct WelcomeJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/welcome") { _, context in try await welcomePage(context: context) }
        pages.post("/welcome") { request, context in try await addFirstClinic(request, context: context) }
    }

    func welcomePage(
        context: AppRequestContext,
        form: Form? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let settings = try await app.store.settings()
        let hasProducts = try await !app.store.products(ProductQuery(page: Page(limit: 1))).isEmpty
        let view = WelcomePageView(
            firstClinic: FirstClinic.fields(form: form, settings: settings, needsProduct: !hasProducts, required: true),
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "welcome",
            view: view,
            title: "Your first clinic",
            nav: "book",
            context: context,
            status: status,
            error: error
        )
    }

    func addFirstClinic(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await app.store.settings()
        return try await app.form(
            {
                let needsProduct = try await app.store.products(ProductQuery(page: Page(limit: 1))).isEmpty
                let clinic = try await FirstClinic.read(form, style: settings.style, needsProduct: needsProduct).make(
                    in: app.store
                )
                return .redirect(to: FirstClinic.salePage(clinic))
            },
            refused: { refusal in
                try await welcomePage(
                    context: context,
                    form: form,
                    error: refusal.detail,
                    status: .init(code: refusal.status)
                )
            }
        )
    }

    /// The first steps, each a link to the form that does it, until the book has a clinic, a
    /// product and a sale (then nil: the list is gone for good).
    static func firstSteps(_ store: any CommissionStore, onSalePage: Bool) async throws -> FirstSteps? {
        let hasSale = try await !store.sales(SaleQuery(page: Page(limit: 1))).isEmpty
        let hasClinic = try await !store.clinics(ClinicQuery(page: Page(limit: 1))).isEmpty
        let hasProduct = try await !store.products(ProductQuery(page: Page(limit: 1))).isEmpty
        guard !(hasClinic && hasProduct && hasSale) else { return nil }
        // With a clinic and a product, the Sale page's own form is the step left: no card above it.
        if onSalePage && hasClinic && hasProduct { return nil }
        return FirstSteps(
            items: [
                .init(
                    number: 1,
                    label: hasClinic ? "A clinic and your split" : "Add a clinic and your split",
                    href: "/welcome",
                    done: hasClinic
                ),
                .init(
                    number: 2,
                    label: hasProduct ? "A product you sell" : "Add a product you sell",
                    href: hasClinic ? "/book#products" : "/welcome",
                    done: hasProduct
                ),
                .init(
                    number: 3,
                    label: hasSale ? "Your first sale" : "Record your first sale",
                    href: onSalePage ? "#sale-form" : "/",
                    done: hasSale
                ),
            ],
            importOffered: !hasSale
        )
    }

    /// What the Sale page says after the form: "Added Bella Skin, paid monthly, 40% of profit."
    static func added(_ clinic: Clinic, terms: [Terms], settings: BookSettings) -> String {
        let standing = terms.filter { $0.productID == nil }.max { $0.effectiveFrom < $1.effectiveFrom }
        return
            "Added \(clinic.name), paid \(BookJob.describe(clinic.calendar.schedule(on: settings.today()), style: settings.style))"
            + (standing.map { ", \($0.share.shortPercentText)% of \($0.basis.rawValue)" } ?? "")
            + ". Record a sale there below."
    }
}

/// The first clinic's form, read: the clinic, her split of it, and the products she sells there.
struct FirstClinic {
    var clinic: ClinicDraft
    var share: Share
    var basis: CommissionBasis
    var products: [ProductDraft]

    /// How many product rows the form draws (blank ones are left out).
    static let productRows = 3

    /// Reads the form's fields, amounts in `style`; every field is checked before anything is
    /// written. `needsProduct`: the book has none yet, so one is asked for.
    static func read(_ form: Form, style: LocaleStyle, needsProduct: Bool) throws -> FirstClinic {
        let clinic = ClinicDraft(name: form["name"] ?? "", schedule: try BookJob.schedule(form))
        guard !clinic.name.isEmpty else { throw Problem(.unprocessableContent, "Give the clinic its name.") }
        let share: Share
        do { share = try Share(parsing: form["share"] ?? "") } catch {
            throw Problem(.unprocessableContent, "Your share: \(error)")
        }
        var products: [ProductDraft] = []
        for index in 0..<productRows {
            let name = form["product\(index)"] ?? "", price = form["price\(index)"] ?? "",
                cost = form["cost\(index)"] ?? ""
            if name.isEmpty && price.isEmpty && cost.isEmpty { continue }
            guard !name.isEmpty else { throw Problem(.unprocessableContent, "Product \(index + 1): give it a name.") }
            guard !price.isEmpty else { throw Problem(.unprocessableContent, "\(name): give its price.") }
            func amount(_ text: String, _ what: String) throws -> Money {
                do { return try style.parse(text) } catch {
                    throw Problem(.unprocessableContent, "\(name): the \(what): \(error)")
                }
            }
            products.append(
                ProductDraft(
                    name: name,
                    unitPrice: try amount(price, "price"),
                    unitCost: cost.isEmpty ? .zero : try amount(cost, "cost")
                )
            )
        }
        if products.isEmpty && needsProduct {
            throw Problem(.unprocessableContent, "Add a product you sell there: its name and price.")
        }
        return FirstClinic(
            clinic: clinic,
            share: share,
            basis: CommissionBasis(rawValue: form["basis"] ?? "profit") ?? .profit,
            products: products
        )
    }

    /// The fields read, or nil when every one of them is blank (the set-up form's clinic is
    /// optional: she may look around first).
    static func readIfGiven(_ form: Form, style: LocaleStyle, needsProduct: Bool) throws -> FirstClinic? {
        let fields = ["name", "share"] + (0..<productRows).flatMap { ["product\($0)", "price\($0)", "cost\($0)"] }
        guard fields.contains(where: { form[$0] != nil }) else { return nil }
        return try read(form, style: style, needsProduct: needsProduct)
    }

    /// Makes the clinic and the products together (all or none), then the clinic's standing terms,
    /// in force from the first day a book takes.
    func make(in store: any CommissionStore) async throws -> Clinic {
        let made = try await store.apply([.createClinic(clinic)] + products.map { .createProduct($0) })
        guard case .clinic(let clinic) = made.first else {
            throw Problem(.internalServerError, "The clinic was not made.")
        }
        _ = try await store.createTerms(
            TermsDraft(clinicID: clinic.id, basis: basis, share: share, effectiveFrom: AcceptedDays.earliest)
        )
        return clinic
    }

    /// The Sale page at the clinic just made, saying what was added (from the book, not the link).
    static func salePage(_ clinic: Clinic) -> String {
        "/?clinic=\(clinic.id)&added=\(clinic.id)"
    }

    /// The form's values: what she typed when it is drawn again.
    /// `required`: the form is the clinic's alone (at set-up it may be left blank).
    static func fields(form: Form?, settings: BookSettings, needsProduct: Bool, required: Bool) -> FirstClinicFields {
        let today = settings.today()
        let kind = form?["scheduleKind"] ?? "monthly"
        let zero = settings.style.formatInput(.zero)
        let rows = (0..<productRows).map { index in
            FirstClinicFields.ProductRow(
                index: index,
                name: form?["product\(index)"] ?? "",
                price: form?["price\(index)"] ?? "",
                cost: form?["cost\(index)"] ?? "",
                first: index == 0 && needsProduct && required,
                zero: zero
            )
        }
        return FirstClinicFields(
            name: form?["name"] ?? "",
            share: form?["share"] ?? "",
            revenue: form?["basis"] == "revenue",
            required: required,
            kinds: BookJob.scheduleKinds.map { .init(value: $0.value, label: $0.label, selected: $0.value == kind) },
            weekdays: PageChoice.weekdays(selected: Weekday.allCases.first { $0.description == form?["weekday"] }),
            // try?: an anchor that is not a day starts the field at today
            today: (form?["anchor"]).flatMap { try? Day(parsing: $0) }?.description ?? today.description,
            earliest: AcceptedDays.earliest.description,
            latest: AcceptedDays(today: today).latest.description,
            firstProduct: rows[0],
            moreProducts: Array(rows.dropFirst())
        )
    }
}

/// The first steps of a new book (`first-steps.mustache`), each a link to the form that does it.
package struct FirstSteps: Sendable, TemplateValues {
    package struct Item: Sendable, TemplateValues {
        let number: Int, label: String, href: String, done: Bool
        package init(number: Int, label: String, href: String, done: Bool) {
            (self.number, self.label, self.href, self.done) = (number, label, href, done)
        }
    }
    let items: [Item]
    /// Before her first sale: her history may be in a spreadsheet already, and one import makes
    /// the clinics and products it names (the steps above, done at once).
    let importOffered: Bool
    package init(items: [Item], importOffered: Bool = false) {
        (self.items, self.importOffered) = (items, importOffered)
    }
}

/// The first clinic's fields (`first-clinic-fields.mustache`), on the set-up page and at `/welcome`:
/// what she typed when they are drawn again.
package struct FirstClinicFields: Sendable, TemplateValues {
    package typealias Choice = PageChoice

    /// A product she sells there (`product-row.mustache`).
    package struct ProductRow: Sendable, TemplateValues {
        let index: Int, number: Int, name: String, price: String, cost: String
        /// The first row, required while the book has no product.
        let first: Bool
        let zero: String
        package init(index: Int, name: String, price: String, cost: String, first: Bool, zero: String) {
            (self.index, self.number, self.name, self.price, self.cost, self.first, self.zero) = (
                index, index + 1, name, price, cost, first, zero
            )
        }
    }

    let name: String, share: String, revenue: Bool
    /// The clinic is the form's whole point (at set-up it may be left blank).
    let required: Bool
    let kinds: [Choice], weekdays: [Choice]
    let today: String, earliest: String, latest: String
    let firstProduct: ProductRow
    let moreProducts: [ProductRow]
    /// Another product's rows stay open when she filled one in.
    let hasMoreProducts: Bool

    package init(
        name: String,
        share: String,
        revenue: Bool,
        required: Bool,
        kinds: [Choice],
        weekdays: [Choice],
        today: String,
        earliest: String,
        latest: String,
        firstProduct: ProductRow,
        moreProducts: [ProductRow]
    ) {
        (self.name, self.share, self.revenue, self.required, self.kinds, self.weekdays) = (
            name, share, revenue, required, kinds, weekdays
        )
        (self.today, self.earliest, self.latest, self.firstProduct, self.moreProducts) = (
            today, earliest, latest, firstProduct, moreProducts
        )
        hasMoreProducts = moreProducts.contains { !$0.name.isEmpty || !$0.price.isEmpty }
    }
}

/// The page of her first clinic (`welcome.mustache`).
package struct WelcomePageView: PageView {
    let firstClinic: FirstClinicFields
    let csrf: String
    package init(firstClinic: FirstClinicFields, csrf: String) { (self.firstClinic, self.csrf) = (firstClinic, csrf) }
}

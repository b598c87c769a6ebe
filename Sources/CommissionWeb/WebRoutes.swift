import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import HummingbirdBcrypt

/// The server-rendered pages: sign-in, quick sale entry, dashboard, sales, statements, payouts,
/// clinics & products, settings.
struct WebRoutes: Sendable {
    let store: any WebStore
    let pages: Pages
    let configuration: WebConfiguration
    let throttle: LoginThrottle
    let hub: DashboardHub
    /// Whether `/setup` may create the book's owner now (see `buildRouter`).
    let setupIsOpen: @Sendable () async throws -> Bool

    static let anonymousCSRFCookie = "commission_csrf"
    /// When a change was made, in UTC, to the minute.
    static let auditTime: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter
    }()
    /// Where invitation links lead: the path, then the link's secret.
    static let invitationPath = "/invite/"
    /// How long an invitation link works.
    static let invitationLifetime: TimeInterval = 7 * 24 * 3600

    func registerPublic<G>(on router: Registrar<G>) {
        router.get("/health") { _, _ in Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n"))) }
        router.get("/static/:file") { request, context in
            guard let response = StaticFiles.shared.response(try context.parameters.require("file"), request: request) else {
                throw Problem(.notFound, "There is no such file.")
            }
            return response
        }
        router.get("/setup") { _, context in try await setupPage(context: context) }
        router.post("/setup") { request, context in try await setup(request, context: context) }
        router.get("/login") { _, context in try await loginPage(context: context) }
        router.post("/login") { request, context in try await login(request, context: context) }
        router.get(Self.invitationPath + ":secret") { _, context in try await invitationPage(context: context) }
        router.post(Self.invitationPath + ":secret") { request, context in try await acceptInvitation(request, context: context) }
    }

    func registerProtected<G>(on router: Registrar<G>) {
        router.post("/logout") { _, context in try await logout(context: context) }
        router.get("/") { request, context in try await entryPage(request, context: context) }
        router.post("/sales") { request, context in try await recordSale(request, context: context) }
        router.post("/sales/:id/repeat") { _, context in try await repeatSale(context: context) }
        router.post("/sales/:id/void") { _, context in try await voidSale(context: context) }
        router.get("/sales/:id/edit") { _, context in try await editSalePage(context: context) }
        router.post("/sales/:id") { request, context in try await editSale(request, context: context) }
        router.get("/transfer") { _, context in try await transferPage(context: context) }
        router.post("/import") { request, context in try await importCSV(request, context: context) }
        router.get("/export/:file") { _, context in try await export(context: context) }
        router.get("/sales") { request, context in try await salesPage(request, context: context) }
        router.get("/dashboard") { request, context in try await dashboardPage(request, context: context) }
        router.get("/events") { _, _ in Events.stream(hub: hub) }
        router.get("/statements") { request, context in try await statementPage(request, context: context) }
        router.get("/statements.csv") { request, context in try await statementCSV(request, context: context) }
        router.get("/payouts") { _, context in try await payoutsPage(context: context) }
        router.post("/payouts") { request, context in try await recordPayout(request, context: context) }
        router.get("/book") { request, context in
            let query = request.uri.queryParameters
            var message: String?
            if let recomputed = query["recomputed"].flatMap({ Int(String($0)) }) {
                let closed = query["closed"].flatMap { Int(String($0)) } ?? 0
                message = "Terms added: \(recomputed) sale\(recomputed == 1 ? "" : "s") recomputed"
                    + (closed > 0 ? ", \(closed) in closed periods left as they were." : ".")
            }
            return try await bookPage(context: context, message: message)
        }
        router.post("/clinics") { request, context in try await addClinic(request, context: context) }
        router.post("/products") { request, context in try await addProduct(request, context: context) }
        router.post("/terms") { request, context in try await addTerms(request, context: context) }
        router.get("/settings") { _, context in try await settingsPage(context: context) }
        router.post("/settings/tokens") { request, context in try await createToken(request, context: context) }
        router.post("/settings/tokens/:id/revoke") { _, context in try await revokeToken(context: context) }
        router.post("/settings/password") { request, context in try await changePassword(request, context: context) }
        router.post("/settings/book") { request, context in try await changeBookSettings(request, context: context) }
        router.post("/settings/invitations") { request, context in try await invite(request, context: context) }
    }

    // MARK: Accounts

    /// Forms shown before sign-in carry a token that must match a cookie (double submit).
    func anonymousForm(_ template: String, title: String, context: AppRequestContext, values: [String: Any] = [:],
                       status: HTTPResponse.Status = .ok, error: String? = nil) -> Response {
        let token = Secret.make()
        var response = pages.page(template, title: title, context: context, values: values, status: status, error: error, csrf: token)
        response.setCookie(Cookie(name: Self.anonymousCSRFCookie, value: token, path: "/", secure: configuration.secureCookies,
                                  httpOnly: true, sameSite: .strict))
        return response
    }

    func checkAnonymousForm(_ request: Request, _ form: Form) throws {
        guard let cookie = request.cookies[Self.anonymousCSRFCookie]?.value, let field = form["csrf"], Secret.matches(cookie, field) else {
            throw Problem(.forbidden, "This form has expired (its CSRF token does not match). Reload the page and try again.")
        }
    }

    func setupPage(context: AppRequestContext) async throws -> Response {
        if try await !setupIsOpen() { return .redirect(to: "/login") }
        return anonymousForm("setup", title: "Welcome", context: context)
    }

    func setup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        if try await !setupIsOpen() { return .redirect(to: "/login") }
        let username = form["username"] ?? ""
        guard let password = form.values["password"], password.count >= 10 else {
            return anonymousForm("setup", title: "Welcome", context: context, values: ["username": username], status: .unprocessableContent,
                                 error: "Choose a password of at least 10 characters.")
        }
        let hash = Bcrypt.hash(password, cost: configuration.bcryptCost)
        let account = try await store.createOwner(username: username, passwordHash: hash)
        return try await startSession(for: account)
    }

    func loginPage(context: AppRequestContext) async throws -> Response {
        if try await setupIsOpen() { return .redirect(to: "/setup") }
        if context.caller.account != nil { return .redirect(to: "/") }
        return anonymousForm("login", title: "Sign in", context: context)
    }

    func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        let username = form["username"] ?? ""
        if let seconds = await throttle.wait(for: username) {
            return anonymousForm("login", title: "Sign in", context: context, values: ["username": username], status: .tooManyRequests,
                                 error: "Too many failed sign-ins for this name: try again in \(seconds) seconds.")
        }
        if let (account, hash) = try await store.credentials(username: username), Bcrypt.verify(form.values["password"] ?? "", hash: hash) {
            await throttle.succeeded(username)
            return try await startSession(for: account)
        }
        await throttle.failed(username)
        return anonymousForm("login", title: "Sign in", context: context, values: ["username": username], status: .unauthorized,
                             error: "The user name or the password is wrong.")
    }

    // MARK: Invitations

    func invitationPage(context: AppRequestContext, username: String = "", status: HTTPResponse.Status = .ok, error: String? = nil) async throws -> Response {
        let secret = try context.parameters.require("secret")
        guard let invitation = try await store.invitation(tokenDigest: Secret.digest(secret), now: Date()) else {
            throw Problem(.notFound, "This invitation link has been used or has expired, or it was copied wrongly. Ask for a new one.")
        }
        if invitation.isSpent {
            throw Problem(.gone, "This link is spent: the book it opens already has its owner. Sign in, or ask the owner for an invitation.")
        }
        let values: [String: Any] = [
            "action": Self.invitationPath + secret, "username": username, "invitedBy": invitation.invitedBy ?? "",
            "isOwner": invitation.role == .owner, "expires": Day(invitation.expiresAt, in: .current).description,
        ]
        return anonymousForm("invite", title: "Join", context: context, values: values, status: status, error: error)
    }

    func acceptInvitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let secret = try context.parameters.require("secret")
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        let username = form["username"] ?? ""
        guard let password = form.values["password"], password.count >= 10 else {
            return try await invitationPage(context: context, username: username, status: .unprocessableContent,
                                            error: "Choose a password of at least 10 characters.")
        }
        let account: Account
        do {
            account = try await store.acceptInvitation(tokenDigest: Secret.digest(secret), username: username,
                                                       passwordHash: Bcrypt.hash(password, cost: configuration.bcryptCost), now: Date())
        } catch StoreError.invalid(let field, let reason) where field == "user name" {
            return try await invitationPage(context: context, username: username, status: .unprocessableContent, error: "The user name: \(reason)")
        } catch StoreError.invalid(let field, let reason) where field == "invitation" && reason == Invitation.spentReason {
            throw Problem(.gone, "This link is spent: the book it opens already has its owner. Sign in, or ask the owner for an invitation.")
        }
        return try await startSession(for: account)
    }

    /// An owner creates a one-time link that adds a person to the book.
    func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let link = try await createInvitation(request, context: context, role: MemberRole(rawValue: form["role"] ?? "member") ?? .member, store: store,
                                        secure: configuration.secureCookies)
        return try await settingsPage(context: context, newInvitation: link.url)
    }

    func startSession(for account: Account) async throws -> Response {
        let secret = Secret.make()
        let expires = Date().addingTimeInterval(configuration.sessionLifetime)
        try await store.createSession(account: account.id, tokenDigest: Secret.digest(secret), csrfToken: Secret.make(), expiresAt: expires)
        var response = Response.redirect(to: "/")
        response.setCookie(Cookie(name: AuthenticationMiddleware.cookieName, value: secret, maxAge: Int(configuration.sessionLifetime), path: "/",
                                  secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }

    func logout(context: AppRequestContext) async throws -> Response {
        if case .session(_, let digest) = context.caller { try await store.deleteSession(tokenDigest: digest) }
        var response = Response.redirect(to: "/login")
        response.setCookie(Cookie(name: AuthenticationMiddleware.cookieName, value: "", maxAge: 0, path: "/",
                                  secure: configuration.secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }

    // MARK: Quick entry

    func entryPage(_ request: Request, context: AppRequestContext, error: String? = nil, message: String? = nil,
                   status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await store.settings()
        let currency = settings.currency
        let today = settings.today()
        let clinics = try await store.clinics(ClinicQuery())
        let products = try await store.products(ProductQuery(order: .mostSold))
        let recentSales = try await store.sales(SaleQuery(page: Page(limit: 5)))
        let names = try await Names(store: store)
        let lastClinic = recentSales.first?.clinicID ?? clinics.first?.id
        let date = request.uri.queryParameters["date"].flatMap { try? Day(parsing: String($0)) } ?? today
        let missed = try await missedDays(today: today)
        var message = message
        if message == nil, let saved = request.uri.queryParameters["saved"].flatMap({ Int64(String($0)) }),
           let sale = try? await store.sale(Sale.ID(saved)) {
            message = "Saved: \(sale.quantity) × \(names.products[sale.productID] ?? "") at \(names.clinics[sale.clinicID] ?? "") on \(sale.date), commission \(currency.format(sale.figures.commission))."
        }
        let values: [String: Any] = [
            "key": Secret.make(),
            "date": date.description,
            "noSetup": clinics.isEmpty || products.isEmpty,
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == lastClinic] as [String: Any] },
            "products": products.enumerated().map { index, product in
                ["id": product.id.rawValue, "name": product.name, "price": currency.format(product.unitPrice), "selected": index == 0] as [String: Any]
            },
            "selectedPrice": products.first.map { currency.format($0.unitPrice) } ?? "",
            "recent": recentSales.map { sale in
                ["id": sale.id.rawValue, "date": sale.date.description, "clinic": names.clinics[sale.clinicID] ?? "",
                 "product": names.products[sale.productID] ?? "", "quantity": sale.quantity,
                 "commission": currency.format(sale.figures.commission), "csrf": context.csrfToken ?? ""] as [String: Any]
            },
            "hasMissedDays": !missed.isEmpty,
            "missedDays": missed.enumerated().map { index, day in
                ["iso": day.description, "label": "\(day.weekday.shortName) \(day)", "last": index == missed.count - 1] as [String: Any]
            },
        ]
        return pages.page("entry", title: "New sale", nav: "entry", context: context, values: values, status: status, message: message, error: error)
    }

    /// Days of the last two weeks, before today, on a weekday she sold on in at least three of the
    /// eight weeks before, with no sale entered.
    func missedDays(today: Day) async throws -> [Day] {
        let since = today.adding(days: -70)
        let sales = try await store.sales(SaleQuery(from: since, through: today.adding(days: -1), page: Page(limit: 5000)))
        let soldDays = Set(sales.map(\.date))
        var weeksPerWeekday: [Weekday: Set<Int>] = [:]
        for day in soldDays where day < today.adding(days: -14) {
            weeksPerWeekday[day.weekday, default: []].insert(day.ordinal / 7)
        }
        let usual = Set(weeksPerWeekday.filter { $0.value.count >= 3 }.keys)
        return (1...14).map { today.adding(days: -$0) }.filter { usual.contains($0.weekday) && !soldDays.contains($0) }.reversed()
    }

    func recordSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await store.settings()
        do {
            guard let clinic = form["clinic"].flatMap(Int64.init), let product = form["product"].flatMap(Int64.init) else {
                throw Problem(.unprocessableContent, "Choose a clinic and a product.")
            }
            guard let quantity = Int64(form["quantity"] ?? "1") else {
                throw Problem(.unprocessableContent, "The quantity is a whole number of units (negative for a return).")
            }
            let draft = SaleDraft(
                clinicID: Clinic.ID(clinic), productID: Product.ID(product),
                date: try form["date"].map { try Day(parsing: $0) } ?? settings.today(), quantity: quantity,
                unitPrice: try form["price"].map { try settings.currency.parse($0) },
                discount: try form["discount"].map { try settings.currency.parse($0) } ?? .zero,
                noCommission: form["noCommission"] != nil, note: form["note"])
            let sale = try await store.createSale(draft, idempotencyKey: form["key"])
            return .redirect(to: "/?saved=\(sale.id)")
        } catch {
            let problem = Problem.from(error)
            guard problem.status < 500 else { throw error }
            return try await entryPage(request, context: context, error: problem.detail, status: .init(code: problem.status))
        }
    }

    func repeatSale(context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: Int64.self)
        let settings = try await store.settings()
        let sale = try await store.sale(Sale.ID(id))
        _ = try await store.createSale(SaleDraft(clinicID: sale.clinicID, productID: sale.productID, date: settings.today(),
                                                 quantity: sale.quantity, unitPrice: sale.line.unitPrice, unitCost: sale.line.unitCost,
                                                 discount: sale.line.discount, noCommission: sale.isNoCommission, note: sale.note),
                                       idempotencyKey: nil)
        return .redirect(to: "/")
    }

    func voidSale(context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: Int64.self)
        _ = try await store.voidSale(Sale.ID(id))
        return .redirect(to: "/sales")
    }

    func editSalePage(context: AppRequestContext, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let currency = try await store.settings().currency
        let sale = try await store.sale(Sale.ID(try context.parameters.require("id", as: Int64.self)))
        let values: [String: Any] = [
            "id": sale.id.rawValue, "date": sale.date.description, "quantity": sale.quantity,
            "price": currency.format(sale.line.unitPrice), "cost": currency.format(sale.line.unitCost),
            "discount": currency.format(sale.line.discount), "note": sale.note ?? "", "noCommission": sale.isNoCommission,
            "clinics": try await store.clinics(ClinicQuery()).map { ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == sale.clinicID] as [String: Any] },
            "products": try await store.products(ProductQuery()).map { ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == sale.productID] as [String: Any] },
            "history": try await store.auditLog(AuditQuery(subject: .sale, subjectID: sale.id.rawValue)).map { entry in
                ["at": Self.auditTime.string(from: entry.at), "actor": entry.actor, "action": entry.action, "changes": entry.changes(currency: currency)]
            },
        ]
        return pages.page("edit-sale", title: "Edit sale", nav: "sales", context: context, values: values, status: status, error: error)
    }

    func editSale(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = Sale.ID(try context.parameters.require("id", as: Int64.self))
        let form = try await Form.read(request, context: context)
        let currency = try await store.settings().currency
        do {
            guard let clinic = form["clinic"].flatMap(Int64.init), let product = form["product"].flatMap(Int64.init),
                  let quantity = form["quantity"].flatMap(Int64.init) else {
                throw Problem(.unprocessableContent, "Choose a clinic and a product, and give a whole quantity.")
            }
            _ = try await store.updateSale(id, with: SaleDraft(
                clinicID: Clinic.ID(clinic), productID: Product.ID(product), date: try Day(parsing: form["date"] ?? ""), quantity: quantity,
                unitPrice: try currency.parse(form["price"] ?? ""), unitCost: try currency.parse(form["cost"] ?? ""),
                discount: try form["discount"].map { try currency.parse($0) } ?? .zero, noCommission: form["noCommission"] != nil,
                note: form["note"]))
            return .redirect(to: "/sales")
        } catch {
            let problem = Problem.from(error)
            guard problem.status < 500, problem.status != 404 else { throw error }
            return try await editSalePage(context: context, error: problem.detail, status: .init(code: problem.status))
        }
    }

    // MARK: Import and export

    func transferPage(context: AppRequestContext, csv: String = "", problems: [ImportProblem] = [], message: String? = nil,
                      error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let values: [String: Any] = [
            "csv": csv,
            "problems": problems.map { ["line": $0.line, "column": $0.column ?? "", "reason": $0.reason] as [String: Any] },
            "hasProblems": !problems.isEmpty,
            "kinds": ExportKind.allCases.map { ["name": $0.rawValue] },
            "backup": store is any BookBackup,
        ]
        return pages.page("transfer", title: "Import & export", nav: "transfer", context: context, values: values, status: status,
                          message: message, error: error)
    }

    func importCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await store.settings()
        let text = form.values["csv"] ?? ""
        let dryRun = form["action"] != "commit"
        do {
            let source = try CSVImportSource(origin: .data(Data(text.utf8), name: "The file"),
                                             kind: form["kind"].flatMap(ImportKind.init(rawValue:)),
                                             format: CSVFormat(decimalComma: form["decimalComma"] != nil), currency: settings.currency)
            let summary = try await store.importRows(from: source, options: ImportOptions(dryRun: dryRun))
            let what = "\(summary.rows) \(source.kind.rawValue) row\(summary.rows == 1 ? "" : "s")"
            return try await transferPage(context: context, csv: dryRun ? text : "",
                                          message: dryRun ? "The file is good: \(what) would be imported. Press Import to import them." : "Imported \(what).")
        } catch let error as CSVFileError {
            return try await transferPage(context: context, csv: text, error: error.description, status: .unprocessableContent)
        } catch let StoreError.importRejected(problems, total) {
            return try await transferPage(context: context, csv: text, problems: problems,
                                          error: "Nothing was imported: \(total) row problem\(total == 1 ? "" : "s").", status: .unprocessableContent)
        }
    }

    func export(context: AppRequestContext) async throws -> Response {
        let file = try context.parameters.require("file")
        if file == "backup.sqlite" {
            guard let backup = store as? any BookBackup else { throw Problem(.notFound, "This store cannot be backed up from the web.") }
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("commission-backup-\(UUID().uuidString).sqlite").path
            try await backup.backup(to: path, replacing: false)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return Response(status: .ok, headers: [.contentType: "application/vnd.sqlite3",
                                                   .contentDisposition: "attachment; filename=\"commission-\(try await store.settings().today()).sqlite\""],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return try await exportResponse(file: file, store: store)
    }

    // MARK: Lists and reports

    func salesPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let currency = try await store.settings().currency
        let query = request.uri.queryParameters
        let clinicID = query["clinic"].flatMap { Int64(String($0)) }.map { Clinic.ID($0) }
        let productID = query["product"].flatMap { Int64(String($0)) }.map { Product.ID($0) }
        let offset = max(0, query["offset"].flatMap { Int(String($0)) } ?? 0)
        let pageSize = 50
        let saleQuery = SaleQuery(clinicID: clinicID, productID: productID, from: query["from"].flatMap { try? Day(parsing: String($0)) },
                                  through: query["to"].flatMap { try? Day(parsing: String($0)) },
                                  text: query["q"].map(String.init), page: Page(limit: pageSize, offset: offset))
        let sales = try await store.sales(saleQuery)
        let total = try await store.countSales(saleQuery)
        let names = try await Names(store: store)
        func link(_ offset: Int) -> String {
            var parts = ["offset=\(offset)"]
            for key in ["clinic", "product", "from", "to", "q"] {
                if let value = query[Substring(key)], !value.isEmpty {
                    parts.append("\(key)=\(String(value).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                }
            }
            return "/sales?" + parts.joined(separator: "&")
        }
        let values: [String: Any] = [
            "clinics": try await store.clinics(ClinicQuery(includeArchived: true)).map {
                ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == clinicID] as [String: Any]
            },
            "products": try await store.products(ProductQuery(includeArchived: true)).map {
                ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == productID] as [String: Any]
            },
            "from": query["from"].map(String.init) ?? "", "to": query["to"].map(String.init) ?? "", "q": query["q"].map(String.init) ?? "",
            "sales": sales.map { sale in
                ["id": sale.id.rawValue, "date": sale.date.description, "clinic": names.clinics[sale.clinicID] ?? "",
                 "product": names.products[sale.productID] ?? "", "quantity": sale.quantity, "note": sale.note ?? "",
                 "revenue": currency.format(sale.figures.revenue), "commission": currency.format(sale.figures.commission),
                 "csrf": context.csrfToken ?? ""] as [String: Any]
            },
            "total": total,
            "previous": offset > 0 ? link(max(0, offset - pageSize)) : "",
            "next": offset + pageSize < total ? link(offset + pageSize) : "",
        ]
        return pages.page("sales", title: "Sales", nav: "sales", context: context, values: values)
    }

    func dashboardValues(_ dashboard: Dashboard) async throws -> [String: Any] {
        let c = dashboard.currency
        // Twelve months of commission per clinic, from the maintained monthly summaries.
        var months: [Day] = []
        var month = dashboard.today.firstOfMonth
        for _ in 0..<12 {
            months.insert(month, at: 0)
            month = month.adding(days: -1).firstOfMonth
        }
        var series: [Clinic.ID: (name: String, values: [Int64])] = [:]
        let names = try await Names(store: store)
        for entry in try await store.clinicMonths(from: months[0], through: dashboard.today) {
            guard let index = months.firstIndex(of: entry.month) else { continue }
            series[entry.clinicID, default: (names.clinics[entry.clinicID] ?? "", Array(repeating: 0, count: 12))].values[index] = entry.totals.commission.minorUnits
        }
        let ordered = series.sorted { $0.key < $1.key }.map { $0.value }
        return [
            "today": dashboard.today.description, "currency": c.code,
            "todayCommission": c.format(dashboard.todayTotals.commission), "todaySales": dashboard.todayTotals.saleCount,
            "todayRevenue": c.format(dashboard.todayTotals.revenue),
            "monthCommission": c.format(dashboard.monthTotals.commission), "monthSales": dashboard.monthTotals.saleCount,
            "monthRevenue": c.format(dashboard.monthTotals.revenue),
            "yearCommission": c.format(dashboard.yearTotals.commission), "yearSales": dashboard.yearTotals.saleCount,
            "yearRevenue": c.format(dashboard.yearTotals.revenue),
            "clinics": dashboard.clinics.map { standing in
                ["name": standing.clinic.name, "period": "\(standing.period.start) – \(standing.period.end)",
                 "sales": standing.periodTotals.saleCount, "expected": c.format(standing.periodTotals.commission),
                 "received": c.format(standing.periodReceived), "balance": c.format(standing.periodBalance),
                 "year": c.format(standing.yearTotals.commission)] as [String: Any]
            },
            "products": dashboard.products.map { standing in
                ["name": standing.product.name, "units": standing.yearTotals.quantity, "revenue": c.format(standing.yearTotals.revenue),
                 "commission": c.format(standing.yearTotals.commission)] as [String: Any]
            },
            "monthlyChart": Charts.monthly(months: months.map { String($0.description.prefix(7)) }, series: ordered, currency: c),
            "shareChart": Charts.share(dashboard.clinics.map { ($0.clinic.name, $0.yearTotals.commission.minorUnits) }, currency: c),
        ]
    }

    func dashboardPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let settings = try await store.settings()
        let dashboard = try await store.dashboard(today: settings.today())
        let values = try await dashboardValues(dashboard)
        if request.uri.queryParameters["fragment"] != nil { return pages.fragment("dashboard-body", values: values) }
        let body = pages.library.render(values, withTemplate: "dashboard-body") ?? ""
        return pages.page("dashboard", title: "Dashboard", nav: "dashboard", context: context, values: ["dashboardBody": body])
    }

    /// The clinic and period a statement request names: `clinic=ID&date=YYYY-MM-DD` (default: the first clinic, today).
    func statementTarget(_ request: Request) async throws -> (Clinic, PayPeriod, Day, [Clinic])? {
        let settings = try await store.settings()
        let clinics = try await store.clinics(ClinicQuery(includeArchived: true))
        let query = request.uri.queryParameters
        let date = try query["date"].map { try Day(parsing: String($0)) } ?? settings.today()
        try AcceptedDays(today: settings.today()).check(date, field: "date")
        guard let clinic = query["clinic"].flatMap({ Int64(String($0)) }).flatMap({ id in clinics.first { $0.id.rawValue == id } }) ?? clinics.first else {
            return nil
        }
        return (clinic, clinic.schedule.period(containing: date), date, clinics)
    }

    func statementPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let currency = try await store.settings().currency
        guard let (clinic, period, date, clinics) = try await statementTarget(request) else {
            return pages.page("statement", title: "Statement", nav: "statements", context: context, values: ["clinics": []],
                              message: "Add a clinic first.")
        }
        let statement = try await store.statement(clinic: clinic.id, period: period)
        let link = { (day: Day) in "/statements?clinic=\(clinic.id)&date=\(day)" }
        let values: [String: Any] = [
            "date": date.description,
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name, "selected": $0.id == clinic.id] as [String: Any] },
            "statement": [
                "clinic": clinic.name, "period": "\(period.start) – \(period.end)", "closed": statement.isClosed,
                "previousLink": link(period.start.adding(days: -1)), "nextLink": link(period.end.adding(days: 1)),
                "csvLink": "/statements.csv?clinic=\(clinic.id)&date=\(period.start)",
                "lines": statement.lines.map { line in
                    let s = line.sale
                    return ["date": s.date.description, "product": line.productName, "quantity": s.quantity,
                            "price": currency.format(s.line.unitPrice), "discount": currency.format(s.line.discount),
                            "revenue": currency.format(s.figures.revenue), "profit": currency.format(s.figures.profit),
                            "share": s.line.rate.map { "\($0.share.percentText)%" } ?? "none",
                            "commission": currency.format(s.figures.commission)] as [String: Any]
                },
                "revenue": currency.format(statement.totals.revenue), "profit": currency.format(statement.totals.profit),
                "commission": currency.format(statement.totals.commission), "received": currency.format(statement.received),
                "balance": currency.format(statement.balance),
            ] as [String: Any],
        ]
        return pages.page("statement", title: "Statement \(clinic.name)", nav: "statements", context: context, values: values)
    }

    func statementCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let currency = try await store.settings().currency
        guard let (clinic, period, _, _) = try await statementTarget(request) else { throw Problem(.notFound, "There is no clinic yet.") }
        let statement = try await store.statement(clinic: clinic.id, period: period)
        let csv = Renderer(currency: currency).render(statement, as: .csv)
        let filename = "statement-\(clinic.name.filter { $0.isLetter || $0.isNumber })-\(period.start).csv"
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(filename)\""],
                        body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    func payoutsPage(context: AppRequestContext, error: String? = nil, message: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await store.settings()
        let currency = settings.currency
        let today = settings.today()
        let clinics = try await store.clinics(ClinicQuery())
        var reconciliations: [[String: Any]] = []
        for clinic in clinics {
            let r = try await store.reconciliation(clinic: clinic.id, today: today)
            reconciliations.append([
                "clinic": clinic.name, "balance": currency.format(r.balance),
                "periods": r.periods.reversed().map { p in
                    ["period": "\(p.period.start) – \(p.period.end)", "expected": currency.format(p.expected), "received": currency.format(p.received),
                     "difference": currency.format(p.difference), "balance": currency.format(p.balance),
                     "status": p.status.rawValue + (p.isClosed ? " (closed)" : ""), "attention": p.status.needsAttention] as [String: Any]
                },
            ])
        }
        let values: [String: Any] = [
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name] as [String: Any] },
            "today": today.description, "previousDay": today.firstOfMonth.adding(days: -1).description,
            "reconciliations": reconciliations,
        ]
        return pages.page("payouts", title: "Payouts", nav: "payouts", context: context, values: values, status: status, message: message, error: error)
    }

    func recordPayout(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await store.settings()
        do {
            guard let clinicID = form["clinic"].flatMap(Int64.init) else { throw Problem(.unprocessableContent, "Choose a clinic.") }
            let clinic = try await store.clinic(Clinic.ID(clinicID))
            let day = try Day(parsing: form["period"] ?? "")
            guard let amountText = form["amount"] else { throw Problem(.unprocessableContent, "Enter the amount received.") }
            let payout = try await store.createPayout(PayoutDraft(
                clinicID: clinic.id, period: clinic.schedule.period(containing: day), amount: try settings.currency.parse(amountText),
                receivedOn: try form["received"].map { try Day(parsing: $0) } ?? settings.today(), reference: form["reference"]))
            return try await payoutsPage(context: context, message: "Recorded \(settings.currency.format(payout.amount)) from \(clinic.name) for \(payout.period.start) – \(payout.period.end).")
        } catch {
            let problem = Problem.from(error)
            guard problem.status < 500 else { throw error }
            return try await payoutsPage(context: context, error: problem.detail, status: .init(code: problem.status))
        }
    }

    // MARK: Clinics, products, terms

    func bookPage(context: AppRequestContext, message: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await store.settings()
        let currency = settings.currency
        let clinics = try await store.clinics(ClinicQuery())
        let products = try await store.products(ProductQuery())
        let names = try await Names(store: store)
        let values: [String: Any] = [
            "today": settings.today().description,
            "clinics": clinics.map { ["id": $0.id.rawValue, "name": $0.name, "schedule": $0.schedule.description] as [String: Any] },
            "products": products.map { ["id": $0.id.rawValue, "name": $0.name, "price": currency.format($0.unitPrice), "cost": currency.format($0.unitCost)] as [String: Any] },
            "terms": try await store.terms(TermsQuery()).map { terms in
                ["clinic": names.clinics[terms.clinicID] ?? "", "product": terms.productID.flatMap { names.products[$0] } ?? "",
                 "share": terms.share.percentText, "basis": terms.basis.rawValue, "from": terms.effectiveFrom.description] as [String: Any]
            },
        ]
        return pages.page("book", title: "Clinics & products", nav: "book", context: context, values: values, status: status,
                          message: message, error: error)
    }

    /// Runs a form of the book page; `body` returns where to go next (default: the book page).
    func bookForm(_ request: Request, context: AppRequestContext, _ body: (Form, BookSettings) async throws -> String?) async throws -> Response {
        let form = try await Form.read(request, context: context)
        let settings = try await store.settings()
        do {
            return .redirect(to: try await body(form, settings) ?? "/book")
        } catch {
            let problem = Problem.from(error)
            guard problem.status < 500 else { throw error }
            return try await bookPage(context: context, error: problem.detail, status: .init(code: problem.status))
        }
    }

    func addClinic(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await bookForm(request, context: context) { form, _ in
            _ = try await store.createClinic(ClinicDraft(name: form["name"] ?? "", schedule: try PaySchedule(parsing: form["schedule"] ?? "monthly")))
            return nil
        }
    }

    func addProduct(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await bookForm(request, context: context) { form, settings in
            _ = try await store.createProduct(ProductDraft(name: form["name"] ?? "", unitPrice: try settings.currency.parse(form["price"] ?? ""),
                                                           unitCost: try settings.currency.parse(form["cost"] ?? "0")))
            return nil
        }
    }

    func addTerms(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await bookForm(request, context: context) { form, _ in
            guard let clinic = form["clinic"].flatMap(Int64.init) else { throw Problem(.unprocessableContent, "Choose a clinic.") }
            let change = try await store.createTerms(TermsDraft(
                clinicID: Clinic.ID(clinic), productID: form["product"].flatMap(Int64.init).map { Product.ID($0) },
                basis: CommissionBasis(rawValue: form["basis"] ?? "profit") ?? .profit, share: try Share(parsing: form["share"] ?? ""),
                effectiveFrom: try Day(parsing: form["from"] ?? "")))
            return "/book?recomputed=\(change.recomputedSales)&closed=\(change.salesInClosedPeriods)"
        }
    }

    // MARK: Settings

    func settingsPage(context: AppRequestContext, newToken: String? = nil, newInvitation: String? = nil, message: String? = nil,
                      error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        let settings = try await store.settings()
        let values: [String: Any] = [
            "isOwner": try await store.role(of: account.id) == .owner, "newInvitation": newInvitation ?? "",
            "members": try await store.members().map { ["username": $0.account.username, "role": $0.role.rawValue] },
            "currency": settings.currency.code, "timeZone": settings.timeZoneIdentifier,
            "awayFromZero": settings.rounding.rule == .halfAwayFromZero, "perLine": settings.rounding.scope == .perLine,
            "newToken": newToken ?? "",
            "tokens": try await store.tokens(account: account.id).map {
                ["id": $0.id.rawValue, "name": $0.name, "created": Day($0.createdAt, in: .current).description, "csrf": context.csrfToken ?? ""] as [String: Any]
            },
        ]
        return pages.page("settings", title: "Settings", nav: "settings", context: context, values: values, status: status, message: message, error: error)
    }

    func changeBookSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await requireOwner(context, store: store, to: "change the book's settings")
        let form = try await Form.read(request, context: context)
        var settings = try await store.settings()
        do {
            settings.currency = try Currency(code: form["currency"] ?? "")
            settings.timeZoneIdentifier = form["timeZone"] ?? ""
            settings.rounding = RoundingPolicy(rule: RoundingRule(rawValue: form["rule"] ?? "") ?? settings.rounding.rule,
                                               scope: RoundingScope(rawValue: form["scope"] ?? "") ?? settings.rounding.scope)
            try await store.updateSettings(settings)
            return try await settingsPage(context: context, message: "Settings saved.")
        } catch {
            let problem = Problem.from(error)
            guard problem.status < 500 else { throw error }
            return try await settingsPage(context: context, error: problem.detail, status: .init(code: problem.status))
        }
    }

    func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        let form = try await Form.read(request, context: context)
        let secret = "cm_" + Secret.make()
        _ = try await store.createToken(account: account.id, name: form["name"] ?? "", tokenDigest: Secret.digest(secret), now: Date())
        return try await settingsPage(context: context, newToken: secret)
    }

    func revokeToken(context: AppRequestContext) async throws -> Response {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        try await store.revokeToken(APIToken.ID(try context.parameters.require("id", as: Int64.self)), account: account.id)
        return .redirect(to: "/settings")
    }

    func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let account = context.caller.account else { throw Problem(.unauthorized, "Sign in first.") }
        let form = try await Form.read(request, context: context)
        guard let (_, hash) = try await store.credentials(username: account.username), Bcrypt.verify(form.values["current"] ?? "", hash: hash) else {
            return try await settingsPage(context: context, error: "The current password is wrong.", status: .unprocessableContent)
        }
        guard let new = form.values["new"], new.count >= 10 else {
            return try await settingsPage(context: context, error: "Choose a new password of at least 10 characters.", status: .unprocessableContent)
        }
        try await store.updatePasswordHash(account: account.id, passwordHash: Bcrypt.hash(new, cost: configuration.bcryptCost))
        return try await startSession(for: account)
    }
}

/// Clinic and product names by id, for lists.
struct Names {
    var clinics: [Clinic.ID: String]
    var products: [Product.ID: String]

    init(store: any CommissionStore) async throws {
        clinics = Dictionary(uniqueKeysWithValues: try await store.clinics(ClinicQuery(includeArchived: true)).map { ($0.id, $0.name) })
        products = Dictionary(uniqueKeysWithValues: try await store.products(ProductQuery(includeArchived: true)).map { ($0.id, $0.name) })
    }
}

extension Weekday {
    var shortName: String { String(description.prefix(3)).capitalized }
}

/// Refuses a caller who is not an owner of the book.
func requireOwner(_ context: AppRequestContext, store: any WebStore, to action: String) async throws {
    guard let account = context.caller.account, try await store.role(of: account.id) == .owner else {
        throw Problem(.forbidden, "Only an owner of the book can \(action).")
    }
}

/// A new invitation link of the book: its secret is in the link only, the store keeps its digest.
func createInvitation(_ request: Request, context: AppRequestContext, role: MemberRole, store: any WebStore, secure: Bool) async throws
    -> (url: String, path: String, expiresAt: Date) {
    try await requireOwner(context, store: store, to: "invite people")
    let secret = Secret.make()
    let expires = Date().addingTimeInterval(WebRoutes.invitationLifetime)
    try await store.createInvitation(tokenDigest: Secret.digest(secret), role: role, invitedBy: context.caller.account?.id, expiresAt: expires)
    let path = WebRoutes.invitationPath + secret
    // The address the caller used; behind TLS (secure cookies) the link is https.
    let host = request.head.authority ?? "127.0.0.1"
    let scheme = secure ? "https" : "http"
    return ("\(scheme)://\(host)\(path)", path, expires)
}

import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import HummingbirdBcrypt
import Synchronization

/// Who may use the book: set-up of its owner, sign-in and sign-out, invitation links; the API's
/// members and invitations.
struct AccountJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    static let anonymousCSRFCookie = "commission_csrf"
    /// Where invitation links lead: the path, then the link's secret.
    static let invitationPath = "/invite/"
    /// How long an invitation link works.
    static let invitationLifetime: TimeInterval = 7 * 24 * 3600

    func registerPublic<G>(on router: Registrar<G>) {
        router.get("/setup") { request, context in try await setupPage(request, context: context) }
        router.post("/setup") { request, context in try await setup(request, context: context) }
        router.post("/sample") { request, context in try await openSample(request, context: context) }
        // Reached here only by a browser not in the sample (the sample's middleware answers the others).
        router.get("/sample/leave") { _, _ in
            // Only the sample's cookie: a link here from anywhere must not sign her out of her book.
            SampleBook.forget([SampleBook.cookieName], to: "/setup", configuration: app.configuration)
        }
        router.get("/login") { request, context in
            try await loginPage(context: context, restored: request.uri.queryParameters["restored"] != nil)
        }
        router.post("/login") { request, context in try await login(request, context: context) }
        router.get(Self.invitationPath + ":secret") { _, context in try await invitationPage(context: context) }
        router.post(Self.invitationPath + ":secret") { request, context in
            try await acceptInvitation(request, context: context)
        }
    }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.post("/logout") { request, context in
            try await logout(context: context, form: try await Form.read(request, context: context))
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/members") { _, _ in
            try app.json(
                try await app.store.members().map {
                    API.Member(id: $0.account.id.rawValue, username: $0.account.username, role: API.spelt($0.role))
                }
            )
        }
        api.post("/invitations") { request, context in try await invite(request, context: context) }
    }

    // MARK: Set-up and sign-in

    /// Forms shown before sign-in carry a token that must match a cookie (double submit): the
    /// page is drawn from its view made with that token.
    func anonymousForm<View: PageView>(
        _ template: String,
        title: String,
        context: AppRequestContext,
        view: (_ csrf: String) async throws -> View,
        status: HTTPResponse.Status = .ok,
        message: String? = nil,
        error: String? = nil
    ) async rethrows -> Response {
        let token = Secret.make()
        var response = app.pages.page(
            template,
            view: try await view(token),
            title: title,
            context: context,
            status: status,
            message: message,
            error: error,
            csrf: token
        )
        response.setCookie(
            Cookie(
                name: Self.anonymousCSRFCookie,
                value: token,
                path: "/",
                secure: app.configuration.secureCookies,
                httpOnly: true,
                sameSite: .strict
            )
        )
        return response
    }

    func checkAnonymousForm(_ request: Request, _ form: Form) throws {
        guard let cookie = request.cookies[Self.anonymousCSRFCookie]?.value, let field = form["csrf"],
            Secret.matches(cookie, field)
        else {
            throw Problem(
                .forbidden,
                "This form has expired (its CSRF token does not match). Reload the page and try again."
            )
        }
    }

    func setupPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if try await !app.setupIsOpen() { return .redirect(to: "/login") }
        let proposal = try await BookProposal.of(app.store, acceptLanguage: request.headers[.acceptLanguage])
        // The phone's own time zone replaces the proposal (app.js), on the first drawing only.
        return try await anonymousForm("setup", title: "Welcome", context: context) {
            try await setupView(proposal, form: nil, propose: true, csrf: $0)
        }
    }

    /// Opens the sample book in this browser ("Try it first"), while her book awaits set-up.
    func openSample(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        guard let sample = app.sample, try await app.setupIsOpen() else { return .redirect(to: "/login") }
        let secret = try await sample.openSession()
        var response = Response.redirect(to: "/dashboard")
        let secure = app.configuration.secureCookies
        response.setCookie(
            Cookie(
                name: SampleBook.cookieName,
                value: "1",
                maxAge: Int(app.configuration.sessionLifetime),
                path: "/",
                secure: secure,
                httpOnly: true,
                sameSite: .lax
            )
        )
        response.headers[SampleBook.clearSiteData] = #""cache", "storage""#
        response.setCookie(
            Cookie(
                name: AuthenticationMiddleware.cookieName,
                value: secret,
                maxAge: Int(app.configuration.sessionLifetime),
                path: "/",
                secure: secure,
                httpOnly: true,
                sameSite: .lax
            )
        )
        return response
    }

    /// The set-up page's view: the book's proposal, and the first clinic's fields while the book
    /// has no clinic.
    func setupView(
        _ proposal: BookProposal,
        form: Form?,
        propose: Bool = false,
        csrf: String
    ) async throws -> SetupPageView {
        var firstClinic: FirstClinicFields?
        if try await app.store.clinics(ClinicQuery(includeArchived: true, page: Page(limit: 1))).isEmpty {
            let needsProduct = try await app.store.products(ProductQuery(includeArchived: true, page: Page(limit: 1)))
                .isEmpty
            // Amounts are typed as the locale she chose writes them.
            var settings = try await app.store.settings()
            // try?: a code that is no currency keeps the book's for these fields; sent, the form refuses it
            if let currency = try? Currency(code: proposal.currency) { settings.currency = currency }
            if LocaleStyle.isKnown(proposal.locale) { settings.localeIdentifier = proposal.locale }
            firstClinic = FirstClinic.fields(
                form: form,
                settings: settings,
                needsProduct: needsProduct,
                required: false
            )
        }
        return proposal.view(
            username: form?["username"] ?? "",
            propose: propose,
            sampleOffered: app.sample != nil,
            firstClinic: firstClinic,
            csrf: csrf
        )
    }

    /// The owner's account and the book's currency, time zone and locale, in one form; then the
    /// first clinic's form.
    func setup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        if try await !app.setupIsOpen() { return .redirect(to: "/login") }
        var proposal = try await BookProposal.of(app.store, acceptLanguage: request.headers[.acceptLanguage])
        proposal.take(form)
        let username = form["username"] ?? ""
        func refused(_ sentence: String) async throws -> Response {
            try await anonymousForm(
                "setup",
                title: "Welcome",
                context: context,
                view: { try await setupView(proposal, form: form, csrf: $0) },
                status: .unprocessableContent,
                error: sentence
            )
        }
        guard let password = form.values["password"], password.count >= 10 else {
            return try await refused("Choose a password of at least 10 characters.")
        }
        // Everything is checked before the account is made: the name, the settings (which the
        // store takes or refuses whole), and the first clinic's fields, read in the book's new
        // locale. A refusal leaves no account (setup stays open to try again).
        let first: FirstClinic?
        do {
            _ = try StoreInput.username(username)
            var settings = try proposal.settings()
            settings.rounding = try await app.store.settings().rounding
            try await app.store.updateSettings(settings)
            let asksClinic = try await app.store.clinics(ClinicQuery(includeArchived: true, page: Page(limit: 1)))
                .isEmpty
            let needsProduct = try await app.store.products(ProductQuery(includeArchived: true, page: Page(limit: 1)))
                .isEmpty
            first =
                asksClinic ? try FirstClinic.readIfGiven(form, style: settings.style, needsProduct: needsProduct) : nil
        } catch {
            let refusal = Problem.from(error, on: .page)
            guard refusal.status < 500 else { throw error }
            return try await refused(refusal.detail)
        }
        let hash = Bcrypt.hash(password, cost: app.configuration.bcryptCost)
        let account = try await app.store.createOwner(username: username, passwordHash: hash)
        // The history she brings in from now on is asked about once, not shown as Overdue.
        try await (app.store as? any HistoryQuestionStore)?.setHistoryQuestion(try await app.store.settings().today())
        await app.sample?.release()  // her book is set up: nobody is sent to the sample any more
        var response = try await startSession(for: account)
        // Then the Sale page, at her first clinic.
        if let first { response.headers[.location] = FirstClinic.salePage(try await first.make(in: app.store)) }
        return response
    }

    func loginPage(context: AppRequestContext, restored: Bool = false) async throws -> Response {
        if try await app.setupIsOpen() { return .redirect(to: "/setup") }
        if context.caller.account != nil { return .redirect(to: "/") }
        return await anonymousForm(
            "login",
            title: "Sign in",
            context: context,
            view: { LoginPageView(username: "", csrf: $0) },
            message: restored ? "The book was restored from a backup: sign in with an account of the backup." : nil
        )
    }

    /// The client's address, for the sign-in slowdown: the connection's peer, or behind a proxy
    /// that says so (``WebConfiguration/trustForwardedFor``) the first address of `X-Forwarded-For`.
    func clientAddress(_ request: Request, context: AppRequestContext) -> String {
        if app.configuration.trustForwardedFor,
            let forwarded = request.headers[.xForwardedFor]?.split(separator: ",").first
        {
            return forwarded.trimmingWhitespace()
        }
        return context.peerAddress ?? "unknown"
    }

    func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        let username = form["username"] ?? ""
        let address = clientAddress(request, context: context)
        let knownDevice = KnownDevice.isKnown(
            request.cookies[KnownDevice.cookieName]?.value,
            for: username,
            key: try await app.throttle.deviceKey(),
            now: app.configuration.clock.now
        )
        let password = form.values["password"] ?? ""
        let attempt = try await app.throttle.attempt(name: username, address: address, knownDevice: knownDevice) {
            () async throws -> Account? in
            // A name that does not exist is checked against a hash too, so that it answers as slowly
            // as one that does: the time of the answer does not tell which names exist.
            let credentials = try await app.store.credentials(username: username)
            let matches = Bcrypt.verify(
                password,
                hash: credentials?.passwordHash ?? UnknownName.hash(cost: app.configuration.bcryptCost)
            )
            guard let (account, hash) = credentials, matches else { return nil }
            await upgradeHash(of: account, hash: hash, password: password)
            return account
        }
        switch attempt {
        case .wait(let seconds):
            var response = await anonymousForm(
                "login",
                title: "Sign in",
                context: context,
                view: { LoginPageView(username: username, csrf: $0) },
                status: .tooManyRequests,
                error: "Too many failed sign-ins: try again in \(seconds) seconds."
            )
            response.headers[.retryAfter] = String(seconds)
            return response
        case .matched(let account):
            return try await startSession(for: account)
        case .wrong:
            return await anonymousForm(
                "login",
                title: "Sign in",
                context: context,
                view: { LoginPageView(username: username, csrf: $0) },
                status: .unauthorized,
                error: "The user name or the password is wrong."
            )
        }
    }

    /// A password hashed at another cost than the server's (an account made by `--demo` or before
    /// the cost was raised) is hashed again at the server's on her next sign-in, so that every
    /// known name takes as long to check as an unknown one. Best effort: a failure to keep the new
    /// hash does not fail her sign-in (the next one tries again).
    func upgradeHash(of account: Account, hash: String, password: String) async {
        let cost = app.configuration.bcryptCost
        guard !hash.hasPrefix(String(format: "$2b$%02d$", cost)) else { return }
        // try?: best effort, as said above: her old hash still signs her in, and her next sign-in tries again
        try? await app.store.updatePasswordHash(
            account: account.id,
            passwordHash: Bcrypt.hash(password, cost: cost),
            keepingSessions: true
        )
    }

    /// Signs the account in: a new session (its own CSRF token), the device made known to the
    /// sign-in slowdown, and the anonymous forms' CSRF cookie replaced, so that nothing set before
    /// the sign-in is worth anything after it.
    func startSession(for account: Account) async throws -> Response {
        let secret = Secret.make()
        let lifetime = app.configuration.sessionLifetime
        try await app.store.createSession(
            account: account.id,
            tokenDigest: Secret.digest(secret),
            csrfToken: Secret.make(),
            expiresAt: app.configuration.clock.now.addingTimeInterval(lifetime)
        )
        var response = Response.redirect(to: "/")
        let secure = app.configuration.secureCookies
        response.setCookie(
            Cookie(
                name: AuthenticationMiddleware.cookieName,
                value: secret,
                maxAge: Int(lifetime),
                path: "/",
                secure: secure,
                httpOnly: true,
                sameSite: .lax
            )
        )
        response.setCookie(
            Cookie(
                name: KnownDevice.cookieName,
                value: KnownDevice.cookie(
                    for: account.username,
                    key: try await app.throttle.deviceKey(),
                    now: app.configuration.clock.now
                ),
                maxAge: Int(KnownDevice.lifetime),
                path: "/",
                secure: secure,
                httpOnly: true,
                sameSite: .lax
            )
        )
        response.setCookie(
            Cookie(
                name: Self.anonymousCSRFCookie,
                value: Secret.make(),
                path: "/",
                secure: secure,
                httpOnly: true,
                sameSite: .strict
            )
        )
        return response
    }

    /// Signs her out: the session forgotten, and the push subscription of the browser she signs
    /// out of (its endpoint, sent by the page's script, which unsubscribes it), so that a phone
    /// signed out is reminded of nothing.
    func logout(context: AppRequestContext, form: Form) async throws -> Response {
        if case .session(let session, let digest) = context.caller {
            if let endpoint = form["pushEndpoint"],
                let device = try await app.store.pushDevices(of: session.account.id).first(where: {
                    $0.endpoint == endpoint
                })
            {
                try await app.store.removePushDevice(device.id, of: session.account.id)
            }
            try await app.store.deleteSession(tokenDigest: digest)
        }
        var response = Response.redirect(to: "/login")
        response.setCookie(
            Cookie(
                name: AuthenticationMiddleware.cookieName,
                value: "",
                maxAge: 0,
                path: "/",
                secure: app.configuration.secureCookies,
                httpOnly: true,
                sameSite: .lax
            )
        )
        return response
    }

    // MARK: Invitations

    func invitationPage(
        context: AppRequestContext,
        username: String = "",
        status: HTTPResponse.Status = .ok,
        error: String? = nil
    ) async throws -> Response {
        let secret = try context.parameters.require("secret")
        guard
            let invitation = try await app.store.invitation(
                tokenDigest: Secret.digest(secret),
                now: app.configuration.clock.now
            )
        else {
            throw Problem(
                .notFound,
                "This invitation link has been used or has expired, or it was copied wrongly. Ask for a new one."
            )
        }
        if invitation.isSpent { throw Self.spent }
        let view = { (csrf: String) in
            InvitePageView(
                action: Self.invitationPath + secret,
                username: username,
                invitedBy: invitation.invitedBy,
                isOwner: invitation.role == .owner,
                expires: Day(invitation.expiresAt, in: .current).description,
                csrf: csrf
            )
        }
        return await anonymousForm("invite", title: "Join", context: context, view: view, status: status, error: error)
    }

    static let spent = Problem(
        .gone,
        "This link is spent: the book it opens already has its owner. Sign in, or ask the owner for an invitation."
    )

    func acceptInvitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let secret = try context.parameters.require("secret")
        let form = try await Form.read(request, context: context)
        try checkAnonymousForm(request, form)
        let username = form["username"] ?? ""
        guard let password = form.values["password"], password.count >= 10 else {
            return try await invitationPage(
                context: context,
                username: username,
                status: .unprocessableContent,
                error: "Choose a password of at least 10 characters."
            )
        }
        let account: Account
        do {
            account = try await app.store.acceptInvitation(
                tokenDigest: Secret.digest(secret),
                username: username,
                passwordHash: Bcrypt.hash(password, cost: app.configuration.bcryptCost),
                now: app.configuration.clock.now
            )
        } catch StoreError.invalid(let field, let reason) where field == "user name" {
            return try await invitationPage(
                context: context,
                username: username,
                status: .unprocessableContent,
                error: "The user name: \(reason)"
            )
        } catch StoreError.invalid(let field, let reason)
            where field == "invitation" && reason == Invitation.spentReason
        {
            throw Self.spent
        }
        return try await startSession(for: account)
    }

    func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await app.body(API.InvitationInput.self, request, context: context)
        let role: MemberRole = try app.choice(input.role, field: "role") ?? .member
        let link = try await createInvitation(request, context: context, role: role)
        return try app.json(
            API.Invitation(url: link.url, path: link.path, role: API.spelt(role), expiresAt: link.expiresAt),
            status: .created
        )
    }

    /// A new invitation link of the book: its secret is in the link only, the store keeps its digest.
    func createInvitation(
        _ request: Request,
        context: AppRequestContext,
        role: MemberRole
    ) async throws
        -> (url: String, path: String, expiresAt: Date)
    {
        try await app.requireOwner(context, to: "invite people")
        let secret = Secret.make()
        let expires = app.configuration.clock.now.addingTimeInterval(Self.invitationLifetime)
        try await app.store.createInvitation(
            tokenDigest: Secret.digest(secret),
            role: role,
            invitedBy: context.caller.account?.id,
            expiresAt: expires
        )
        let path = Self.invitationPath + secret
        // The server's public address, never the request's Host header (which the caller chooses).
        return (app.configuration.linkBase + path, path, expires)
    }
}

/// The hash an unknown name's password is checked against: made once per cost, at the server's
/// own cost, so that checking it takes as long as checking a real one.
enum UnknownName {
    private static let hashes = Mutex<[UInt8: String]>([:])

    static func hash(cost: UInt8) -> String {
        if let hash = hashes.withLock({ $0[cost] }) { return hash }
        let hash = Bcrypt.hash(Secret.make(), cost: cost)
        hashes.withLock { $0[cost] = $0[cost] ?? hash }
        return hash
    }
}

/// The unknown-name hash, for the tests.
public enum UnknownNameHash {
    public static func forTests(cost: UInt8) -> String { UnknownName.hash(cost: cost) }
}

/// The sign-in page (`login.mustache`).
package struct LoginPageView: PageView {
    let username: String
    let csrf: String
    package init(username: String, csrf: String) { (self.username, self.csrf) = (username, csrf) }
}

/// The page an invitation link opens (`invite.mustache`): who invited her, as what, until when.
package struct InvitePageView: PageView {
    /// Where the form posts: the link's own path.
    let action: String
    let username: String
    let invitedBy: String?
    let isOwner: Bool
    let expires: String
    let csrf: String
    package init(action: String, username: String, invitedBy: String?, isOwner: Bool, expires: String, csrf: String) {
        (self.action, self.username, self.invitedBy, self.isOwner, self.expires, self.csrf) = (
            action, username, invitedBy, isOwner, expires, csrf
        )
    }
}

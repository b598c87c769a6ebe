import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import HummingbirdBcrypt

/// The book's settings (owners), its people and invitation links, API tokens, her password.
struct SettingsJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get("/settings") { _, context in try await settingsPage(context: context) }
        pages.post("/settings/tokens") { request, context in
            let form = try await Form.read(request, context: context)
            return try await app.form {
                let secret = "cm_" + Secret.make()
                _ = try await app.store.createToken(
                    account: try app.account(context).id,
                    name: form["name"] ?? "",
                    tokenDigest: Secret.digest(secret),
                    now: app.configuration.clock.now
                )
                return try await settingsPage(context: context, newToken: secret)
            } refused: { refusal in
                // The name she gave stays, in the section open, marked.
                try await settingsPage(
                    context: context,
                    error: refusal.detail,
                    errorLink: refusal.link,
                    status: .init(code: refusal.status),
                    typed: form,
                    refusal: refusal,
                    section: "tokens"
                )
            }
        }
        pages.post("/settings/tokens/:id/revoke") { _, context in
            try await app.store.revokeToken(
                APIToken.ID(try context.parameters.require("id", as: Int64.self)),
                account: try app.account(context).id
            )
            return .redirect(to: "/settings")
        }
        pages.post("/settings/password") { request, context in try await changePassword(request, context: context) }
        pages.post("/settings/book") { request, context in try await changeBookSettings(request, context: context) }
        pages.post("/settings/invitations") { request, context in
            let form = try await Form.read(request, context: context)
            let link = try await AccountJob(app).createInvitation(
                request,
                context: context,
                role: MemberRole(rawValue: form["role"] ?? "member") ?? .member
            )
            return try await settingsPage(context: context, newInvitation: link.url)
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/settings") { _, _ in try app.json(try await app.presenter().settings(try await app.store.settings()))
        }
        api.post("/settings") { request, context in try await updateSettings(request, context: context) }
        api.get("/tokens") { _, context in
            let tokens = try await app.store.tokens(account: try app.account(context).id)
            return try app.json(
                tokens.map {
                    API.Token(
                        id: $0.id.rawValue,
                        name: $0.name,
                        createdAt: $0.createdAt,
                        lastUsedAt: $0.lastUsedAt,
                        token: nil
                    )
                }
            )
        }
        api.post("/tokens") { request, context in
            let input = try await app.body(API.TokenInput.self, request, context: context)
            let secret = "cm_" + Secret.make()
            let token = try await app.store.createToken(
                account: try app.account(context).id,
                name: input.name,
                tokenDigest: Secret.digest(secret),
                now: app.configuration.clock.now
            )
            return try app.json(
                API.Token(
                    id: token.id.rawValue,
                    name: token.name,
                    createdAt: token.createdAt,
                    lastUsedAt: nil,
                    token: secret
                ),
                status: .created
            )
        }
        api.post("/tokens/:id/revoke") { _, context in
            try await app.store.revokeToken(
                APIToken.ID(try context.parameters.require("id", as: Int64.self)),
                account: try app.account(context).id
            )
            return Response(status: .noContent)
        }
    }

    // MARK: Pages

    /// "EUR · Euro": a currency as the Settings list names it.
    static func currencyLabel(_ code: String) -> String {
        Locale(identifier: "en_US").localizedString(forCurrencyCode: code).map { "\(code) · \($0)" } ?? code
    }

    /// The currencies in common use, named once for the life of the process.
    static let currencies = Locale.commonISOCurrencyCodes.map { (code: $0, label: currencyLabel($0)) }

    /// The Settings page. `typed`: the refused form of `section` (`book`, `tokens`) as she sent
    /// it, drawn again as she typed it, the field `refusal` is about marked.
    func settingsPage(
        context: AppRequestContext,
        newToken: String? = nil,
        newInvitation: String? = nil,
        message: String? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil,
        status: HTTPResponse.Status = .ok,
        typed: Form? = nil,
        refusal: Problem? = nil,
        section: String? = nil
    ) async throws -> Response {
        let account = try app.account(context)
        let stored = try await app.store.settings()
        // The book's form as she sent it, when it comes back to her.
        let book = section == "book" ? typed : nil
        var settings = stored
        if let book {
            settings.timeZoneIdentifier = book["timeZone"] ?? ""
            settings.localeIdentifier = book["locale"] ?? stored.localeIdentifier
            settings.rounding = RoundingPolicy(
                rule: RoundingRule(rawValue: book["rule"] ?? "") ?? stored.rounding.rule,
                scope: RoundingScope(rawValue: book["scope"] ?? "") ?? stored.rounding.scope
            )
        }
        // Every currency in common use, hers chosen (and kept, should the list not hold it).
        let code = book?["currency"] ?? stored.currency.code
        let currencies =
            (Self.currencies.contains { $0.code == code } ? [] : [(code: code, label: Self.currencyLabel(code))])
            + Self.currencies
        // Every zone the system knows, hers chosen (and kept, should the system not know it).
        let zones =
            (TimeZone.knownTimeZoneIdentifiers.contains(settings.timeZoneIdentifier)
                ? [] : [settings.timeZoneIdentifier].filter { !$0.isEmpty })
            + TimeZone.knownTimeZoneIdentifiers.sorted()
        let locales =
            LocaleStyle.common.map { (id: $0.identifier, name: $0.name) }
            + (LocaleStyle.common.contains { $0.identifier == settings.localeIdentifier }
                ? [] : [(id: settings.localeIdentifier, name: settings.localeIdentifier)])
        let view = SettingsPageView(
            isOwner: try await app.store.role(of: account.id) == .owner,
            currencyName: Self.currencyLabel(stored.currency.code),
            timeZone: settings.timeZoneIdentifier,
            currencies: currencies.map { .init(value: $0.code, label: $0.label, selected: $0.code == code) },
            timeZones: zones.map {
                .init(
                    value: $0,
                    label: $0.replacingOccurrences(of: "_", with: " "),
                    selected: $0 == settings.timeZoneIdentifier
                )
            },
            locales: locales.map { .init(value: $0.id, label: $0.name, selected: $0.id == settings.localeIdentifier) },
            awayFromZero: settings.rounding.rule == .halfAwayFromZero,
            perLine: settings.rounding.scope == .perLine,
            members: try await app.store.members().map {
                .init(username: $0.account.username, role: $0.role == .owner ? "owner" : "member")
            },
            newInvitation: newInvitation,
            newToken: newToken,
            tokens: try await app.store.tokens(account: account.id).map {
                .init(
                    id: $0.id.rawValue,
                    name: $0.name,
                    created: stored.style.format(Day($0.createdAt, in: .current))
                )
            },
            invalid: FieldMarks(book != nil ? refusal?.field : nil),
            tokenName: section == "tokens" ? typed?.values["name"] ?? "" : "",
            tokenInvalid: section == "tokens" && refusal?.field == "name",
            tokensOpen: newToken != nil || section == "tokens",
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "settings",
            view: view,
            title: "Settings",
            nav: "settings",
            context: context,
            status: status,
            message: message,
            error: error,
            errorLink: errorLink
        )
    }

    func changeBookSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await app.requireOwner(context, to: "change the book's settings")
        let form = try await Form.read(request, context: context)
        var settings = try await app.store.settings()
        return try await app.form {
            settings.currency = try Problem.about("currency") { try Currency(code: form["currency"] ?? "") }
            settings.timeZoneIdentifier = form["timeZone"] ?? ""
            settings.localeIdentifier = form["locale"] ?? settings.localeIdentifier
            settings.rounding = RoundingPolicy(
                rule: RoundingRule(rawValue: form["rule"] ?? "") ?? settings.rounding.rule,
                scope: RoundingScope(rawValue: form["scope"] ?? "") ?? settings.rounding.scope
            )
            try await app.store.updateSettings(settings)
            return try await settingsPage(context: context, message: "Settings saved.")
        } refused: { refusal in
            try await settingsPage(
                context: context,
                error: refusal.detail,
                errorLink: refusal.link,
                status: .init(code: refusal.status),
                typed: form,
                refusal: refusal,
                section: "book"
            )
        }
    }

    func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let account = try app.account(context)
        let form = try await Form.read(request, context: context)
        guard let new = form.values["new"], new.count >= 10 else {
            return try await settingsPage(
                context: context,
                error: "Choose a new password of at least 10 characters.",
                status: .unprocessableContent
            )
        }
        // The current password is guessed no faster here than at sign-in (a session left open on a shared computer).
        let current = form.values["current"] ?? ""
        let attempt = try await app.throttle.attempt(
            name: account.username,
            address: AccountJob(app).clientAddress(request, context: context),
            knownDevice: true
        ) { () async throws -> Account? in
            guard let (_, hash) = try await app.store.credentials(username: account.username),
                Bcrypt.verify(current, hash: hash)
            else { return nil }
            return account
        }
        switch attempt {
        case .wait(let seconds):
            var response = try await settingsPage(
                context: context,
                error: "Too many wrong passwords: try again in \(seconds) seconds.",
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(seconds)
            return response
        case .wrong:
            return try await settingsPage(
                context: context,
                error: "The current password is wrong.",
                status: .unprocessableContent
            )
        case .matched:
            break
        }
        try await app.store.updatePasswordHash(
            account: account.id,
            passwordHash: Bcrypt.hash(new, cost: app.configuration.bcryptCost)
        )
        return try await AccountJob(app).startSession(for: account)
    }

    // MARK: API

    func updateSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await app.requireOwner(context, to: "change the book's settings")
        let input = try await app.body(API.SettingsInput.self, request, context: context)
        var settings = try await app.store.settings()
        if let code = input.currency { settings.currency = try Currency(code: code) }
        if let zone = input.timeZone { settings.timeZoneIdentifier = zone }
        if let locale = input.locale { settings.localeIdentifier = locale.replacingOccurrences(of: "-", with: "_") }
        if let rule: RoundingRule = try app.choice(input.rounding, field: "rounding") { settings.rounding.rule = rule }
        if let scope: RoundingScope = try app.choice(input.roundingScope, field: "roundingScope") {
            settings.rounding.scope = scope
        }
        try await app.store.updateSettings(settings)
        return try app.json(try await app.presenter().settings(settings))
    }

}

/// The Settings page (`settings.mustache`): the book's settings (an owner changes them), its
/// people and invitations, her password, her API tokens.
package struct SettingsPageView: PageView {
    package typealias Choice = PageChoice
    /// The release the server runs, said at the page's foot (what changed in each: CHANGELOG.md).
    let release = CommissionRelease.version

    package struct Member: Sendable, TemplateValues {
        let username: String, role: String
        package init(username: String, role: String) { (self.username, self.role) = (username, role) }
    }

    package struct Token: Sendable, TemplateValues {
        let id: Int64, name: String, created: String
        package init(id: Int64, name: String, created: String) {
            (self.id, self.name, self.created) = (id, name, created)
        }
    }

    let isOwner: Bool
    /// "USD · US Dollar", and the zone, as a member sees them.
    let currencyName: String, timeZone: String
    let currencies: [Choice], timeZones: [Choice], locales: [Choice]
    /// The book's form as drawn: its settings, or what she chose when the form comes back to her.
    let awayFromZero: Bool, perLine: Bool
    /// The field of the book's form a refusal is about.
    let invalid: FieldMarks
    let members: [Member]
    /// An invitation link or a token just made: shown once.
    let newInvitation: String?, newToken: String?
    let tokens: [Token]
    /// The new token's name as she typed it, when it was refused (`tokenInvalid`).
    let tokenName: String
    let tokenInvalid: Bool
    /// The tokens' section shows open: a token was just made, or refused.
    let tokensOpen: Bool
    let csrf: String

    package init(
        isOwner: Bool,
        currencyName: String,
        timeZone: String,
        currencies: [Choice],
        timeZones: [Choice],
        locales: [Choice],
        awayFromZero: Bool,
        perLine: Bool,
        members: [Member],
        newInvitation: String?,
        newToken: String?,
        tokens: [Token],
        invalid: FieldMarks = FieldMarks(),
        tokenName: String = "",
        tokenInvalid: Bool = false,
        tokensOpen: Bool? = nil,
        csrf: String
    ) {
        (self.invalid, self.tokenName, self.tokenInvalid) = (invalid, tokenName, tokenInvalid)
        self.tokensOpen = tokensOpen ?? (newToken != nil)
        (self.isOwner, self.currencyName, self.timeZone, self.currencies, self.timeZones, self.locales) = (
            isOwner, currencyName, timeZone, currencies, timeZones, locales
        )
        (self.awayFromZero, self.perLine, self.members, self.newInvitation, self.newToken, self.tokens, self.csrf) = (
            awayFromZero, perLine, members, newInvitation, newToken, tokens, csrf
        )
    }
}

import CommissionCore
import CommissionKit
import CommissionStore
import Foundation
import Hummingbird
import Mustache

/// Renders the server-side pages.
///
/// The templates are the `.mustache` files of `Resources/templates` (a template's name is its file
/// name without the extension; double mustaches escape HTML, triple ones are only used for HTML the
/// server built itself). They are read and compiled once per process and shared by every book's app.
package struct Pages: Sendable, TemplateValues {
    let library: MustacheLibrary

    /// The templates of this build, compiled once.
    package static let shared = Pages(library: Resources.templates())

    private init(library: MustacheLibrary) { self.library = library }

    /// The pages the bottom tab bar reaches through "More".
    static let underMore: Set<String> = ["statements", "year", "book", "transfer", "settings", "more"]

    /// A whole page: `template` rendered from its typed view (its fields are the template's names;
    /// `ViewTemplatesTests` holds each template to its view), inside the layout. `lang` is the
    /// page's language (`en-US`), from the book's locale; `csrf` the form token when the request
    /// has none yet (a page before sign-in).
    func page(
        _ template: String,
        view: some PageView,
        title: String,
        nav: String? = nil,
        context: AppRequestContext,
        status: HTTPResponse.Status = .ok,
        message: String? = nil,
        messageLink: PageLink? = nil,
        error: String? = nil,
        errorLink: PageLink? = nil,
        csrf: String? = nil,
        lang: String = "en"
    ) -> Response {
        let layout = LayoutView(
            title: title,
            body: library.render(view, withTemplate: template) ?? "",
            csrf: csrf ?? context.csrfToken ?? "",
            signedIn: context.caller.account != nil,
            sample: context.isSample,
            lang: lang,
            rendered: Date().ISO8601Format(),  // when drawn: what a copy kept offline says it shows
            release: ServedRelease.stamp,
            nav: nav.map { LayoutView.Nav(current: $0, underMore: Self.underMore.contains($0)) },
            message: message,
            messageLink: messageLink,
            error: error,
            errorLink: errorLink
        )
        return html(library.render(layout, withTemplate: "layout") ?? "", status: status)
    }

    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    func errorPage(_ problem: Problem, context: AppRequestContext) -> Response {
        var response = page(
            "error",
            view: ErrorPageView(title: problem.title, detail: problem.detail, link: problem.link),
            title: problem.title,
            context: context,
            status: .init(code: problem.status)
        )
        if problem.status == 503 { response.headers[.retryAfter] = Problem.retryAfter }
        return response
    }
}

/// A page's typed view: the values its template shows, by name. A section over an optional shows
/// when it is there; over an array, once for each element; over a `Bool`, when it is true.
package protocol PageView: Sendable, TemplateValues {}

/// One choice of a page's picker by its value (an order of dates, a currency, a kind): `label` is
/// what she reads, `selected` when it is the one shown.
package struct PageChoice: Sendable, TemplateValues {
    let value: String
    let label: String
    let selected: Bool

    package init(value: String, label: String, selected: Bool = false) {
        (self.value, self.label, self.selected) = (value, label, selected)
    }

    /// The days of the week, for a weekly schedule's picker (`selected` chosen).
    static func weekdays(selected: Weekday? = nil) -> [PageChoice] {
        Weekday.allCases.map {
            PageChoice(value: $0.description, label: $0.description.capitalized, selected: $0 == selected)
        }
    }

    /// The weekday a weekly schedule's picker sent (`monday`), or nil.
    static func weekday(named value: String) -> Weekday? {
        Weekday.allCases.first { $0.description == value }
    }
}

/// One choice of a page's picker (a clinic, a product): `selected` when it is the one shown.
package struct PageOption: Sendable, TemplateValues {
    let id: Int64
    let name: String
    let selected: Bool

    package init(id: Int64, name: String, selected: Bool) {
        (self.id, self.name, self.selected) = (id, name, selected)
    }
}

/// The layout around every page (`layout.mustache`): the bars, the notices, the page's language.
package struct LayoutView: PageView {
    /// Which tab and which link of the wide bar are the page's (`more` for the pages under More).
    package struct Nav: Sendable, TemplateValues {
        let entry: Bool, dashboard: Bool, sales: Bool, statements: Bool, year: Bool, payouts: Bool, book: Bool,
            transfer: Bool, settings: Bool, more: Bool
        package init(current: String, underMore: Bool) {
            (entry, dashboard, sales, statements, year) = (
                current == "entry", current == "dashboard", current == "sales", current == "statements",
                current == "year"
            )
            (payouts, book, transfer, settings) = (
                current == "payouts", current == "book", current == "transfer", current == "settings"
            )
            more = current == "more" || underMore
        }
    }

    let title: String
    /// The page's template, rendered.
    let body: String
    let csrf: String
    let signedIn: Bool, sample: Bool
    let lang: String
    let rendered: String
    /// The server's release and static files (``ServedRelease/stamp``): the page's script loads
    /// itself again once the server answers with another.
    let release: String
    let nav: Nav?
    let message: String?, error: String?
    /// Where to go next after `message` ("See what each clinic owes you"), when there is a place.
    let messageLink: PageLink?
    /// The form that settles `error`, when there is one.
    let errorLink: PageLink?

    package init(
        title: String,
        body: String,
        csrf: String,
        signedIn: Bool,
        sample: Bool,
        lang: String,
        rendered: String,
        release: String = ServedRelease.stamp,
        nav: Nav?,
        message: String?,
        messageLink: PageLink? = nil,
        error: String?,
        errorLink: PageLink?
    ) {
        (self.title, self.body, self.csrf, self.signedIn, self.sample, self.lang, self.rendered) = (
            title, body, csrf, signedIn, sample, lang, rendered
        )
        (self.nav, self.message, self.messageLink, self.error, self.errorLink) = (
            nav, message, messageLink, error, errorLink
        )
        self.release = release
    }
}

/// What the server says of its release on every answer (`Commission-Release`) and every page
/// (`data-release`): the release and a digest of its static files, so that a page, its script and
/// its service worker kept on her phone from another build (the server upgraded, or rolled back,
/// while the page stayed open) know it, send what waits, and load themselves again.
package enum ServedRelease {
    /// "2026.12.03 (a1b2c3d4e5f6)".
    package static let stamp = "\(CommissionRelease.version) (\(StaticFiles.shared.version))"
}

/// A refusal or a failure as a page (`error.mustache`), with the form that settles it when there is one.
package struct ErrorPageView: PageView {
    let title: String, detail: String
    let link: PageLink?
    package init(title: String, detail: String, link: PageLink?) {
        (self.title, self.detail, self.link) = (title, detail, link)
    }
}

/// The More page (`more.mustache`): the pages under it, and Sign out.
package struct MorePageView: PageView {
    let csrf: String
    package init(csrf: String) { self.csrf = csrf }
}

/// One page of a long list the server has whole (a group of a statement's lines, a clinic's
/// periods): the page asked for (`?page=`, kept within those there are), its rows, where they
/// stand in the list (1-based), and the pages either side.
struct ListPage<Row> {
    let rows: [Row]
    /// The first and last rows' places in the whole list, from 1.
    let first: Int, last: Int
    let previous: Int?, next: Int?
    /// The whole list fits on one page.
    let isOnly: Bool

    init(_ all: [Row], size: Int, asked: (some StringProtocol)?) {
        let pages = max(1, (all.count + size - 1) / size)
        let page = min(max(1, asked.flatMap { Int($0) } ?? 1), pages)
        rows = Array(all.dropFirst((page - 1) * size).prefix(size))
        (first, last) = ((page - 1) * size + 1, (page - 1) * size + rows.count)
        (previous, next, isOnly) = (page > 1 ? page - 1 : nil, page < pages ? page + 1 : nil, pages == 1)
    }
}

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
package struct Pages: Sendable {
    let library: MustacheLibrary

    /// The templates of this build, compiled once.
    package static let shared = Pages(library: Resources.templates())

    private init(library: MustacheLibrary) { self.library = library }

    /// The pages the bottom tab bar reaches through "More".
    static let underMore: Set<String> = ["statements", "year", "book", "transfer", "settings", "more"]

    /// A whole page: `template` rendered with `values`, inside the layout. `lang` is the page's
    /// language (`en-US`), from the book's locale.
    func page(_ template: String, title: String, nav: String? = nil, context: AppRequestContext, values: [String: Any] = [:],
              status: HTTPResponse.Status = .ok, message: String? = nil, error: String? = nil, errorLink: PageLink? = nil,
              csrf: String? = nil, lang: String = "en") -> Response {
        var values = Self.prepared(values)
        let token = csrf ?? context.csrfToken
        values["csrf"] = token
        return layout(body: library.render(values, withTemplate: template) ?? "", title: title, nav: nav, context: context, status: status,
                      message: message, error: error, errorLink: errorLink, csrf: token, lang: lang)
    }

    /// A whole page whose template renders from a typed view (its fields are the template's names;
    /// `ViewTemplatesTests` holds each template to its view).
    func page(_ template: String, view: some PageView, title: String, nav: String? = nil, context: AppRequestContext,
              status: HTTPResponse.Status = .ok, message: String? = nil, error: String? = nil, lang: String = "en") -> Response {
        layout(body: library.render(view, withTemplate: template) ?? "", title: title, nav: nav, context: context, status: status,
               message: message, error: error, errorLink: nil, csrf: context.csrfToken, lang: lang)
    }

    /// `body` inside the layout: the bars, the notices, the page's language.
    private func layout(body: String, title: String, nav: String?, context: AppRequestContext, status: HTTPResponse.Status,
                        message: String?, error: String?, errorLink: PageLink?, csrf token: String?, lang: String) -> Response {
        var layout: [String: Any] = ["title": title, "body": body, "csrf": token ?? "", "signedIn": context.caller.account != nil, "lang": lang,
                                     "sample": context.isSample,
                                     "rendered": Date().ISO8601Format()]  // when drawn: what a copy kept offline says it shows
        if let nav {
            var current: [String: Bool] = ["more": Self.underMore.contains(nav)]
            current[nav] = true
            layout["nav"] = current
        }
        if let message { layout["message"] = message }
        if let error { layout["error"] = error }
        if let errorLink { layout["errorLink"] = ["label": errorLink.label, "href": errorLink.href] }
        return html(library.render(layout, withTemplate: "layout") ?? "", status: status)
    }

    /// A fragment without the layout (the live dashboard's body).
    func fragment(_ template: String, values: [String: Any]) -> Response {
        html(library.render(Self.prepared(values), withTemplate: template) ?? "")
    }

    /// The values without their empty strings, at every depth. swift-mustache counts any string as
    /// true, so `{{#note}}…{{/note}}` would show for a sale without a note; a missing key is false,
    /// and `{{note}}` of a missing key prints the same nothing as an empty one.
    static func prepared(_ values: [String: Any]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in values {
            switch value {
            case let text as String where text.isEmpty: continue
            case let nested as [String: Any]: result[key] = prepared(nested)
            case let list as [[String: Any]]: result[key] = list.map(prepared)
            default: result[key] = value
            }
        }
        return result
    }

    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func errorPage(_ problem: Problem, context: AppRequestContext) -> Response {
        var values: [String: Any] = ["title": problem.title, "detail": problem.detail]
        if let link = problem.link { values["link"] = ["label": link.label, "href": link.href] }
        var response = page("error", title: problem.title, context: context, values: values, status: .init(code: problem.status))
        if problem.status == 503 { response.headers[.retryAfter] = Problem.retryAfter }
        return response
    }
}

/// A page's typed view: the values its template shows, by name. A section over an optional shows
/// when it is there; over an array, once for each element; over a `Bool`, when it is true.
package protocol PageView: Sendable {}

/// One choice of a page's picker (a clinic, a product): `selected` when it is the one shown.
package struct PageOption: Sendable {
    let id: Int64
    let name: String
    let selected: Bool

    package init(id: Int64, name: String, selected: Bool) {
        (self.id, self.name, self.selected) = (id, name, selected)
    }
}

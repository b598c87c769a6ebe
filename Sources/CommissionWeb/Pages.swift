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
struct Pages: Sendable {
    let library: MustacheLibrary

    /// The templates of this build, compiled once.
    static let shared = Pages(library: Resources.templates())

    private init(library: MustacheLibrary) { self.library = library }

    /// A whole page: `template` rendered with `values`, inside the layout.
    func page(_ template: String, title: String, nav: String? = nil, context: AppRequestContext, values: [String: Any] = [:],
              status: HTTPResponse.Status = .ok, message: String? = nil, error: String? = nil, csrf: String? = nil) -> Response {
        var values = values
        let token = csrf ?? context.csrfToken
        values["csrf"] = token
        let body = library.render(values, withTemplate: template) ?? ""
        var layout: [String: Any] = ["title": title, "body": body, "csrf": token ?? "", "signedIn": context.caller.account != nil]
        if let nav { layout["nav"] = [nav: true] }
        if let message { layout["message"] = message }
        if let error { layout["error"] = error }
        return html(library.render(layout, withTemplate: "layout") ?? "", status: status)
    }

    /// A fragment without the layout (the live dashboard's body).
    func fragment(_ template: String, values: [String: Any]) -> Response {
        html(library.render(values, withTemplate: template) ?? "")
    }

    func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func errorPage(_ problem: Problem, context: AppRequestContext) -> Response {
        page("error", title: problem.title, context: context, values: ["title": problem.title, "detail": problem.detail],
             status: .init(code: problem.status))
    }
}

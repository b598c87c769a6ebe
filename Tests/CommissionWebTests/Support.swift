import CommissionCore
import CommissionSQLite
import CommissionStore
import CommissionWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A test app on an in-memory book with Glow (monthly, 40% of profit) and a serum (50.00, cost 20.00).
struct TestApp {
    let store: SQLiteStore
    let routes = RouteLog()
    let app: Application<RouterResponder<AppRequestContext>>
    let glow: Clinic
    let serum: Product

    /// `push`: where the app's push messages go (none sent without one), to endpoints on any address.
    init(maxBodySize: Int = 64 * 1024, push: (any PushTransport)? = nil) async throws {
        store = try SQLiteStore(.inMemory, defaultSettings: BookSettings(currency: .usd, timeZoneIdentifier: "UTC"))
        glow = try await store.createClinic(ClinicDraft(name: "Glow", schedule: .monthly))
        serum = try await store.createProduct(
            ProductDraft(
                name: "Serum 30ml",
                sku: "SER-30",
                unitPrice: Money(minorUnits: 5000),
                unitCost: Money(minorUnits: 2000)
            )
        )
        _ = try await store.createTerms(
            TermsDraft(
                clinicID: glow.id,
                share: try Share(parsing: "40"),
                effectiveFrom: try Day(parsing: "2020-01-01")
            )
        )
        var configuration = WebConfiguration(maxBodySize: maxBodySize, bcryptCost: 4)
        (configuration.pushTransport, configuration.unsafePushEndpoints) = (push, push != nil)
        app = Application(router: buildRouter(configuration: configuration, store: store, routes: routes))
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// `name=value` pairs of the response's Set-Cookie headers.
    var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { result[String(pair[0])] = String(pair[1]) }
        }
        return result
    }

    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }
}

/// The hidden CSRF field of the first form in an HTML page.
func csrfField(_ html: String) -> String? {
    guard let range = html.range(of: "name=\"csrf\" value=\"") else { return nil }
    return String(html[range.upperBound...].prefix { $0 != "\"" })
}

func form(_ fields: [String: String]) -> ByteBuffer {
    ByteBuffer(
        string: fields.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }.joined(separator: "&")
    )
}

let formHeaders: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

/// A workbook of the fixtures (Tests/CommissionKitTests/Fixtures/workbook) chosen on the Import
/// page, as a browser posts it (`multipart/form-data`), with her order of dates.
func workbookUpload(_ name: String, csrf: String, cookie: String, dates: String) throws -> (HTTPFields, ByteBuffer) {
    let workbook = try Data(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CommissionKitTests/Fixtures/workbook/\(name)").standardizedFileURL
    )
    let boundary = "----commission-test"
    var body = ByteBuffer()
    body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n")
    body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"workbook\"; filename=\"\(name)\"\r\n")
    body.writeString("Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n")
    body.writeBytes(Array(workbook))
    body.writeString("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"dates\"\r\n\r\n\(dates)\r\n")
    body.writeString("--\(boundary)--\r\n")
    return ([.contentType: "multipart/form-data; boundary=\(boundary)", .cookie: "commission_session=\(cookie)"], body)
}

/// Creates the owner through the setup page and returns the session cookie and its CSRF token.
func signUp(
    _ client: some TestClientProtocol,
    username: String = "ana",
    password: String = "correct horse battery"
) async throws -> (cookie: String, csrf: String) {
    let page = try await client.execute(uri: "/setup", method: .get)
    let anonymous = try #require(page.cookies["commission_csrf"])
    let token = try #require(csrfField(page.text))
    var headers = formHeaders
    headers[.cookie] = "commission_csrf=\(anonymous)"
    let created = try await client.execute(
        uri: "/setup",
        method: .post,
        headers: headers,
        body: form(["csrf": token, "username": username, "password": password])
    )
    #expect(created.status == .seeOther)
    let session = try #require(created.cookies["commission_session"])
    let home = try await client.execute(uri: "/", method: .get, headers: [.cookie: "commission_session=\(session)"])
    return (session, try #require(csrfField(home.text)))
}

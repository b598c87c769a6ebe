import AsyncHTTPClient
import CommissionWeb
import Foundation
import Synchronization

/// How `serve` reaches the push services: AsyncHTTPClient, never following a redirect (the
/// endpoint was checked, where a redirect would lead was not), a push service that does not
/// answer given up after 10 seconds to connect and 30 to answer.
/// The client is made on the first push, so that a server that fails before it sends any has
/// none to close.
final class HTTPPushTransport: PushTransport {
    private let made = Mutex<HTTPClient?>(nil)

    var client: HTTPClient {
        made.withLock { client in
            if let client { return client }
            let new = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    redirectConfiguration: .disallow,
                    timeout: .init(connect: .seconds(10), read: .seconds(30))
                )
            )
            client = new
            return new
        }
    }

    func post(_ url: URL, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, retryAfter: String?)
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: .seconds(40))
        // The body says nothing the status does not; it is read (at most a little) and let go.
        _ = try await response.body.collect(upTo: 64 * 1024)
        return (Int(response.status.code), response.headers.first(name: "Retry-After"))
    }

    func shutdown() async {
        guard let client = made.withLock({ $0 }) else { return }
        // try?: the process is ending; a client that does not close cleanly loses nothing kept
        try? await client.shutdown()
    }
}

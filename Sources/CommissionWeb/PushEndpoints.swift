import Foundation  // the system's resolver and address parsing (Glibc, Darwin) come with it

/// Which push endpoints the server calls: a URL it will POST to on her behalf, so never one that
/// points inside the server's own network (no request forgery). An endpoint is `https` on port
/// 443 of a browser maker's push service (``pushServices``: Google's for Chrome, Edge's and most
/// others, Mozilla's, Apple's, Microsoft's) whose every address is public — not loopback, private,
/// link-local, unique-local, multicast, unspecified, nor an IPv6 form of such an IPv4 address.
/// The list of hosts is what keeps a name that resolves to a public address when checked, and to
/// an inside one when called (DNS rebinding), from being any name at all. `allowUnsafe` (the
/// tests' `--unsafe-push-endpoints`) lets any `http` or `https` URL through.
package struct PushEndpointPolicy: Sendable {
    package let allowUnsafe: Bool
    /// Resolves a host name to its addresses (the system's resolver; tests give their own).
    package let resolve: @Sendable (String) -> [String]

    /// The push services' hosts, by the end of their names: what the browsers subscribe with.
    package static let pushServices = [
        "fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com",
    ]

    package init(
        allowUnsafe: Bool = false,
        resolve: @escaping @Sendable (String) -> [String] = PushEndpointPolicy.addresses
    ) {
        (self.allowUnsafe, self.resolve) = (allowUnsafe, resolve)
    }

    /// Why `endpoint` is refused, or nil when the server may call it. The name is resolved off the
    /// server's threads (the system's resolver blocks its caller).
    package func refusal(_ endpoint: String) async -> String? {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { return "The subscription's endpoint is not a URL." }
        if allowUnsafe {
            return ["http", "https"].contains(scheme) ? nil : "The endpoint is not an http or https URL."
        }
        guard scheme == "https" else { return "A push service is reached over https: this endpoint is \(scheme)." }
        let name = host.lowercased()
        guard Self.pushServices.contains(where: { name == $0 || name.hasSuffix("." + $0) }) else {
            return "The endpoint is not a browser's push service (\(Self.pushServices.joined(separator: ", ")))."
        }
        guard url.port == nil || url.port == 443 else { return "A push service is reached on port 443." }
        let resolve = self.resolve
        let addresses = await withCheckedContinuation { (done: CheckedContinuation<[String], Never>) in
            DispatchQueue.global().async { done.resume(returning: resolve(host)) }
        }
        guard !addresses.isEmpty else { return "The push service's name (\(host)) does not resolve." }
        if addresses.contains(where: { !Self.isPublic($0) }) {
            return "The push service's name leads inside a private network: a push service is on the internet."
        }
        return nil
    }

    /// Whether an IPv4 or IPv6 address (as text) is one of the public internet's.
    package static func isPublic(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let bytes = withUnsafeBytes(of: v4.s_addr) { Array($0) }
            let (a, b) = (bytes[0], bytes[1])
            switch a {
            case 0, 10, 127: return false
            case 100 where (64...127).contains(b): return false  // shared address space (RFC 6598)
            case 169 where b == 254: return false
            case 172 where (16...31).contains(b): return false
            case 192 where b == 168: return false
            case 192 where b == 0 && bytes[2] == 0: return false
            case 198 where b == 18 || b == 19: return false
            case 224...255: return false
            default: return true
            }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes.allSatisfy({ $0 == 0 }) { return false }  // ::
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return false }  // ::1
        if bytes[0] == 0xFF { return false }  // multicast
        if bytes[0] & 0xFE == 0xFC { return false }  // unique local fc00::/7
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // link-local fe80::/10
        // An IPv4 address written as IPv6 is judged as its IPv4 one: mapped (::ffff:a.b.c.d),
        // compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
        let embedded = { (at: Int) in "\(bytes[at]).\(bytes[at + 1]).\(bytes[at + 2]).\(bytes[at + 3])" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return isPublic(embedded(12))
        }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return isPublic(embedded(12)) }
        if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B] && bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return isPublic(embedded(12))
        }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return isPublic(embedded(2)) }
        return true
    }

    /// The addresses a host name resolves to, through the system's resolver.
    package static let addresses: @Sendable (String) -> [String] = { host in
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if let address = entry.pointee.ai_addr {
                if entry.pointee.ai_family == AF_INET {
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                        var a = sin.pointee.sin_addr
                        _ = inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
                    }
                } else if entry.pointee.ai_family == AF_INET6 {
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                        var a = sin6.pointee.sin6_addr
                        _ = inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
                    }
                }
            }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.isEmpty { found.append(text) }
            next = entry.pointee.ai_next
        }
        return found
    }
}

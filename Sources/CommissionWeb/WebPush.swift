import Crypto
import Foundation

/// Web Push, as the standards say it, composed from swift-crypto's primitives (nothing of its own):
/// a message encrypted for one subscription (RFC 8291, with the `aes128gcm` content coding of
/// RFC 8188), and the server's VAPID identity that signs each request (RFC 8292, a JWT in ES256).
package enum WebPush {
    /// What a browser's subscription gives the server to encrypt for it: the push service's URL,
    /// the subscription's P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret.
    package struct Subscription: Sendable, Hashable {
        package var endpoint: String
        package var p256dh: [UInt8]
        package var auth: [UInt8]

        package init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) {
            (self.endpoint, self.p256dh, self.auth) = (endpoint, p256dh, auth)
        }

        /// From the keys as the browser's `PushSubscription.toJSON()` writes them (base64url).
        /// - Throws: ``WebPushError/badKeys`` when they are not a P-256 key and a 16-byte secret.
        package init(endpoint: String, p256dh: String, auth: String) throws {
            guard let key = Base64URL.decode(p256dh), let secret = Base64URL.decode(auth), secret.count == 16,
                key.count == 65,
                // try?: a key that is no point of the curve is refused, said by the throw below
                (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
            else { throw WebPushError.badKeys }
            self.init(endpoint: endpoint, p256dh: key, auth: secret)
        }
    }

    /// The record size of the one record a message is (RFC 8188): room for any notification.
    static let recordSize: UInt32 = 4096

    /// `plaintext` encrypted for `subscription` (RFC 8291 §3.4): the body of the push request, its
    /// header the salt, the record size and the sender's ephemeral public key. `ephemeral` and
    /// `salt` are made new for every message unless given (tests give them).
    /// - Throws: ``WebPushError/tooLong`` when the plaintext does not fit one record.
    package static func encrypt(
        _ plaintext: [UInt8],
        for subscription: Subscription,
        ephemeral: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8] = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    ) throws -> [UInt8] {
        // RFC 8291 §4: a push message's body is at most 4096 octets, 86 of them the header's.
        guard plaintext.count <= 3993 else { throw WebPushError.tooLong }
        let userAgent = try P256.KeyAgreement.PublicKey(x963Representation: subscription.p256dh)
        let ours = ephemeral.publicKey.x963Representation
        // The input keying material: the ECDH secret, mixed with the auth secret (§3.3).
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: userAgent)
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscription.p256dh + Array(ours)
        let ikm = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self,
            salt: subscription.auth,
            sharedInfo: keyInfo,
            outputByteCount: 32
        )
        // The content encryption key and nonce (RFC 8188 §2.2, §2.3).
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm,
            salt: salt,
            info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            outputByteCount: 16
        )
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm,
            salt: salt,
            info: Array("Content-Encoding: nonce".utf8) + [0],
            outputByteCount: 12
        )
        // One record, the last: its padding delimiter is 2 (§2).
        let sealed = try AES.GCM.seal(
            plaintext + [2],
            using: cek,
            nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) })
        )
        let size = recordSize
        let header =
            salt + [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(ours.count)] + Array(ours)
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    /// The server's VAPID identity: an ES256 key pair, made once per server and kept in its
    /// database.
    package struct Identity: Sendable, TemplateValues {
        /// The private key's 32 bytes (its stored form: the key type itself is not `Sendable`).
        package let stored: [UInt8]
        /// The public key as the browser's `applicationServerKey` takes it: base64url of its 65 bytes.
        package let publicKey: String

        /// A new identity.
        package init() {
            let key = P256.Signing.PrivateKey()
            (stored, publicKey) = (
                Array(key.rawRepresentation), Base64URL.encode(Array(key.publicKey.x963Representation))
            )
        }

        /// From its stored form (the private key's 32 bytes), or nil when they are no key.
        package init?(stored: [UInt8]) {
            // try?: a stored value that is no key is answered by nil (the caller makes another)
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: stored) else { return nil }
            (self.stored, publicKey) = (stored, Base64URL.encode(Array(key.publicKey.x963Representation)))
        }

        /// The `Authorization` header of a push request to `endpoint` (RFC 8292 §3): a JWT for the
        /// push service's origin, valid until `expires` (at most 24 hours ahead), naming `contact`.
        package func authorization(endpoint: URL, contact: String, expires: Date) throws -> String {
            guard let scheme = endpoint.scheme, let host = endpoint.host else { throw WebPushError.badEndpoint }
            let origin = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
            let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
            let claims = try JSONSerialization.data(
                withJSONObject: ["aud": origin, "exp": Int(expires.timeIntervalSince1970), "sub": contact],
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
            let signed = header + "." + Base64URL.encode(Array(claims))
            let key = try P256.Signing.PrivateKey(rawRepresentation: stored)
            let signature = try key.signature(for: Array(signed.utf8))
            return "vapid t=\(signed).\(Base64URL.encode(Array(signature.rawRepresentation))), k=\(publicKey)"
        }
    }
}

/// What Web Push refuses, each in a sentence.
package enum WebPushError: Error, Sendable, Equatable, CustomStringConvertible {
    case badKeys, tooLong, badEndpoint

    package var description: String {
        switch self {
        case .badKeys: "The subscription's keys are not a P-256 public key and a 16-byte auth secret."
        case .tooLong: "The notification is too long for one push message."
        case .badEndpoint: "The subscription's endpoint is not a push service's URL."
        }
    }
}

/// Base64 with the URL's alphabet and no padding (RFC 4648 §5), as Web Push writes keys.
package enum Base64URL {
    package static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    package static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}

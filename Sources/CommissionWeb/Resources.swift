import Foundation
import Hummingbird
import Mustache

/// The files the web app ships beside its code (`Sources/CommissionWeb/Resources`): page templates,
/// the static files the browser loads, and the OpenAPI document. They are read from the package's
/// resource bundle once per process.
enum Resources {
    /// The bundle's folder of this name.
    static func folder(_ name: String) -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil) else {
            // The folders are part of the build (Package.swift copies them): a missing one is a broken install.
            fatalError("The resource folder \(name) is missing from this build of Commission.")
        }
        return url
    }

    /// Every `.mustache` file of `templates`, compiled. A template that does not parse is a bug the
    /// tests catch (every page is rendered by them), so it stops the server at start rather than at a request.
    static func templates() -> MustacheLibrary {
        var library = MustacheLibrary()
        let directory = folder("templates")
        // A folder that cannot be listed is a broken install too: no template would be there to draw a page.
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            fatalError("The resource folder templates cannot be read: \(error)")
        }
        for file in files where file.pathExtension == "mustache" {
            do {
                try library.register(
                    try String(contentsOf: file, encoding: .utf8),
                    named: file.deletingPathExtension().lastPathComponent
                )
            } catch {
                fatalError("The template \(file.lastPathComponent) cannot be read: \(error)")
            }
        }
        return library
    }
}

/// The static files of `Resources/static`, held in memory (a few kilobytes) with their types and
/// validators: served as they are, cached by the browser and revalidated by their ETag.
struct StaticFiles: Sendable {
    struct File: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
    }

    let files: [String: File]

    static let shared = StaticFiles()

    private init() {
        var files: [String: File] = [:]
        let directory = Resources.folder("static")
        // A folder that cannot be listed is a broken install, as a missing one is (`Resources.folder`).
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            fatalError("The resource folder static cannot be read: \(error)")
        }
        var contents: [String: Data] = [:]
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                continue
            }
            contents[name] = data
        }
        // The service worker names its cache after the other files' digest: a new build is a new shell.
        let version = Self.fingerprint(
            Data(
                contents.filter { $0.key != "sw.js" }.sorted { $0.key < $1.key }
                    .map { "\($0.key)=\(Self.fingerprint($0.value))" }.joined(separator: ";").utf8
            )
        )
        self.version = version
        if let worker = contents["sw.js"] {
            contents["sw.js"] = Data(
                String(decoding: worker, as: UTF8.self).replacingOccurrences(of: "__VERSION__", with: version).utf8
            )
        }
        for (name, data) in contents {
            files[name] = File(
                body: ByteBuffer(bytes: data),
                contentType: Self.contentType(of: name),
                etag: "\"\(Self.fingerprint(data))\""
            )
        }
        self.files = files
    }

    /// A digest of the static files: changes with any of them.
    let version: String

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json", "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    /// FNV-1a of the bytes, as hex: enough to tell two versions of a file apart.
    static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The file as a response: 304 when the browser's copy (`If-None-Match`) is current.
    func response(_ name: String, request: Request, cacheControl: String = "public, max-age=3600") -> Response? {
        guard let file = files[name] else { return nil }
        var headers: HTTPFields = [.contentType: file.contentType, .cacheControl: cacheControl, .eTag: file.etag]
        if request.headers[.ifNoneMatch] == file.etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }
}

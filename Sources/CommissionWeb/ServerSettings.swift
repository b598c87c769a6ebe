import CommissionCore
import Configuration
import Foundation
import Logging
import SystemPackage

/// How `commission serve` runs, read from three places with one precedence: a flag given on the
/// command line, else an environment variable (`COMMISSION_` and the key in capitals, words by
/// `_`: `COMMISSION_SECURE_COOKIES`), else the JSON configuration file (`--config FILE` or
/// `COMMISSION_CONFIG`; its keys as below, `{"port": 8443, "secureCookies": true}`), else the
/// default.
///
/// | key | flag | default |
/// |---|---|---|
/// | `db` | `--db` | the default SQLite book |
/// | `databaseUrl` | `--database` | (none: SQLite) |
/// | `moreDatabases` | `--more-database NAME=URL` (repeated) | (none: every book on `databaseUrl`); a list of `NAME=postgres://…` (in the variable: separated by spaces) |
/// | `host` | `--host` | `127.0.0.1` |
/// | `port` | `--port` | `8080` |
/// | `secureCookies` | `--secure-cookies` / `--no-secure-cookies` | `false` |
/// | `trustForwardedFor` | `--trust-forwarded-for` / `--no-trust-forwarded-for` | `false` |
/// | `logFormat` | `--log-format` | `text` |
/// | `logLevel` | `--log-level` | `info`: a line a request; `notice` or `warning` keep what an operator acts on |
/// | `metricsToken` | `--metrics-token` | (none: no `/metrics`) |
/// | `backupEvery` | `--backup-every` | (none: no scheduled backups) |
/// | `backupKeep` | `--keep` | `14` |
/// | `backupDirectory` | `--backup-directory` | `backups/` beside the SQLite book |
/// | `booksKept` | `--books-kept` | `100` (PostgreSQL: books whose app is kept in memory) |
/// | `releaseBooksAfter` | `--release-books-after` | `10m` (PostgreSQL: a book's app unused this long is released) |
/// | `publicUrl` | `--public-url` | the server's own address (`http://HOST:PORT`): what links it makes lead to |
/// | `maxBodySize` | `--max-body-size` | `8M`: the largest request body (an API import); an uploaded workbook may unpack to 64 times it |
/// | `pushContact` | `--push-contact` | `publicUrl` (or the server's own address): a `mailto:` or `https:` URL the push services may reach whoever runs the server at |
/// | `unsafePushEndpoints` | `--unsafe-push-endpoints` | `false`: for tests only, push endpoints on private addresses and over http are called |
public struct ServerSettings: Sendable, Equatable {
    public var db: String?
    public var databaseUrl: String?
    /// Further PostgreSQL databases the server's books may be on, each `NAME=postgres://…`.
    public var moreDatabases: [String] = []
    public var host = "127.0.0.1"
    public var port = 8080
    public var secureCookies = false
    public var trustForwardedFor = false
    public var logFormat = LogFormat.text
    /// The least severe level written: at `info`, a line a request; at `notice`, what the server
    /// does on its own (a database lost and found, a book moved); at `warning`, what went wrong.
    public var logLevel = Logger.Level.info
    public var metricsToken: String?
    public var backupEvery: String?
    public var backupKeep = 14
    public var backupDirectory: String?
    public var booksKept = 100
    public var releaseBooksAfter = "10m"
    /// The address people reach the server at (behind a proxy: the proxy's), for the links it makes.
    public var publicUrl: String?
    /// The largest request body, in bytes.
    public var maxBodySize = 8 << 20
    /// Who runs the server, for the push services (the VAPID `sub`).
    public var pushContact: String?
    /// Call push endpoints inside the server's network, and over http: tests only.
    public var unsafePushEndpoints = false

    public init() {}

    /// What was given on the command line: nil for each setting not given there.
    public struct Flags: Sendable {
        public var db, databaseUrl, host: String?
        public var moreDatabases: [String]?
        public var port: Int?
        public var secureCookies, trustForwardedFor: Bool?
        public var logFormat, logLevel, metricsToken, backupEvery: String?
        public var backupKeep: Int?
        public var backupDirectory: String?
        public var booksKept: Int?
        public var releaseBooksAfter: String?
        public var publicUrl: String?
        public var maxBodySize: String?
        public var pushContact: String?
        public var unsafePushEndpoints: Bool?
        public init() {}
    }

    /// The settings from the flags, the environment and the file, in that order.
    /// - Throws: ``SettingsError`` for a file that cannot be read or a value of the wrong kind.
    public static func resolve(
        _ flags: Flags,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        file: String? = nil
    ) async throws -> ServerSettings {
        var given: [AbsoluteConfigKey: ConfigValue] = [:]
        func put(_ key: String, _ value: ConfigContent?) {
            if let value { given[AbsoluteConfigKey([key])] = ConfigValue(value, isSecret: key == "metricsToken") }
        }
        put("db", flags.db.map(ConfigContent.string))
        put("databaseUrl", flags.databaseUrl.map(ConfigContent.string))
        put("host", flags.host.map(ConfigContent.string))
        put("port", flags.port.map(ConfigContent.int))
        put("secureCookies", flags.secureCookies.map(ConfigContent.bool))
        put("trustForwardedFor", flags.trustForwardedFor.map(ConfigContent.bool))
        put("logFormat", flags.logFormat.map(ConfigContent.string))
        put("logLevel", flags.logLevel.map(ConfigContent.string))
        put("metricsToken", flags.metricsToken.map(ConfigContent.string))
        put("backupEvery", flags.backupEvery.map(ConfigContent.string))
        put("backupKeep", flags.backupKeep.map(ConfigContent.int))
        put("backupDirectory", flags.backupDirectory.map(ConfigContent.string))
        put("booksKept", flags.booksKept.map(ConfigContent.int))
        put("releaseBooksAfter", flags.releaseBooksAfter.map(ConfigContent.string))
        put("publicUrl", flags.publicUrl.map(ConfigContent.string))
        put("moreDatabases", flags.moreDatabases.flatMap { $0.isEmpty ? nil : ConfigContent.stringArray($0) })
        put("maxBodySize", flags.maxBodySize.map(ConfigContent.string))
        put("pushContact", flags.pushContact.map(ConfigContent.string))
        put("unsafePushEndpoints", flags.unsafePushEndpoints.map(ConfigContent.bool))
        // An empty variable is as good as none.
        let environment = environment.filter { !$0.value.isEmpty }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: given),
            EnvironmentVariablesProvider(
                environmentVariables: environment,
                secretsSpecifier: .specific(["COMMISSION_METRICS_TOKEN"]),
                // COMMISSION_MORE_DATABASES: URLs may hold commas (a primary and its standbys).
                arraySeparator: " "
            )
            .prefixKeys(with: "commission"),
        ]
        if let path = file ?? environment["COMMISSION_CONFIG"] {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SettingsError.unreadable(path, "it does not exist or cannot be read")
            }
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(path)))
            } catch {
                throw SettingsError.unreadable(path, "it is not a JSON object of settings (\(error))")
            }
        }
        let config = ConfigReader(providers: providers)
        // A setting no source has is nil; one of the wrong kind (a port that is no number) is refused.
        // (The library's "missing" error is not public: it is told by its sentence.)
        func value<T>(_ key: String, _ read: (ConfigKey) throws -> T) throws -> T? {
            do {
                return try read(ConfigKey(key))
            } catch  where "\(error)".hasPrefix("Missing required config value") {
                return nil
            } catch {
                throw SettingsError.invalid(key, String("\(error)".trimmingSuffix(".")))
            }
        }
        var settings = ServerSettings()
        settings.db = try value("db") { try config.requiredString(forKey: $0) }
        settings.databaseUrl = try value("databaseUrl") { try config.requiredString(forKey: $0) }
        settings.host = try value("host") { try config.requiredString(forKey: $0) } ?? settings.host
        settings.port = try value("port") { try config.requiredInt(forKey: $0) } ?? settings.port
        settings.secureCookies = try value("secureCookies") { try config.requiredBool(forKey: $0) } ?? false
        settings.trustForwardedFor = try value("trustForwardedFor") { try config.requiredBool(forKey: $0) } ?? false
        settings.metricsToken = try value("metricsToken") { try config.requiredString(forKey: $0, isSecret: true) }
        settings.backupEvery = try value("backupEvery") { try config.requiredString(forKey: $0) }
        settings.backupKeep = try value("backupKeep") { try config.requiredInt(forKey: $0) } ?? settings.backupKeep
        settings.backupDirectory = try value("backupDirectory") { try config.requiredString(forKey: $0) }
        settings.booksKept = try value("booksKept") { try config.requiredInt(forKey: $0) } ?? settings.booksKept
        settings.releaseBooksAfter =
            try value("releaseBooksAfter") { try config.requiredString(forKey: $0) } ?? settings.releaseBooksAfter
        settings.publicUrl = try value("publicUrl") { try config.requiredString(forKey: $0) }
        settings.moreDatabases = try value("moreDatabases") { try config.requiredStringArray(forKey: $0) } ?? []
        settings.pushContact = try value("pushContact") { try config.requiredString(forKey: $0) }
        settings.unsafePushEndpoints =
            try value("unsafePushEndpoints") { try config.requiredBool(forKey: $0) } ?? false
        if let contact = settings.pushContact, !(contact.hasPrefix("mailto:") || contact.hasPrefix("https://")) {
            throw SettingsError.invalid(
                "pushContact",
                "\"\(contact)\" is a mailto: or https: URL (mailto:ops@example.com), how a push service reaches whoever runs the server"
            )
        }
        if let size = try value("maxBodySize", { try config.requiredString(forKey: $0) }) {
            guard let bytes = Self.bytes(size), (64 << 10...1 << 30).contains(bytes) else {
                throw SettingsError.invalid(
                    "maxBodySize",
                    "\"\(size)\" is not a size from 64K to 1G (bytes, or a number and K, M or G)"
                )
            }
            settings.maxBodySize = bytes
        }
        if let url = settings.publicUrl, PublicAddress(url) == nil {
            throw SettingsError.invalid(
                "publicUrl",
                "\"\(url)\" is not an address such as https://commission.example.com (http or https, a host, an optional port, no path)"
            )
        }
        if let format = try value("logFormat", { try config.requiredString(forKey: $0) }) {
            guard let known = LogFormat(rawValue: format) else {
                throw SettingsError.invalid("logFormat", "\"\(format)\" is text or json")
            }
            settings.logFormat = known
        }
        if let level = try value("logLevel", { try config.requiredString(forKey: $0) }) {
            guard let known = Logger.Level(rawValue: level.lowercased()) else {
                throw SettingsError.invalid(
                    "logLevel",
                    "\"\(level)\" is one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                )
            }
            settings.logLevel = known
        }
        guard (1...65_535).contains(settings.port) else {
            throw SettingsError.invalid("port", "\(settings.port) is not a port (1 to 65535)")
        }
        return settings
    }
}

extension ServerSettings {
    /// `8M`, `512K`, `1G`, `65536`: a size in bytes (K, M and G are 1024-fold); nil when it is not one.
    static func bytes(_ text: String) -> Int? {
        var digits = text.trimmingWhitespace().uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits.removeLast(suffix.count)
        }
        let shift =
            switch digits.last {
            case "K": 10
            case "M": 20
            case "G": 30
            default: 0
            }
        if shift > 0 { digits.removeLast() }
        guard let count = Int(digits), count >= 0, count <= Int.max >> shift else { return nil }
        return count << shift
    }
}

/// A setting that cannot be taken.
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String, String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): "Cannot read the configuration file \(path): \(why)."
        case .invalid(let key, let why): "The setting \(key) is not valid: \(why)."
        }
    }
}

extension String {
    /// The text without the given ending.
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}

/// The address people reach the server at — `https://commission.example.com`, `http://10.0.0.5:8080` —
/// from which it writes the links it makes (invitations), never from a request's `Host` header,
/// which the caller chooses.
public struct PublicAddress: Sendable, Equatable {
    /// `scheme://host[:port]`, without a trailing slash.
    public let text: String

    /// Takes an http or https URL with a host and at most a port; a path other than `/`, a query,
    /// a fragment or credentials are refused (nil).
    public init?(_ string: String) {
        guard let components = URLComponents(string: string.trimmingWhitespace()),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil, components.path.isEmpty || components.path == "/"
        else { return nil }
        text = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (components.port.map { ":\($0)" } ?? "")
    }
}

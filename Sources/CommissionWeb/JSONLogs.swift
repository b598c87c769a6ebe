import Foundation
import Logging
import Synchronization

/// Log lines as JSON, one object a line, for a log collector (`serve --log-format json`): the
/// time (ISO 8601, UTC, milliseconds), the level, the logger's label, the message, the request's id
/// (`request`, on every line written while answering a request) and any other metadata, as text.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let write: @Sendable (String) -> Void

    /// `write` receives each line, its newline included (standard error by default).
    public init(label: String, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key == "hb.request.id" ? "request" : key] = "\(value)"
        }
        if let error = event.error { fields["error"] = String(describing: error) }
        fields["time"] = Self.time(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        write(Self.line(fields))
    }

    static func line(_ fields: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    static func time(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true).timeSeparator(.colon)
            .timeZone(separator: .omitted))
    }
}

/// How the server writes its log.
public enum LogFormat: String, Sendable, CaseIterable {
    /// A line of text each, for a person at a terminal.
    case text
    /// A JSON object each (``JSONLogHandler``), for a log collector.
    case json

    /// Sets every logger of the process to this format (once, before any logger is made).
    public func bootstrap(level: Logger.Level = .info) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}

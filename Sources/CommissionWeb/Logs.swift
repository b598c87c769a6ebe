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
    public init(
        label: String,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
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
        // try?: a dictionary of strings: encoding it cannot throw
        return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    static func time(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true).timeSeparator(
                .colon
            )
            .timeZone(separator: .omitted)
        )
    }
}

/// Log lines as text, for a person at a terminal (`serve`'s default): swift-log's
/// `StreamLogHandler` lines to standard error, word for word, with the logger's metadata formatted
/// when a line is written rather than each time a key is set. `StreamLogHandler` formats them at
/// every set, and Hummingbird sets a request id on every request's logger: that cost each request
/// some microseconds (about 2% of a sale's CPU), nearly always for a line below the level written.
/// (So a value given as `.stringConvertible` is described when the line is written.)
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// What writes the line: it is given the line's whole metadata, and holds none of its own.
    private var stream: StreamLogHandler

    public init(label: String) {
        stream = StreamLogHandler.standardError(label: label, metadataProvider: nil)
        metadataProvider = LoggingSystem.metadataProvider
    }

    /// For the tests: the lines written to `stream`.
    package init(
        label: String,
        stream: any TextOutputStream & Sendable,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.stream = StreamLogHandler(label: label, stream: stream, metadataProvider: nil)
        self.metadataProvider = metadataProvider
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // As StreamLogHandler merges them: the logger's, then the provider's, then the line's own.
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        var event = event
        event.metadata = merged.isEmpty ? nil : merged
        stream.log(event: event)
    }
}

/// How the server writes its log.
public enum LogFormat: String, Sendable, CaseIterable {
    /// A line of text each (``TextLogHandler``), for a person at a terminal.
    case text
    /// A JSON object each (``JSONLogHandler``), for a log collector.
    case json

    /// Sets every logger of the process to this format (once, before any logger is made).
    public func bootstrap(level: Logger.Level = .info) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = TextLogHandler(label: label)
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

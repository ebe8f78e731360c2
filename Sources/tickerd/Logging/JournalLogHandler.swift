import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes structured entries to the systemd journal with `sd_journal_sendv`.
///
/// Each entry carries `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, the `CODE_FILE`/`CODE_LINE`/
/// `CODE_FUNC` of the log call, and every metadata key as an upper-cased journal field
/// (`channel` → `TICKER_CHANNEL`), so `journalctl TICKER_CHANNEL=main` finds a channel's story.
struct JournalLogHandler: LogHandler {
    /// Log entries below this level are dropped.
    var logLevel: Logger.Level = .info
    /// Metadata attached to every entry from this handler.
    var metadata: Logger.Metadata = [:]

    private let identifier: String

    /// A handler whose entries are tagged with `identifier` as `SYSLOG_IDENTIFIER`.
    init(identifier: String) {
        self.identifier = identifier
    }

    /// Whether the journal's socket is there to receive entries.
    static var isAvailable: Bool {
        access("/run/systemd/journal/socket", W_OK) == 0
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = JournalFields.make(
            identifier: identifier, event: event, handlerMetadata: metadata)
        JournalFields.send(fields)
    }
}

/// Building and sending the `FIELD=value` pairs of one journal entry.
enum JournalFields {
    /// The fields of one entry, in journal order (MESSAGE first).
    static func make(identifier: String, event: LogEvent, handlerMetadata: Logger.Metadata) -> [String] {
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(syslogPriority(event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
        ]
        var merged = handlerMetadata
        if let extra = event.metadata {
            merged.merge(extra) { _, new in new }
        }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append("\(fieldName(key))=\(value)")
        }
        return fields
    }

    /// `channel` → `TICKER_CHANNEL`: journal field names are upper-case letters, digits and `_`.
    static func fieldName(_ key: String) -> String {
        let cleaned = key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return "TICKER_" + String(cleaned)
    }

    /// swift-log levels mapped onto syslog priorities (journal `PRIORITY=`).
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Hands the fields to `sd_journal_sendv`; failures are ignored as the journal is best effort.
    static func send(_ fields: [String]) {
        // Each field is copied into C memory that lives until the call returns.
        let copies = fields.compactMap { strdup($0) }
        defer { copies.forEach { free($0) } }
        let vectors = copies.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0)) }
        _ = vectors.withUnsafeBufferPointer { buffer in
            sd_journal_sendv(buffer.baseAddress, Int32(buffer.count))
        }
    }
}

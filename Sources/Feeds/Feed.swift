import Foundation
import TickerModel

/// A parsed feed: RSS 2.0 (and RSS 0.9x/1.0), Atom 1.0 or JSON Feed 1.0/1.1.
public struct Feed: Sendable, Equatable {
    /// Which format a feed was in.
    public enum Format: String, Sendable {
        case rss, atom, jsonFeed
    }

    /// The format the document was in.
    public let format: Format
    /// The feed's title as plain text ("" when it has none).
    public let title: String
    /// The entries, in document order.
    public let items: [FeedItem]

    /// A feed with every field given.
    public init(format: Format, title: String, items: [FeedItem]) {
        self.format = format
        self.title = title
        self.items = items
    }

    /// Parses `data`, a feed fetched from `baseURL` (relative links are resolved against it).
    /// A JSON document is read as JSON Feed (UTF-8), anything else as XML in the encoding that
    /// its byte order mark, else `charset` (the HTTP Content-Type's), else its XML declaration
    /// names (see ``FeedCharset``). Throws `FeedParseError` naming what was wrong; never traps
    /// on any input.
    public init(parsing data: Data, baseURL: URL? = nil, charset: String? = nil) throws(FeedParseError) {
        let first = data.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if first == UInt8(ascii: "{") {
            self = try JSONFeedReader.read(data, baseURL: baseURL)
        } else {
            self = try XMLFeedReader.read(try FeedCharset.utf8Document(data, charset: charset), baseURL: baseURL)
        }
    }

    /// The newest `count` items with distinct keys: dated items newest first (document order
    /// among equal dates), then undated ones in document order; of items with the same key (a
    /// feed that repeats a GUID) only the first in that order counts.
    public func newest(_ count: Int) -> [FeedItem] {
        let dated = items.enumerated().filter { $0.element.date != nil }
            .sorted { ($0.element.date!, -$0.offset) > ($1.element.date!, -$1.offset) }
            .map(\.element)
        let undated = items.filter { $0.date == nil }
        var seen: Set<String> = []
        var newest: [FeedItem] = []
        for item in dated + undated where newest.count < count && seen.insert(item.key).inserted {
            newest.append(item)
        }
        return newest
    }
}

/// Why a feed could not be read, in words a log line can carry after the source's name.
public struct FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

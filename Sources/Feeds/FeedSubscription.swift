import Foundation
import SourceFetch
import TickerModel

/// The state of one subscribed feed between fetches: the last good items, the validators for
/// the next conditional GET, and when the feed was last read successfully.
///
/// A failed fetch or a document that does not parse changes nothing but the log: the last good
/// items stay until `ttl` after the last success, so a broken or unreachable feed fades out
/// rather than blinking away.
public struct FeedSubscription: Sendable {
    /// The feed's address (relative links resolve against where it led after redirects).
    public let url: URL
    /// How long items stay after the last successful fetch or 304.
    public let ttl: Int64
    /// The validators to send with the next request.
    public private(set) var validators = HTTPValidators()
    /// The items of the last document that parsed.
    public private(set) var items: [FeedItem] = []
    /// The feed's title in the last document that parsed ("" before one did).
    public private(set) var title = ""
    /// When the feed was last fetched and parsed, or answered 304; nil before the first success.
    public private(set) var lastGood: Instant?

    /// A subscription to `url` whose items stay `ttl` microseconds after the last success.
    public init(url: URL, ttl: Int64) {
        self.url = url
        self.ttl = ttl
    }

    /// What to keep across a restart: nil before the first success.
    public var saved: SavedFeed? {
        guard let lastGood else { return nil }
        return SavedFeed(
            url: url.absoluteString, lastGood: lastGood, title: title,
            entries: items.map { SavedFeed.Entry(id: $0.id, title: $0.title, link: $0.link, date: $0.date) },
            etag: validators.etag, lastModified: validators.lastModified)
    }

    /// Takes up `saved` (what an earlier run kept) when it is of this subscription's URL and
    /// nothing has been read yet; returns whether it did. Its items then stay until `ttl` after
    /// its last success, as if the service had not restarted, and the next request is
    /// conditional on its validators.
    @discardableResult
    public mutating func restore(_ saved: SavedFeed) -> Bool {
        guard lastGood == nil, saved.url == url.absoluteString else { return false }
        items = saved.entries.map { FeedItem(id: $0.id, title: $0.title, link: $0.link, date: $0.date) }
        title = saved.title
        validators = HTTPValidators(etag: saved.etag, lastModified: saved.lastModified)
        lastGood = saved.lastGood
        return true
    }

    /// Takes in one fetch's result at `now`. Returns nil when all is well, else the reason
    /// (the HTTP or transport error, or what was wrong with the document) for the log.
    public mutating func record(_ result: Result<HTTPFetchOutcome, HTTPFetchError>, at now: Instant) -> String? {
        switch result {
        case .success(.notModified):
            lastGood = now
            return nil
        case let .success(.modified(data, newValidators, charset, location)):
            do {
                // Relative links resolve against where the feed was found after redirects
                // (a blog that moved its feed), as feedparser does.
                let feed = try Feed(parsing: data, baseURL: location, charset: charset)
                items = feed.items
                title = feed.title
                validators = newValidators
                lastGood = now
                return nil
            } catch {
                return "\(url.absoluteString): \(error.message); keeping the last good items"
            }
        case let .failure(error):
            return "\(error.message); keeping the last good items"
        }
    }

    /// The newest `count` of the last good items while they are within `ttl` of the last
    /// success at `now`, else none.
    public func current(at now: Instant, count: Int) -> [FeedItem] {
        guard let lastGood, now < lastGood + ttl else { return [] }
        return Feed(format: .rss, title: "", items: items).newest(count)
    }
}

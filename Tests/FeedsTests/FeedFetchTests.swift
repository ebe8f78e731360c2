import Foundation
import Testing
import TestSupport
@testable import Feeds
import SourceFetch

/// Conditional GETs against a real local HTTP server, and what a subscription keeps when the
/// feed answers 304, breaks or goes away.
@Suite struct FeedFetchTests {
    @Test func a304KeepsTheItemsAndABrokenOrUnreachableFeedKeepsThemUntilTheirTTL() async throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-feeds")
        defer { folder.remove() }
        let path = folder.file("feed.xml")
        try Data(contentsOf: URL(fileURLWithPath: FeedServer.fixtures + "/news-rss2.xml")).write(to: URL(fileURLWithPath: path))
        let server = try FeedServer(serving: folder.path)
        var stopped = false
        defer { if !stopped { server.stop() } }
        let url = server.url("feed.xml")
        let fetcher = try ConditionalFetcher(url: url, timeout: 10)
        let ttl: Int64 = 3_600_000_000
        var subscription = FeedSubscription(url: url, ttl: ttl)

        // First fetch: unconditional, 200, six items with links.
        #expect(subscription.record(await Self.fetch(fetcher, subscription.validators), at: 1_000) == nil)
        #expect(subscription.items.count == 6)
        #expect(subscription.current(at: 2_000, count: 3).map(\.title)
                == ["Breaking: storm warning for the coast", "Council votes “yes” on the new bridge",
                    "Prices up 5% — \"R&D\" spending explained"])
        let etag = try #require(subscription.validators.etag)
        #expect(subscription.validators.lastModified != nil)
        #expect(server.waitForRequests(1).last?.hasSuffix("if-none-match=None if-modified-since=None -> 200") == true)

        // Second: conditional on the ETag; the server answers 304 and the items stay.
        let second = await Self.fetch(fetcher, subscription.validators)
        #expect(second == .success(.notModified))
        #expect(subscription.record(second, at: 5_000) == nil)
        #expect(subscription.lastGood == 5_000)
        #expect(subscription.items.count == 6)
        #expect(server.waitForRequests(2).last?.contains("if-none-match=\(etag)") == true)
        #expect(server.requests.last?.hasSuffix("-> 304") == true)

        // If-Modified-Since alone is honoured too.
        let byDate = await Self.fetch(fetcher, HTTPValidators(lastModified: subscription.validators.lastModified))
        #expect(byDate == .success(.notModified))
        #expect(server.waitForRequests(3).last?.contains("if-none-match=None if-modified-since=") == true)

        // The feed breaks: the error names the feed and what is wrong; the items stay.
        try Data("<rss version=\"2.0\"><channel><item><title>cut off".utf8).write(to: URL(fileURLWithPath: path))
        let broken = subscription.record(await Self.fetch(fetcher, subscription.validators), at: 9_000)
        let brokenMessage = try #require(broken)
        #expect(brokenMessage.contains(url.absoluteString) && brokenMessage.contains("not well-formed XML"), "\(brokenMessage)")
        #expect(subscription.items.count == 6)
        #expect(subscription.lastGood == 5_000)

        // The server goes away: the error says so; the items stay until TTL after the last success.
        server.stop()
        stopped = true
        let gone = subscription.record(await Self.fetch(fetcher, subscription.validators), at: 12_000)
        let goneMessage = try #require(gone)
        #expect(goneMessage.contains("cannot fetch \(url.absoluteString)"), "\(goneMessage)")
        #expect(subscription.current(at: 5_000 + ttl - 1, count: 10).count == 6)
        #expect(subscription.current(at: 5_000 + ttl, count: 10).isEmpty)
    }

    @Test func whatASubscriptionSavesCarriesItsItemsAndValidatorsAcrossARestart() async throws {
        let server = try FeedServer(serving: FeedServer.fixtures)
        defer { server.stop() }
        let url = server.url("news-rss2.xml")
        let fetcher = try ConditionalFetcher(url: url, timeout: 10)
        let ttl: Int64 = 60_000_000
        var first = FeedSubscription(url: url, ttl: ttl)
        #expect(first.saved == nil)
        #expect(first.record(await Self.fetch(fetcher, first.validators), at: 1_000) == nil)
        let saved = try JSONDecoder().decode(SavedFeed.self, from: try JSONEncoder().encode(try #require(first.saved)))

        // The next run takes it up: the same items, until ttl after the earlier success, and
        // its first request is conditional (answered 304).
        var next = FeedSubscription(url: url, ttl: ttl)
        let restored = next.restore(saved)
        #expect(restored)
        #expect(next.items == first.items && next.title == first.title && next.lastGood == 1_000)
        #expect(next.current(at: 1_000 + ttl - 1, count: 3) == first.current(at: 2_000, count: 3))
        #expect(next.current(at: 1_000 + ttl, count: 3).isEmpty)
        #expect(await Self.fetch(fetcher, next.validators) == .success(.notModified))

        // Another feed's state, or one taken after a success of its own, is not taken.
        var other = FeedSubscription(url: server.url("blog-atom.xml"), ttl: ttl)
        let takenByOther = other.restore(saved)
        let takenTwice = next.restore(saved)
        #expect(!takenByOther && other.items.isEmpty)
        #expect(!takenTwice)
    }

    static func fetch(_ fetcher: ConditionalFetcher, _ validators: HTTPValidators) async -> Result<HTTPFetchOutcome, HTTPFetchError> {
        do {
            return .success(try await fetcher.fetch(with: validators))
        } catch {
            return .failure(error)
        }
    }

    @Test func onlyHTTPURLsAreFetched() {
        #expect(throws: HTTPFetchError.self) { try ConditionalFetcher(url: URL(fileURLWithPath: "/etc/passwd")) }
    }
}

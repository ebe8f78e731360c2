import DBus
import Feeds
import Foundation
import SourceFetch
import TOMLConfig
import TickerModel

/// The newest entries of an RSS, Atom or JSON Feed as messages, each with its link, published
/// newest first (dated entries by their instant, then undated ones in the feed's order).
///
/// Guarantees: the feed is fetched every `interval` with If-None-Match / If-Modified-Since; a
/// 304 keeps the items. A fetch that fails or a document that does not parse is logged (naming
/// the source, the URL and what was wrong) and the last good items stay until `ttl` after the
/// last success; each item's message expires by itself then. A fetch that brings the same items
/// changes no message: only their expiry moves, which the lease manager carries into the next
/// renewal without any call of its own. The last good items, their last success and the
/// validators are saved in the context's state store after each success, and a restarted
/// service takes them up again: its items stay until `ttl` after the last success of the
/// earlier run even when the feed cannot be reached.
public final class FeedSource: ItemSource {
    /// The feed's URL.
    public let url: URL
    /// How many entries are shown (the newest).
    public let count: Int
    /// How often the feed is fetched (microseconds).
    public let interval: Int64

    private var subscription: FeedSubscription
    private var context: SourceContext?
    private var timer: LoopTimer?
    private var published: [SourceItem]?
    private var lastProblem: String?
    private var saved: SavedState<SavedFeed>?
    private var fetching = false
    private var stopped = false

    /// A source for `url` showing its newest `count` entries, kept `ttl` after the last success.
    public init(url: URL, count: Int = 5, interval: Int64 = 900_000_000, ttl: Int64 = 3_600_000_000) {
        self.url = url
        self.count = count
        self.interval = interval
        subscription = FeedSubscription(url: url, ttl: ttl)
    }

    /// The `feed` kind: keys `url`, `count`, `interval`, `ttl`; fields `{title}`, `{feed}`.
    public static let kind = SourceKind(
        name: "feed", fields: ["title", "feed"], keys: ["url", "count", "interval", "ttl"],
        needsNetwork: { _ in true }
    ) { table throws(ConfigError) in
        guard let text = try table.string("url") else { throw table.error(nil, "missing key 'url' (the feed's http(s) URL)") }
        guard let url = URL(string: text), (try? ConditionalFetcher(url: url)) != nil else {
            throw table.error("url", "must be an http:// or https:// URL")
        }
        let count = try table.int("count") ?? 5
        guard (1...100).contains(count) else { throw table.error("count", "must be 1 to 100") }
        let interval = try SourcesConfigLoader.timeSpan(table, "interval") ?? 900_000_000
        if interval < 1_000_000 { throw table.error("interval", "must be at least 1s") }
        let ttl = try SourcesConfigLoader.timeSpan(table, "ttl") ?? max(3_600_000_000, 2 * interval)
        if ttl < interval { throw table.error("ttl", "must be at least the interval") }
        return FeedSource(url: url, count: count, interval: interval, ttl: ttl)
    }

    public func start(_ context: SourceContext) throws {
        self.context = context
        timer = context.loop.makeTimer { [weak self] in self?.tick() }
        // What an earlier run saved is shown until its ttl, fetch or no fetch. Without it,
        // nothing is published before the first fetch has answered: messages adopted from an
        // earlier run (or kept through a reload) stay until then, instead of blinking away.
        restoreSaved(context)
        tick()
    }

    private func restoreSaved(_ context: SourceContext) {
        let file = SavedState<SavedFeed>(SourceStateStore.fileName(kind: Self.kind.name, source: context.name), in: context.state, holding: "the feed's items", logger: context.logger)
        saved = file
        let now = LeaseManager.now()
        guard let last = file.load(), last.lastGood + subscription.ttl > now, subscription.restore(last) else { return }
        show(at: now)
    }

    private func save() {
        guard let state = subscription.saved else { return }
        saved?.save(state)
    }

    public func stop() {
        stopped = true
        timer?.cancel()
    }

    private func tick() {
        guard let context, !stopped, !fetching else { return }
        fetching = true
        let fetcher: ConditionalFetcher
        do { fetcher = try ConditionalFetcher(url: url) } catch { return }
        let bound = LoopBound(self, loop: context.loop)
        let validators = subscription.validators
        Task {
            let result: Result<HTTPFetchOutcome, HTTPFetchError>
            do { result = .success(try await fetcher.fetch(with: validators)) } catch let error as HTTPFetchError { result = .failure(error) } catch { result = .failure(HTTPFetchError("\(error)")) }
            bound.loop.execute { bound.value.fetched(result) }
        }
    }

    private func fetched(_ result: Result<HTTPFetchOutcome, HTTPFetchError>) {
        fetching = false
        guard !stopped else { return }
        let now = LeaseManager.now()
        if let problem = subscription.record(result, at: now) {
            if problem != lastProblem { context?.logger.error("\(problem)") }
            lastProblem = problem
        } else {
            lastProblem = nil
            save()
        }
        show(at: now)
        var next = now + interval
        if let lastGood = subscription.lastGood, lastGood + subscription.ttl > now { next = min(next, lastGood + subscription.ttl) }
        timer?.schedule(at: .after(.microseconds(max(1_000_000, next - now))))
    }

    private func show(at now: Int64) {
        let expires = subscription.lastGood.map { $0 + subscription.ttl }
        let items = subscription.current(at: now, count: count).map { entry in
            SourceItem(key: entry.key, fields: ["title": entry.title, "feed": subscription.title],
                       link: entry.link.flatMap { LinkURI.problem($0) == nil ? $0 : nil }, expires: expires)
        }
        guard items != published else { return }
        published = items
        context?.publish(items)
    }
}

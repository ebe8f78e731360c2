import Foundation
import Testing
import TestSupport
@testable import Feeds
import SourceFetch

/// The feeds in Tests/Fixtures/feeds, fetched from a local HTTP server, read the same by the
/// Feeds library as by feedparser (RSS 2.0, Atom 1.0) and jsonfeed-util (JSON Feed 1.1): ids,
/// plain-text titles (entities, CDATA, HTML in titles), links (relative ones resolved against
/// xml:base and the feed's address), dates (RFC 822 with zone names, RFC 3339, missing ones),
/// namespaced elements ignored or used (dc:date), and documents in ISO-8859-1 and Windows-1252
/// (named by the XML declaration or by the HTTP charset), a feed behind a redirect (links
/// relative to where it was found), items without a title (shown by their description), and
/// the shapes real feeds have (Tests/Fixtures/feeds/messy-*, encodings that contradict each
/// other, UTF-16, escaped JSON).
@Suite struct FeedComparisonTests {
    static let feeds = [
        "news-rss2.xml", "blog-atom.xml", "microblog.json",
        // Other encodings: declared ISO-8859-1, declared Windows-1252, and ISO-8859-1 named by
        // the HTTP charset only.
        "latin1-rss2.xml", "cp1252-atom.xml", "http-charset-rss2.xml",
        // Moved: a 301 to archive/2026/moved-rss2.xml, whose relative links resolve there.
        "moved-rss2.xml",
        // A microblog's posts (Mastodon): items without a title, shown by their description.
        "microblog-rss2.xml",
        // Titles as real feeds write them: entities escaped twice, numeric ones, HTML's named
        // ones undeclared in XML, bare ampersands, CDATA, markup as elements, lines and tabs,
        // right-to-left text, emoji.
        "messy-entities-rss2.xml",
        // Encodings that contradict each other: a UTF-8 byte order mark before a declaration of
        // ISO-8859-1; a server that says UTF-8 for an ISO-8859-1 feed, and one that says
        // ISO-8859-1 for a UTF-8 feed.
        "bom-latin-decl-rss2.xml", "http-utf8-latin1-rss2.xml", "http-latin1-utf8-rss2.xml",
        // UTF-16 with its mark; an entry with only a summary, a title of type text with a '<'.
        "utf16-atom.xml",
        // JSON Feed with escaped characters (a surrogate pair, right-to-left) and no title.
        "unicode-escapes.json",
        // Blank lines before the XML declaration (a blog engine's template).
        "leading-space-rss2.xml",
    ]

    /// The fixtures feedparser calls malformed (bozo) and reads all the same, as this code must:
    /// undeclared entities and bare ampersands; a charset the document overrides; white space
    /// before the XML declaration.
    static let messy: Set<String> = ["messy-entities-rss2.xml", "http-utf8-latin1-rss2.xml", "leading-space-rss2.xml"]

    struct Row: Hashable, CustomStringConvertible {
        let feed: String
        let index: Int
        let id: String?
        let title: String
        let link: String?
        let date: Int64?
        var description: String {
            "\(feed)#\(index) id=\(id ?? "nil") title='\(title)' link=\(link ?? "nil") date=\(date.map(String.init) ?? "nil")"
        }
    }

    @Test func itemsAgreeWithFeedparser() async throws {
        let server = try FeedServer(serving: FeedServer.fixtures)
        defer { server.stop() }
        let urls = Self.feeds.map { server.url($0) }
        let output = try ChildProcess.run(try PythonVenv.python(), [FeedServer.fixtures + "/parse.py"] + urls.map(\.absoluteString),
                                          timeout: .seconds(120))
        #expect(output.status == 0, "parse.py failed: \(output.stderr)")
        let malformed = output.stderr.split(separator: "\n").filter { line in
            line.hasPrefix("bozo") && !Self.messy.contains { line.contains("/\($0):") }
        }
        #expect(malformed.isEmpty, "feedparser found the fixtures malformed: \(output.stderr)")
        var reference: [Row] = []
        for line in output.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let url = try #require(object["url"] as? String)
            reference.append(Row(feed: String(url.split(separator: "/").last ?? ""), index: try #require(object["index"] as? Int),
                                 id: object["id"] as? String, title: object["title"] as? String ?? "",
                                 link: object["link"] as? String, date: (object["date"] as? Int).map(Int64.init)))
        }

        var ours: [Row] = []
        for url in urls {
            // Read as the feed source reads it: fetched, then taken in by a subscription.
            let outcome = try await ConditionalFetcher(url: url).fetch(with: HTTPValidators())
            var subscription = FeedSubscription(url: url, ttl: 3_600_000_000)
            let problem = subscription.record(.success(outcome), at: 0)
            #expect(problem == nil, "\(url): \(problem ?? "")")
            for (index, item) in subscription.items.enumerated() {
                ours.append(Row(feed: url.lastPathComponent, index: index, id: item.id, title: item.title,
                                link: item.link, date: item.date.map { $0 / 1_000_000 }))
            }
        }
        #expect(ours.count == reference.count, "we read \(ours.count) items, the reference \(reference.count)")
        #expect(reference.count >= 42)
        for (mine, theirs) in zip(ours, reference) {
            // feedparser takes an entry's id as its link when it has no link (and calls that a
            // guess: guidislink); without a link we give none.
            let link = mine.link == nil && theirs.link == theirs.id ? nil : theirs.link
            let expected = Row(feed: theirs.feed, index: theirs.index, id: theirs.id, title: theirs.title, link: link,
                               date: theirs.date)
            #expect(mine == expected, "\nours:      \(mine)\nreference: \(theirs)")
        }
    }
}

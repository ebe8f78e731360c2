import Foundation

/// Reads RSS (2.0, 0.9x, and 1.0/RDF) and Atom 1.0 from an XML tree.
enum XMLFeedReader {
    static let atom = "http://www.w3.org/2005/Atom"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The feed in `data`, or an error saying what the document is instead.
    static func read(_ data: Data, baseURL: URL?) throws(FeedParseError) -> Feed {
        if looksLikeHTML(data) {
            // Most HTML is not well-formed XML: say what it is rather than where XML broke.
            throw FeedParseError("not a feed: the root element is <html> (an HTML page: an error or login page, or a site's page instead of its feed)")
        }
        let root = try XMLTreeBuilder.parse(data)
        switch (root.name, root.namespace) {
        case ("feed", atom):
            return readAtom(root, baseURL: baseURL)
        case ("rss", _):
            guard let channel = root.child("channel") else { throw FeedParseError("<rss> without <channel>") }
            return readRSS(channel: channel, items: channel.children("item"), baseURL: baseURL)
        case ("RDF", rdf):
            guard let channel = root.child("channel") else { throw FeedParseError("RSS 1.0 without <channel>") }
            return readRSS(channel: channel, items: root.children("item"), baseURL: baseURL)
        default:
            throw FeedParseError("not a feed: the root element is <\(root.name)>"
                + (root.namespace.isEmpty ? "" : " in \(root.namespace)"))
        }
    }

    /// Whether `data` starts (after white space) with an HTML doctype or `<html`.
    static func looksLikeHTML(_ data: Data) -> Bool {
        let start = data.prefix(512).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let head = String(decoding: start.prefix(14), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    private static func readRSS(channel: FeedXMLNode, items: [FeedXMLNode], baseURL: URL?) -> Feed {
        let entries = items.map { item -> FeedItem in
            let guid = item.child("guid")
            let id = guid.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
            var link = item.child("link").map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
                .flatMap { $0.isEmpty ? nil : item.resolve($0, against: baseURL) }
            if link == nil, let guid, let id, guid.attributes["isPermaLink"]?.lowercased() != "false",
               id.hasPrefix("http://") || id.hasPrefix("https://") {
                link = id
            }
            let dateText = item.child("pubDate")?.text ?? item.child("date", in: dublinCore)?.text
            // An item without a title (a Mastodon post, a microblog) is its description, as
            // RSS 2.0 allows ("all elements of an item are optional … at least one of title or
            // description must be present") and feedparser's users read it.
            // A title with markup written as elements rather than escaped (`<title>Hello
            // <b>bold</b> world</title>`) keeps the elements' text, as feedparser's does.
            var title = PlainText.fromHTML(item.child("title")?.allText ?? "")
            if title.isEmpty { title = PlainText.fromHTML(item.child("description")?.allText ?? "") }
            return FeedItem(id: id, title: title, link: link, date: dateText.flatMap(FeedDate.parse))
        }
        return Feed(format: .rss, title: PlainText.fromHTML(channel.child("title")?.allText ?? ""), items: entries)
    }

    private static func readAtom(_ feed: FeedXMLNode, baseURL: URL?) -> Feed {
        let entries = feed.children("entry", in: atom).map { entry -> FeedItem in
            let links = entry.children("link", in: atom)
            let alternate = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" && $0.attributes["type"] == "text/html" }
                ?? links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" }
            let link = alternate.flatMap { element in element.attributes["href"].map { element.resolve($0, against: baseURL) } }
            let id = entry.child("id", in: atom)?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let dateText = entry.child("published", in: atom)?.text ?? entry.child("updated", in: atom)?.text
            var title = atomText(entry.child("title", in: atom))
            if title.isEmpty { title = atomText(entry.child("summary", in: atom) ?? entry.child("content", in: atom)) }
            return FeedItem(id: id.flatMap { $0.isEmpty ? nil : $0 }, title: title, link: link,
                            date: dateText.flatMap(FeedDate.parse))
        }
        return Feed(format: .atom, title: atomText(feed.child("title", in: atom)), items: entries)
    }

    /// An Atom text construct as plain text: `type="html"` is HTML, `xhtml` is markup, else text.
    private static func atomText(_ element: FeedXMLNode?) -> String {
        guard let element else { return "" }
        switch element.attributes["type"] {
        case "html": return PlainText.fromHTML(element.text)
        case "xhtml": return PlainText.collapse(element.allText)
        default: return PlainText.collapse(element.text)
        }
    }
}

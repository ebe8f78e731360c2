import Feeds
import Foundation

/// RSS, Atom and JSON Feed documents (the `Feeds` parsers). Properties: parsing never traps; a
/// document that parses gives titles with no white space at either end, and `newest(3)` returns
/// min(3, distinct keys) items of distinct keys, the dated ones newest first (a feed may repeat
/// an entry's id; it is shown once).
enum FeedTarget {
    static let base = URL(string: "https://feeds.example.org/dir/feed.xml")!

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 4096 else { return }
        guard let feed = try? Feed(parsing: Data(input.bytes), baseURL: base) else { return }
        for item in feed.items {
            require(item.title == item.title.trimmingCharacters(in: .whitespacesAndNewlines),
                    "title '\(item.title)' has white space at an end")
        }
        let newest = feed.newest(3)
        let keys = Set(feed.items.map(\.key)).count
        require(newest.count == min(3, keys), "newest(3) gave \(newest.count) of \(keys) distinct keys")
        require(Set(newest.map(\.key)).count == newest.count, "newest(3) repeats a key: \(newest.map(\.key))")
        let dated = newest.compactMap(\.date)
        require(dated == dated.sorted(by: >), "newest items not newest first: \(dated)")
    }
}

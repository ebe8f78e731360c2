import Foundation

/// Reads JSON Feed 1.0 and 1.1 (https://www.jsonfeed.org/version/1.1/).
enum JSONFeedReader {
    private struct Document: Decodable {
        let version: String?
        let title: String?
        let items: [Item]?
    }

    private struct Item: Decodable {
        let id: ID?
        let url: String?
        let external_url: String?
        let title: String?
        let content_text: String?
        let content_html: String?
        let date_published: String?
        let date_modified: String?
    }

    /// JSON Feed says `id` is a string, but feeds write numbers too.
    private struct ID: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let number = try? container.decode(Int64.self) {
                text = String(number)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }

    /// The feed in `data`, or an error naming what JSONDecoder found wrong.
    static func read(_ data: Data, baseURL: URL?) throws(FeedParseError) -> Feed {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw FeedParseError("not valid JSON: \(context.debugDescription)")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw FeedParseError("JSON Feed field \(path.isEmpty ? "(root)" : path): \(context.debugDescription)")
        } catch {
            throw FeedParseError("not a JSON Feed: \(error)")
        }
        guard let version = document.version, version.hasPrefix("https://jsonfeed.org/version/") else {
            throw FeedParseError("not a JSON Feed: no \"version\": \"https://jsonfeed.org/version/1.1\"")
        }
        let items = (document.items ?? []).map { item -> FeedItem in
            let link = (item.url ?? item.external_url).map { url in
                URL(string: url, relativeTo: baseURL)?.absoluteString ?? url
            }
            let title = item.title.map(PlainText.collapse)
                ?? item.content_text.map(PlainText.collapse)
                ?? item.content_html.map(PlainText.fromHTML) ?? ""
            return FeedItem(id: item.id?.text, title: title, link: link,
                            date: (item.date_published ?? item.date_modified).flatMap(FeedDate.parse))
        }
        return Feed(format: .jsonFeed, title: PlainText.collapse(document.title ?? ""), items: items)
    }
}

/// Turns a feed's text or HTML into the plain text a ticker shows.
enum PlainText {
    /// `html` without tags and comments (block tags leave a space), its character references
    /// decoded, white space collapsed.
    static func fromHTML(_ html: String) -> String {
        var text = ""
        var index = html.startIndex
        while index < html.endIndex {
            let c = html[index]
            if c == "<" {
                let next = html.index(after: index)
                if next < html.endIndex, html[next].isLetter || html[next] == "/" || html[next] == "!" || html[next] == "?" {
                    let closing: String = html[next...].hasPrefix("!--") ? "-->" : ">"
                    if let end = html.range(of: closing, range: next..<html.endIndex) {
                        let tag = html[next..<end.lowerBound].drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
                        if blockTags.contains(tag.lowercased()) { text.append(" ") }
                        index = end.upperBound
                        continue
                    }
                }
            }
            text.append(c)
            index = html.index(after: index)
        }
        return collapse(decodeEntities(text))
    }

    /// Tags that end a line of text, so the words around them stay apart.
    private static let blockTags: Set<String> = ["p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5",
                                                 "h6", "tr", "td", "th", "table", "blockquote", "pre", "hr"]

    /// `text` with runs of white space made one space, trimmed at both ends.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// `text` with HTML character references (`&amp;`, `&#8217;`, `&#x2019;`, the names of
    /// ``HTMLEntities``)
    /// decoded; an unknown one is kept as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&",
                  let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                result.append(text[index])
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            if let decoded = decode(name) {
                result.append(decoded)
                index = text.index(after: semicolon)
            } else {
                result.append("&")
                index = text.index(after: index)
            }
        }
        return result
    }

    private static func decode(_ name: Substring) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if let xml = xmlNamed[String(name)] { return xml }
        return HTMLEntities.named[String(name)].map { String(Character($0)) }
    }

    /// XML's five named references.
    private static let xmlNamed: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
}

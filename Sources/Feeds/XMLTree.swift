import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small element tree read with XMLParser (libxml2), with namespaces resolved by this type
/// (prefixes as written, so `xml:base` stays an attribute like any other).
final class FeedXMLNode {
    /// The local name (after any prefix).
    let name: String
    /// The namespace URI of the element ("" for none).
    let namespace: String
    /// Attributes by qualified name as written (`href`, `xml:base`, `rdf:about`).
    let attributes: [String: String]
    /// Child elements in order.
    private(set) var children: [FeedXMLNode] = []
    /// Character data directly inside this element (text and CDATA), in order.
    fileprivate(set) var text = ""
    /// The text of the element and all its descendants in document order (for `type="xhtml"`).
    fileprivate(set) var allText = ""
    fileprivate weak var parent: FeedXMLNode?
    fileprivate var prefixes: [String: String]

    fileprivate init(qualifiedName: String, attributes: [String: String], parent: FeedXMLNode?) {
        var prefixes = parent?.prefixes ?? ["xml": "http://www.w3.org/XML/1998/namespace"]
        for (key, value) in attributes {
            if key == "xmlns" { prefixes[""] = value } else if key.hasPrefix("xmlns:") { prefixes[String(key.dropFirst(6))] = value }
        }
        let parts = qualifiedName.split(separator: ":", maxSplits: 1)
        if parts.count == 2 {
            name = String(parts[1])
            namespace = prefixes[String(parts[0])] ?? ""
        } else {
            name = qualifiedName
            namespace = prefixes[""] ?? ""
        }
        self.attributes = attributes
        self.parent = parent
        self.prefixes = prefixes
    }

    /// The first child with `name` in `namespace` (any namespace when nil).
    func child(_ name: String, in namespace: String? = nil) -> FeedXMLNode? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The children with `name` in `namespace` (any namespace when nil).
    func children(_ name: String, in namespace: String? = nil) -> [FeedXMLNode] {
        children.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// `relative` resolved against the `xml:base` of this element and its ancestors, then `base`.
    func resolve(_ relative: String, against base: URL?) -> String {
        var chain: [String] = []
        var element: FeedXMLNode? = self
        while let current = element {
            if let value = current.attributes["xml:base"] { chain.append(value) }
            element = current.parent
        }
        var resolved = base
        for value in chain.reversed() {
            resolved = URL(string: value, relativeTo: resolved)?.absoluteURL ?? resolved
        }
        let trimmed = relative.trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(string: trimmed, relativeTo: resolved)?.absoluteString ?? trimmed
    }

    fileprivate func append(_ child: FeedXMLNode) { children.append(child) }
}

/// Builds an `FeedXMLNode` tree from a document, or says where the XML was broken.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [FeedXMLNode] = []
    private(set) var root: FeedXMLNode?
    /// Elements deeper than this are an error (no feed nests this deep; it bounds the work).
    static let maximumDepth = 256
    private var tooDeep = false

    /// The document's root element, or an error naming the line and what libxml2 reported.
    static func parse(_ original: Data) throws(FeedParseError) -> FeedXMLNode {
        // FoundationXML's XMLParser traps on names that are not valid UTF-8 (found by the `feed`
        // fuzz target), so only UTF-8 documents reach it: FeedCharset converts the others first.
        guard String(validating: original, as: UTF8.self) != nil else {
            throw FeedParseError("not UTF-8 text")
        }
        // HTML's entities and bare ampersands, as real feeds have them, read as they are meant.
        let data = Data(spacingEmptyProcessingInstructions(XMLRepair.repaired([UInt8](original))))
        if let offset = nonASCIIEntityReference(in: data) {
            throw FeedParseError("not well-formed XML: an entity reference with a non-ASCII name at byte \(offset)")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        if builder.tooDeep {
            throw FeedParseError("XML nested deeper than \(maximumDepth) elements")
        }
        guard ok, builder.error == nil, let root = builder.root else {
            let line = parser.lineNumber
            let reason = (builder.error ?? parser.parserError).map(Self.describe) ?? "no root element"
            throw FeedParseError("not well-formed XML (line \(line)): \(reason)")
        }
        return root
    }

    /// What libxml2 found wrong, in words: FoundationXML describes its errors only by number
    /// (libxml2's `xmlParserErrors`), so the common ones are named here.
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        let words: [Int: String] = [
            4: "the document is empty", 5: "extra content after the root element", 9: "a character XML does not allow",
            26: "an undeclared entity", 38: "'<' in an attribute value", 39: "an attribute value without quotes",
            41: "an attribute without a value", 42: "an attribute given twice",
            64: "an XML declaration after the start of the document", 68: "a name was expected",
            73: "'>' was expected", 76: "an end tag that does not match its start tag",
            77: "the document ends inside an element",
        ]
        return "\(words[code] ?? (error as NSError).localizedDescription) (libxml2 error \(code))"
    }

    /// `bytes` with a space after the target of every processing instruction that has no data
    /// (`<?php?>` becomes `<?php ?>`, which means the same), outside CDATA sections and comments.
    /// libxml2 reports such an instruction's data as NULL, and FoundationXML's XMLParser reads
    /// it as a C string and crashes (found by the `feed` fuzz target), whatever the delegate.
    static func spacingEmptyProcessingInstructions(_ bytes: [UInt8]) -> [UInt8] {
        func starts(_ pattern: [UInt8], at index: Int) -> Bool {
            index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
        }
        func end(of closing: [UInt8], from index: Int) -> Int {
            var look = index
            while look < bytes.count, !starts(closing, at: look) { look += 1 }
            return min(look + closing.count, bytes.count)
        }
        let cdata = Array("<![CDATA[".utf8), comment = Array("<!--".utf8), instruction = Array("<?".utf8)
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-._:".utf8.contains(byte)
        }
        guard bytes.contains(UInt8(ascii: "?")) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            if starts(cdata, at: index) || starts(comment, at: index) {
                let stop = starts(comment, at: index)
                    ? end(of: Array("-->".utf8), from: index + comment.count) : end(of: Array("]]>".utf8), from: index + cdata.count)
                result += bytes[index..<stop]
                index = stop
            } else if starts(instruction, at: index) {
                // The target: a name as libxml2 reads one (ASCII name characters, and any byte
                // of a longer UTF-8 sequence). What ends it is looked at again, so the second
                // `<?` of `<?<?x?>` is seen too.
                var look = index + 2
                while look < bytes.count, isNameByte(bytes[look]) { look += 1 }
                result += bytes[index..<look]
                if look > index + 2, starts(Array("?>".utf8), at: look) { result.append(UInt8(ascii: " ")) }
                index = look
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// The offset of the first `&name;` whose name has a byte over 0x7F, or nil. FoundationXML's
    /// XMLParser traps on such a reference (found by the `feed` fuzz target), so it never sees one.
    static func nonASCIIEntityReference(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&") {
                var look = index + 1
                while look < bytes.count, look - index <= 64 {
                    let byte = bytes[look]
                    if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte <= 0x20 { break }
                    if byte > 0x7F { return index }
                    look += 1
                }
            }
            index += 1
        }
        return nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard stack.count < Self.maximumDepth else {
            tooDeep = true
            parser.abortParsing()
            return
        }
        let element = FeedXMLNode(qualifiedName: elementName, attributes: attributeDict, parent: stack.last)
        if let parent = stack.last { parent.append(element) } else if root == nil { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
    }

    /// The first error libxml2 reported (XMLParser may carry on after some).
    private(set) var error: (any Error)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil { error = parseError }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        append(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        append(String(decoding: CDATABlock, as: UTF8.self))
    }

    private func append(_ string: String) {
        stack.last?.text += string
        for element in stack { element.allText += string }
    }
}

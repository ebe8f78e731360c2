import Foundation

/// A small element tree (read by ``XMLTreeBuilder``), with namespaces resolved by this type
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
    var text = ""
    /// The text of the element and all its descendants in document order (for `type="xhtml"`).
    var allText = ""
    private weak var parent: FeedXMLNode?
    private var prefixes: [String: String]

    /// An element named `qualifiedName` as written, its namespace looked up in the prefixes
    /// declared by its own attributes and its ancestors'.
    init(qualifiedName: String, attributes: [String: String], parent: FeedXMLNode?) {
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

    /// Adds `child` after the children so far.
    func append(_ child: FeedXMLNode) { children.append(child) }
}

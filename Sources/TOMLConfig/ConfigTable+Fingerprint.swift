extension ConfigTable {
    /// The table's content as one canonical text: keys sorted, each value with its type, nested
    /// tables and arrays spelled out. Two tables have the same fingerprint exactly when they
    /// hold the same keys with the same values, whatever their order, spacing, comments or
    /// place in the file.
    public var fingerprint: String {
        Self.canonical(table: table)
    }

    private static func canonical(table: OpaquePointer) -> String {
        let entries = TOMLDocument.keys(of: table).sorted().map { key -> String in
            let value = TOMLDocument.node(key, in: table).map(canonical(node:)) ?? "?"
            return "\(quoted(key))=\(value)"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }

    private static func canonical(node: OpaquePointer) -> String {
        if let table = TOMLDocument.table(node) { return canonical(table: table) }
        if let elements = TOMLDocument.elements(node) { return "[" + elements.map(canonical(node:)).joined(separator: ",") + "]" }
        if let text = TOMLDocument.string(node) { return "s" + quoted(text) }
        if let value = TOMLDocument.integer(node) { return "i\(value)" }
        if let value = TOMLDocument.double(node) { return "d\(value.bitPattern)" }
        if let value = TOMLDocument.bool(node) { return value ? "true" : "false" }
        return TOMLDocument.typeName(node)
    }

    /// `text` in quotes with `\` and `"` escaped, so no key or string can imitate the syntax.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}

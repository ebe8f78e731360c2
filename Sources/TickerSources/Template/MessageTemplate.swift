/// A message text with fields: `{artist} — {title}`, `It's {summary}!`. `{{` and `}}` stand for
/// literal braces. A field name is 1–64 of `A-Z a-z 0-9 _ -`.
///
/// Guarantees: parsing never traps on any input; a parsed template renders every field it names
/// and nothing else, with a field the item lacks rendered as the empty text.
public struct MessageTemplate: Hashable, Sendable {
    /// One piece of a template.
    public enum Piece: Hashable, Sendable {
        /// Text shown as it is.
        case literal(String)
        /// A field's value.
        case field(String)
    }

    /// The pieces in order (adjacent literals are joined).
    public let pieces: [Piece]

    /// The field names the template uses, in order of first use.
    public var fieldNames: [String] {
        var seen = Set<String>()
        return pieces.compactMap { piece in
            guard case .field(let name) = piece, seen.insert(name).inserted else { return nil }
            return name
        }
    }

    /// Parses `text`; a malformed template throws a ``TemplateError`` saying where and why.
    public init(parsing text: String) throws(TemplateError) {
        var pieces: [Piece] = []
        var literal = ""
        var characters = Array(text.unicodeScalars)[...]
        var offset = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
        }
        while let scalar = characters.popFirst() {
            offset += 1
            switch scalar {
            case "{":
                if characters.first == "{" {
                    characters.removeFirst()
                    offset += 1
                    literal.unicodeScalars.append("{")
                    continue
                }
                let start = offset
                var name = ""
                var closed = false
                while let inner = characters.popFirst() {
                    offset += 1
                    if inner == "}" { closed = true; break }
                    guard Self.isNameScalar(inner) else {
                        throw TemplateError(
                            column: offset,
                            problem: inner == "{"
                                ? "'{' inside the field opened at column \(start)"
                                : "'\(inner.escaped(asASCII: true))' cannot be part of a field name (letters, digits, _ and -)")
                    }
                    name.unicodeScalars.append(inner)
                }
                guard closed else { throw TemplateError(column: start, problem: "the field opened here is never closed with '}'") }
                guard !name.isEmpty else { throw TemplateError(column: start, problem: "empty field name '{}' (write '{{}}' for braces)") }
                guard name.unicodeScalars.count <= 64 else {
                    throw TemplateError(column: start, problem: "field name longer than 64 characters")
                }
                flush()
                pieces.append(.field(name))
            case "}":
                guard characters.first == "}" else {
                    throw TemplateError(column: offset, problem: "'}' without a '{' (write '}}' for a brace)")
                }
                characters.removeFirst()
                offset += 1
                literal.unicodeScalars.append("}")
            default:
                literal.unicodeScalars.append(scalar)
            }
        }
        flush()
        self.pieces = pieces
    }

    /// The template with each field replaced by its value in `fields` (absent: empty).
    public func render(_ fields: [String: String]) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .field(let name): text += fields[name] ?? ""
            }
        }
        return text
    }

    /// Fails with the first field not in `known`, naming the known ones.
    public func check(fields known: Set<String>) throws(TemplateError) {
        for name in fieldNames where !known.contains(name) {
            throw TemplateError(
                column: 0, problem: "unknown field '{\(name)}' (this source has: \(known.sorted().joined(separator: ", ")))")
        }
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
        default: return false
        }
    }
}

/// Why a template could not be parsed or does not fit its source.
public struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based column (in Unicode scalars) the problem is at, or 0 for the whole template.
    public let column: Int
    /// What is wrong.
    public let problem: String

    /// `column N: problem` (or just the problem).
    public var description: String { column > 0 ? "column \(column): \(problem)" : problem }
}

/// A message text with fields: `{artist} — {title}`, `It's {summary}!`, and optional parts:
/// `[{artist} — ]{title}` shows `{artist} — ` only when the artist is not empty. `{{`, `}}`, `[[`
/// and `]]` stand for literal braces and brackets. A field name is 1–64 of `A-Z a-z 0-9 _ -`.
///
/// Guarantees: parsing never traps on any input; a parsed template renders every field it names
/// and nothing else, with a field the item lacks rendered as the empty text; an optional part
/// renders as a whole when each field in it has a value that is not empty or only white space,
/// and as nothing otherwise. Optional parts do not nest, and each holds at least one field and
/// something besides that one field, so a bracketed text that meant literal brackets (`[{app}]`,
/// `[note]`) is refused rather than read differently.
public struct MessageTemplate: Hashable, Sendable {
    /// One piece of a template.
    public indirect enum Piece: Hashable, Sendable {
        /// Text shown as it is.
        case literal(String)
        /// A field's value.
        case field(String)
        /// Pieces (literals and fields only) shown only when none of their fields is empty.
        case optional([Piece])
    }

    /// The pieces in order (adjacent literals are joined).
    public let pieces: [Piece]

    /// The 1-based column of each field's first use in the text, so a field the source lacks is
    /// reported where it is written.
    private let fieldColumns: [String: Int]

    /// The field names the template uses, in order of first use (optional parts included).
    public var fieldNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        func collect(_ pieces: [Piece]) {
            for piece in pieces {
                switch piece {
                case .literal: continue
                case .field(let name): if seen.insert(name).inserted { names.append(name) }
                case .optional(let inner): collect(inner)
                }
            }
        }
        collect(pieces)
        return names
    }

    /// Parses `text`; a malformed template throws a ``TemplateError`` saying where and why.
    public init(parsing text: String) throws(TemplateError) {
        var parser = TemplateParser(text)
        pieces = try parser.parse()
        fieldColumns = parser.fieldColumns
    }

    /// The template with each field replaced by its value in `fields` (absent: empty), and each
    /// optional part left out when one of its fields is empty or only white space.
    public func render(_ fields: [String: String]) -> String {
        Self.render(pieces, fields)
    }

    private static func render(_ pieces: [Piece], _ fields: [String: String]) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): text += literal
            case .field(let name): text += fields[name] ?? ""
            case .optional(let inner):
                let shown = inner.allSatisfy { piece in
                    guard case .field(let name) = piece else { return true }
                    return !(fields[name] ?? "").allSatisfy(\.isWhitespace)
                }
                if shown { text += render(inner, fields) }
            }
        }
        return text
    }

    /// Fails with the first field not in `known`, at the column where it is first written,
    /// naming the known ones.
    public func check(fields known: Set<String>) throws(TemplateError) {
        for name in fieldNames where !known.contains(name) {
            throw TemplateError(
                column: fieldColumns[name] ?? 0, problem: "unknown field '{\(name)}' (this source has: \(known.sorted().joined(separator: ", ")))")
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

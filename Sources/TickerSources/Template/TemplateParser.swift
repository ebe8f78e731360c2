/// Reads a ``MessageTemplate``'s text left to right, one Unicode scalar at a time, counting
/// columns for its errors. A doubled `{`, `}`, `[` or `]` is always that character as text.
struct TemplateParser {
    private var characters: ArraySlice<Unicode.Scalar>
    private var column = 0
    /// The column of each field's first `{`, for errors found after parsing.
    private(set) var fieldColumns: [String: Int] = [:]

    init(_ text: String) {
        characters = Array(text.unicodeScalars)[...]
    }

    /// The pieces of the whole text, adjacent literals joined.
    mutating func parse() throws(TemplateError) -> [MessageTemplate.Piece] {
        var pieces = Pieces()
        var part: (start: Int, pieces: Pieces)?
        /// Adds to the open part, or to the text outside parts.
        func add(_ change: (inout Pieces) -> Void) {
            if part != nil { change(&part!.pieces) } else { change(&pieces) }
        }
        while let scalar = next() {
            switch scalar {
            case _ where Self.isSpecial(scalar) && characters.first == scalar:
                characters.removeFirst()
                column += 1
                add { $0.append(scalar) }
            case "{":
                let start = column
                let name = try fieldName()
                if fieldColumns[name] == nil { fieldColumns[name] = start }
                add { $0.append(field: name) }
            case "}":
                throw TemplateError(column: column, problem: "'}' without a '{' (write '}}' for a brace)")
            case "[":
                if let part {
                    throw TemplateError(
                        column: column,
                        problem: "'[' inside the optional part opened at column \(part.start) "
                            + "(parts do not nest; write '[[' for a bracket)")
                }
                part = (column, Pieces())
            case "]":
                guard let open = part else {
                    throw TemplateError(column: column, problem: "']' without a '[' (write ']]' for a bracket)")
                }
                pieces.append(optional: try Self.checked(open.pieces.finished, start: open.start))
                part = nil
            default:
                add { $0.append(scalar) }
            }
        }
        if let part {
            throw TemplateError(
                column: part.start, problem: "the optional part opened here is never closed with ']' (write '[[' for a bracket)")
        }
        return pieces.finished
    }

    /// An optional part's pieces, refused when the part could never be left out (no field) or
    /// would always show the same as without brackets (one field alone): both are what a text
    /// that meant literal brackets looks like.
    private static func checked(
        _ pieces: [MessageTemplate.Piece], start: Int
    ) throws(TemplateError) -> [MessageTemplate.Piece] {
        let fields = pieces.filter { if case .field = $0 { true } else { false } }
        guard !fields.isEmpty else {
            throw TemplateError(
                column: start,
                problem: "the optional part opened here has no field, so it always shows (write '[[' and ']]' for brackets)")
        }
        guard pieces.count > 1 else {
            throw TemplateError(
                column: start,
                problem: "the optional part opened here holds only a field, which is the same without brackets (write '[[' and ']]' for brackets)")
        }
        return pieces
    }

    /// The name of the field whose `{` was just read, up to and including its `}`.
    private mutating func fieldName() throws(TemplateError) -> String {
        let start = column
        var name = ""
        while let inner = next() {
            if inner == "}" {
                guard !name.isEmpty else {
                    throw TemplateError(column: start, problem: "empty field name '{}' (write '{{}}' for braces)")
                }
                guard name.unicodeScalars.count <= 64 else {
                    throw TemplateError(column: start, problem: "field name longer than 64 characters")
                }
                return name
            }
            guard Self.isNameScalar(inner) else {
                throw TemplateError(
                    column: column,
                    problem: inner == "{"
                        ? "'{' inside the field opened at column \(start)"
                        : "'\(inner.escaped(asASCII: true))' cannot be part of a field name (letters, digits, _ and -)")
            }
            name.unicodeScalars.append(inner)
        }
        throw TemplateError(column: start, problem: "the field opened here is never closed with '}'")
    }

    private mutating func next() -> Unicode.Scalar? {
        guard let scalar = characters.popFirst() else { return nil }
        column += 1
        return scalar
    }

    /// Whether `scalar` is one of the characters a template doubles to write as text.
    private static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "{" || scalar == "}" || scalar == "[" || scalar == "]"
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return true
        default: return false
        }
    }
}

/// Pieces being collected: text is gathered until a field or part ends it, so adjacent literals
/// come out as one.
private struct Pieces {
    private var pieces: [MessageTemplate.Piece] = []
    private var literal = ""

    mutating func append(_ scalar: Unicode.Scalar) { literal.unicodeScalars.append(scalar) }

    mutating func append(field name: String) {
        flush()
        pieces.append(.field(name))
    }

    mutating func append(optional inner: [MessageTemplate.Piece]) {
        flush()
        pieces.append(.optional(inner))
    }

    /// All pieces, the text at the end included.
    var finished: [MessageTemplate.Piece] {
        var copy = self
        copy.flush()
        return copy.pieces
    }

    private mutating func flush() {
        if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
    }
}

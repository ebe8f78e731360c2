import TickerSources

/// Message templates of sources.toml (`[{artist} — ]{title}`). Properties: parsing never traps; a
/// refused template names a column within the text (or 0); an accepted one has no part within a
/// part nor one without a field, renders (every field set) each field it names as that field's
/// value and nothing else, and written back (literal braces and brackets doubled) parses to the
/// same pieces.
enum TemplateTarget {
    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 1024 else { return }
        let text = input.text
        let length = text.unicodeScalars.count
        let template: MessageTemplate
        do {
            template = try MessageTemplate(parsing: text)
        } catch {
            require((0...length).contains(error.column), "'\(text)': column \(error.column) of \(length): \(error)")
            return
        }
        var written = ""
        var expected = ""
        var fields: [String: String] = [:]
        func writeBack(_ pieces: [MessageTemplate.Piece], inPart: Bool) {
            for piece in pieces {
                switch piece {
                case .literal(let literal):
                    require(!literal.isEmpty, "'\(text)' has an empty literal piece")
                    written += literal.doublingSpecials
                    expected += literal
                case .field(let name):
                    fields[name] = "<\(name)>"
                    written += "{\(name)}"
                    expected += "<\(name)>"
                case .optional(let inner):
                    require(!inPart, "'\(text)' has an optional part inside another")
                    require(inner.contains { if case .field = $0 { true } else { false } }, "'\(text)' has a part without a field")
                    written += "["
                    writeBack(inner, inPart: true)
                    written += "]"
                }
            }
        }
        writeBack(template.pieces, inPart: false)
        require(template.render(fields) == expected, "'\(text)' renders '\(template.render(fields))', not '\(expected)'")
        require(Set(template.fieldNames) == Set(fields.keys), "'\(text)': fieldNames \(template.fieldNames)")
        do {
            let again = try MessageTemplate(parsing: written)
            require(again == template, "'\(text)' written back as '\(written)' parses differently")
        } catch {
            require(false, "'\(text)' written back as '\(written)' does not parse: \(error)")
        }
    }
}

extension String {
    /// The text with `{`, `}`, `[` and `]` doubled, as a template writes them literally.
    fileprivate var doublingSpecials: String {
        var result = ""
        for scalar in unicodeScalars {
            result.unicodeScalars.append(scalar)
            if scalar == "{" || scalar == "}" || scalar == "[" || scalar == "]" { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}

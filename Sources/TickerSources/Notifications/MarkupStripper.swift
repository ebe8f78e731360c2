/// Notification bodies as plain text: tags removed, entities decoded, whitespace made single
/// spaces (Desktop Notifications spec 1.2, "Markup").
///
/// Guarantees: a pure function that never traps; the result holds no `<…>` tag of the input and
/// no control characters; text that is not markup comes out as it went in (whitespace aside).
enum MarkupStripper {
    /// `text` without markup.
    static func plainText(_ text: String) -> String {
        var output = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                // A tag starts with a letter, '/' or '!' and runs to the next '>'; any other '<',
                // or one that never closes, is text.
                let opensTag = scalars.first.map { $0 == "/" || $0 == "!" || $0.properties.isAlphabetic } ?? false
                if opensTag, let close = scalars.firstIndex(of: ">") {
                    let tag = String(String.UnicodeScalarView(scalars[scalars.startIndex..<close])).lowercased()
                    scalars = scalars[(close + 1)...]
                    if tag.hasPrefix("br") || tag.hasPrefix("/p") { output.unicodeScalars.append(" ") }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            case "&":
                if let semicolon = scalars.prefix(12).firstIndex(of: ";"),
                   let decoded = entity(String(String.UnicodeScalarView(scalars[scalars.startIndex..<semicolon]))) {
                    output.unicodeScalars.append(decoded)
                    scalars = scalars[(semicolon + 1)...]
                } else {
                    output.unicodeScalars.append(scalar)
                }
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output.collapsingWhitespace
    }

    /// The character an entity name (`amp`, `#39`, `#x27`) stands for.
    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value), value >= 0x20 else { return nil }
            return scalar
        }
    }
}

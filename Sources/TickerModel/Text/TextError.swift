/// Why a text was refused (the daemon maps every case to `io.github.tickerd.Ticker1.Error.InvalidText`).
public enum TextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text holds a character that is not allowed; `index` counts Unicode scalars from 0.
    case forbiddenCharacter(Unicode.Scalar, index: Int)
    /// The text holds more extended grapheme clusters than the limit allows.
    case tooLong(clusters: Int, limit: Int)
    /// The text starts with a scalar that joins the character before it (a combining mark,
    /// U+FE0F, an emoji modifier), or ends with one that joins the character after it (a prefix
    /// mark such as U+0600): on the tape it would fuse with the separator or padding and change
    /// its width. `index` counts Unicode scalars from 0.
    case joinsNeighbour(Unicode.Scalar, index: Int)

    /// A message a person can act on, naming the character as U+XXXX and its index.
    public var description: String {
        switch self {
        case let .forbiddenCharacter(scalar, index):
            return "text contains \(TextError.codePointName(scalar)) (\(TextError.kind(of: scalar))) "
                + "at index \(index); control, line/paragraph separator and bidi control characters are not allowed"
        case let .tooLong(clusters, limit):
            return "text is \(clusters) characters long; the limit is \(limit)"
        case let .joinsNeighbour(scalar, index):
            return "text has \(TextError.codePointName(scalar)) at index \(index), at its edge, where it would join the "
                + "separator or padding next to it on the tape; put a base character beside it"
        }
    }

    /// `U+XXXX` with at least four upper-case hex digits.
    static func codePointName(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func kind(of scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x2028: return "line separator"
        case 0x2029: return "paragraph separator"
        case 0x202A...0x202E, 0x2066...0x2069: return "bidi control"
        default: return "control character"
        }
    }
}

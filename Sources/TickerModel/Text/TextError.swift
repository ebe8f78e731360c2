/// Why a text was refused. The daemon answers `io.github.tickerd.Ticker1.Error.LimitExceeded` for
/// the three limits (``tooLong(clusters:limit:)``, ``tooManyBytes(bytes:limit:)``,
/// ``clusterTooLong(scalars:index:limit:)``) and `InvalidText` for the rest.
public enum TextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text holds a character that is not allowed; `index` counts Unicode scalars from 0.
    case forbiddenCharacter(Unicode.Scalar, index: Int)
    /// The text holds more extended grapheme clusters than the limit allows (`clusters` is exact).
    case tooLong(clusters: Int, limit: Int)
    /// The text's UTF-8 form holds more bytes than the limit allows.
    case tooManyBytes(bytes: Int, limit: Int)
    /// One extended grapheme cluster, starting at scalar `index`, holds `scalars` Unicode scalars,
    /// more than the limit allows.
    case clusterTooLong(scalars: Int, index: Int, limit: Int)
    /// The text starts with a character that joins the one before it (a combining mark, a
    /// variation selector, ZWJ), or ends with one that joins the next (a prepended mark): on the
    /// tape it would merge with a separator or padding across the edge.
    case joinsAcrossEdge(Unicode.Scalar, atStart: Bool)

    /// True for the cases that pass a configurable limit (``Limits``) rather than break a rule.
    public var isLimit: Bool {
        switch self {
        case .tooLong, .tooManyBytes, .clusterTooLong: return true
        case .forbiddenCharacter, .joinsAcrossEdge: return false
        }
    }

    /// A message a person can act on, naming the character as U+XXXX and its index.
    public var description: String {
        switch self {
        case let .forbiddenCharacter(scalar, index):
            return "text contains \(TextError.codePointName(scalar)) (\(TextError.kind(of: scalar))) "
                + "at index \(index); control, line/paragraph separator and bidi control characters are not allowed"
        case let .tooLong(clusters, limit):
            return "text is \(clusters) characters (grapheme clusters) long; the limit is \(limit) characters"
        case let .tooManyBytes(bytes, limit):
            return "text is \(bytes) bytes long (UTF-8); the limit is \(limit) bytes"
        case let .clusterTooLong(scalars, index, limit):
            return "text has a character (grapheme cluster) of \(scalars) code points at index \(index); "
                + "the limit is \(limit) code points a character"
        case let .joinsAcrossEdge(scalar, atStart):
            return atStart
                ? "text starts with \(TextError.codePointName(scalar)), which joins the character before it; "
                    + "put it after the character it belongs to"
                : "text ends with \(TextError.codePointName(scalar)), which joins the character after it; "
                    + "remove it or put the character it belongs to after it"
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
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return "bidi control"
        default: return "control character"
        }
    }
}

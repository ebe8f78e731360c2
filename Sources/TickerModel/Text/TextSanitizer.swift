/// Turns posted text into text the model can show (DESIGN §4 "Text in").
///
/// Tab, CR and LF each become one space. Other C0/C1 controls (U+0000–U+001F, U+007F–U+009F),
/// U+2028, U+2029 and the bidi controls (Bidi_Control: U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069) are refused with ``TextError/forbiddenCharacter(_:index:)`` naming the first
/// one and its scalar index. The byte limit is checked before anything else, so the work spent
/// on any text is bounded by `Limits.bytesPerMessage`.
public enum TextSanitizer {
    /// Returns `text` with tab/CR/LF replaced by spaces, or throws for more than
    /// `limits.bytesPerMessage` UTF-8 bytes, for forbidden characters, for a cluster of more than
    /// `limits.scalarsPerCluster` scalars, for more than `limits.clustersPerMessage` extended
    /// grapheme clusters, or for an edge scalar that would join the tape's separator or padding.
    public static func sanitize(_ text: String, limits: Limits = .standard) throws(TextError) -> String {
        // First, in constant time: a text of a few long clusters (a letter with a million
        // combining marks) is short in clusters but costs in proportion to its bytes.
        let bytes = text.utf8.count
        if bytes > limits.bytesPerMessage {
            throw .tooManyBytes(bytes: bytes, limit: limits.bytesPerMessage)
        }
        // Printable ASCII (most posts): nothing to replace or refuse, one cluster per byte, and no
        // edge that joins a neighbour. Decided in one pass over the bytes, without building a copy
        // scalar by scalar and counting clusters (~14k instructions a Post, callgrind).
        if let clusters = printableASCIICount(text) {
            if clusters > limits.clustersPerMessage {
                throw .tooLong(clusters: clusters, limit: limits.clustersPerMessage)
            }
            return text
        }
        return try sanitizeScalars(text, limits: limits)
    }

    /// The number of bytes of `text` when all of them are printable ASCII (U+0020–U+007E), else nil.
    static func printableASCIICount(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte > 0x7E { return nil }
            return bytes.count
        }
    }

    /// ``sanitize(_:limits:)`` for any text, scalar by scalar.
    static func sanitizeScalars(_ text: String, limits: Limits) throws(TextError) -> String {
        var scalars = String.UnicodeScalarView()
        var changed = false
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                scalars.append(" ")
                changed = true
            case _ where isForbidden(scalar):
                throw .forbiddenCharacter(scalar, index: index)
            default:
                scalars.append(scalar)
            }
        }
        let result = changed ? String(scalars) : text
        var clusters = 0
        var scalarIndex = 0
        for cluster in result {
            let length = cluster.unicodeScalars.count
            if length > limits.scalarsPerCluster {
                throw .clusterTooLong(scalars: length, index: scalarIndex, limit: limits.scalarsPerCluster)
            }
            scalarIndex += length
            clusters += 1
        }
        if clusters > limits.clustersPerMessage {
            throw .tooLong(clusters: clusters, limit: limits.clustersPerMessage)
        }
        // Texts are joined with separators, gaps and padding: a first or last cluster that would
        // merge with a neighbour there breaks the cell count of every frame (found by the D-Bus fuzz test).
        if let first = result.first, let scalar = first.unicodeScalars.first, (" " + String(first)).count != 2 {
            throw .joinsAcrossEdge(scalar, atStart: true)
        }
        // At the end: a prepended mark joins anything, an emoji + ZWJ joins a following emoji, a
        // lone regional indicator pairs with one that follows.
        if let last = result.last, let scalar = last.unicodeScalars.last,
           [" ", "🚀", "🇦"].contains(where: { (String(last) + $0).count != 2 }) {
            throw .joinsAcrossEdge(scalar, atStart: false)
        }
        return result
    }

    /// True for the scalars DESIGN §4 rejects (tab, CR and LF are not forbidden: they are replaced).
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F: return true  // Arabic letter mark, LRM, RLM (Bidi_Control)
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

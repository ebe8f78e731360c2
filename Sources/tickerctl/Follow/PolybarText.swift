/// Makes text safe for polybar, whose format strings treat `%{…}` as a formatting tag (colours,
/// fonts, clickable actions that run commands).
///
/// polybar (3.x) has no escape for `%`, so a WORD JOINER (U+2060, zero cells, default-ignorable, so
/// nothing is drawn) goes after every `%`: no `%{` can appear, even when the text is cut into a
/// window or followed by the label's own text.
enum PolybarText {
    /// The zero-width character put after each `%`.
    static let joiner: Unicode.Scalar = "\u{2060}"

    /// `text` with a WORD JOINER after every `%`.
    static func neutralise(_ text: String) -> String {
        let percent = UInt8(ascii: "%")
        let hasPercent = text.utf8.withContiguousStorageIfAvailable { $0.contains(percent) } ?? text.utf8.contains(percent)
        guard hasPercent else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            result.unicodeScalars.append(scalar)
            if scalar == "%" { result.unicodeScalars.append(joiner) }
        }
        return result
    }
}

import TestSupport
@testable import TickerModel

/// Random text made of the kinds of clusters that make cell widths interesting.
enum TextSamples {
    /// Pieces: ASCII, CJK, emoji, flags, ZWJ sequences, keycaps, VS16, combining marks, zero-width.
    static let pieces: [String] = [
        "a", "Hello", "ticker", "x", "42", " ", "-", "Wörld",
        "漢字", "中", "文字", "ｶﾀｶﾅ", "한국",
        "😀", "🚀", "🎉",
        "🇩🇪", "🇯🇵", "🇫🇷",
        "👩\u{200D}👩\u{200D}👧", "👨🏽\u{200D}💻", "🏳️\u{200D}🌈",
        "1️⃣", "❤️", "❤",
        "e\u{301}", "n\u{303}\u{323}", "\u{301}",
        "\u{200B}", "\u{AD}",
    ]

    /// Gaps, each ending with a scalar that never joins the next cluster.
    static let gaps: [String] = ["  •  ", " | ", "   ", "·", "\u{200B}", "🎉 "]

    static func message(_ rng: inout SeededRandom, maxPieces: Int) -> String {
        let count = Int.random(in: 1...maxPieces, using: &rng)
        var text = ""
        for _ in 0..<count {
            text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
        }
        return text
    }

    static func tape(_ rng: inout SeededRandom, maxMessages: Int = 4, maxPieces: Int = 8) -> Tape {
        let messages = (0..<Int.random(in: 1...maxMessages, using: &rng)).map { _ in
            message(&rng, maxPieces: maxPieces)
        }
        let gap = gaps[Int.random(in: 0..<gaps.count, using: &rng)]
        return Tape(messages: messages, separator: "  •  ", gap: gap)
    }
}

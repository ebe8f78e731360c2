import Testing
@testable import TOMLConfig

/// The header guard reads every config at start and on reload, before toml++ does: its scan must
/// stay linear in the file's size, or a large config (many messages) starts in minutes.
@Suite struct TOMLHeaderGuardScanTests {
    /// A config of `count` messages whose texts hold no backslash, in the given string kind.
    private static func config(messages count: Int, quote: String) -> String {
        var text = "[channel.main]\nspeed = 8\n"
        for index in 0..<count {
            text += "[[channel.main.message]]\nid = \(quote)m\(index)\(quote)\ntext = \(quote)Message number \(index) of the long list\(quote)\n"
        }
        return text
    }

    /// Each string's search for the bytes that end it stays inside that string, so the bytes the
    /// scan looks at grow with the file, not with the file times its strings. A search that ran on
    /// to the file's end for a backslash no string holds looked at ~40,000× the file here.
    @Test(arguments: ["\"", "'", "\"\"\"", "'''"])
    func searchedBytesStayLinear(quote: String) {
        let text = Self.config(messages: 4000, quote: quote)
        var searched = 0
        #expect(TOMLHeaderGuard.firstFault(in: text, searched: &searched) == nil)
        #expect(searched <= 2 * text.utf8.count, "looked at \(searched) bytes of a \(text.utf8.count)-byte file")
    }

    /// Strings with escapes, quotes of the other kind and multi-line bodies are still crossed
    /// whole: a `[` inside them is not taken for a header, one after them is.
    @Test func stringsAreStillCrossedWhole() {
        let inside = "a = \"x \\\" [&no] \\\\\"\nb = '''\n[&no]\n'''\nc = \"\"\"\n\\\"\"\" [&no]\n\"\"\"\n"
        #expect(TOMLHeaderGuard.firstFault(in: inside) == nil)
        let after = inside + "d = 'it''s'\n[&yes]\n"
        #expect(TOMLHeaderGuard.firstFault(in: after)?.line == 9)
    }
}

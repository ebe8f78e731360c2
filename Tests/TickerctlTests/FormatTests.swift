import Foundation
import Testing
import TickerModel
@testable import tickerctl

/// The line formats a panel reads: valid JSON, escaped markup, neutralised polybar tags, exact
/// widths.
@Suite struct FormatTests {
    /// Texts that try to break out of each format.
    static let hostileTexts = [
        "<b>bold</b> & \"quoted\" 'single'",
        "%{F#ff0000}red%{F-} %{A1:xterm:}click%{A}",
        "100% done %%{B#000} & <span foreground='red'>x</span>",
        "a\\b \"c\" }{ %",
        "日本語のニュース 🎉 <&> %{T2}",
    ]

    /// A reference Pango escaper written independently: one replacement after another.
    static func referencePangoEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    static func line(_ text: String, full: String? = nil, state: PanelState = .scrolling) -> PanelLine {
        PanelLine(text: text, offset: 0.25, fullText: full ?? text, channel: "main", state: state, at: 1_700_000_000_000_000)
    }

    @Test(arguments: hostileTexts)
    func waybarLinesAreOneValidJSONObjectWithEscapedMarkup(text: String) throws {
        let output = WaybarLineFormatter().format(Self.line(text, full: "full: " + text))
        #expect(output.hasSuffix("\n"))
        #expect(output.dropLast().contains("\n") == false)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["text"] as? String == Self.referencePangoEscape(text))
        #expect(object["tooltip"] as? String == Self.referencePangoEscape("full: " + text))
        #expect(object["class"] as? String == "scrolling")
        #expect(object["alt"] as? String == "scrolling")
        let shown = try #require(object["text"] as? String)
        #expect(!shown.contains("<") && !shown.contains(">") && !shown.contains("\""))
    }

    @Test func waybarEscapesAfterCuttingSoNoEntityIsCutInHalf() throws {
        // The window is cut from the plain text first; `&` at the right edge stays a whole entity.
        let fitted = String("Tom & Jerry".prefix(5))
        let output = WaybarLineFormatter().format(Self.line(fitted))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "Tom &amp;")
    }

    @Test(arguments: hostileTexts)
    func polybarLinesCarryNoFormattingTag(text: String) {
        let output = PolybarLineFormatter().format(Self.line(text))
        #expect(!output.contains("%{"))
        #expect(output.hasSuffix("\n"))
        // Only zero-width joiners were added: the text reads the same and is as wide.
        let stripped = output.dropLast().unicodeScalars.filter { $0 != "\u{2060}" }
        #expect(String(String.UnicodeScalarView(stripped)) == text)
        #expect(CellWidth.of(String(output.dropLast())) == CellWidth.of(text))
    }

    @Test func polybarNeutralisesEveryWindowCutOfATag() {
        // Whatever window a scroll cuts, no `%{` survives — including one that ends in `%` and
        // is followed by the label's own `{`.
        let text = "x%{F#f00}y%%{A1:rm -rf ~:}z%"
        for start in text.indices {
            let window = String(text[start...])
            let output = PolybarText.neutralise(window) + "{"
            #expect(!output.contains("%{"))
        }
    }

    @Test func jsonLinesHoldTextOffsetFullTextChannelStateAndInstant() throws {
        let output = JSONLineFormatter().format(Self.line("ab\"c", full: "ab\"cdef", state: .paused))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "ab\"c")
        #expect(object["full_text"] as? String == "ab\"cdef")
        #expect(object["offset"] as? Double == 0.25)
        #expect(object["channel"] as? String == "main")
        #expect(object["state"] as? String == "paused")
        #expect((object["at"] as? NSNumber)?.int64Value == 1_700_000_000_000_000)
    }

    @Test func plainRedrawsInPlaceOnATerminalAndPrintsLinesOtherwise() {
        let line = Self.line("hello")
        #expect(PlainLineFormatter(inPlace: true).format(line) == "\rhello\u{1B}[K")
        #expect(PlainLineFormatter(inPlace: true).farewell == "\n")
        #expect(PlainLineFormatter(inPlace: false).format(line) == "hello\n")
        #expect(I3blocksLineFormatter().format(line) == "hello\n")
    }

    @Test func aLineIsRepeatedOnlyWhenItsFormatShowsTheChange() {
        // The window is the same; only the full text changed (a counter counting outside it).
        let before = Self.line("Builds today", full: "Builds today: 1,200 and more")
        var after = before
        after.fullText = "Builds today: 1,201 and more"
        after.offset = 0.75
        after.at += 40_000
        #expect(PlainLineFormatter(inPlace: false).looksSame(before, after))
        #expect(PlainLineFormatter(inPlace: true).looksSame(before, after))
        #expect(PolybarLineFormatter().looksSame(before, after))
        #expect(I3blocksLineFormatter().looksSame(before, after))
        // The tooltip and full_text show it.
        #expect(!WaybarLineFormatter().looksSame(before, after))
        #expect(!JSONLineFormatter().looksSame(before, after))
        // Offset and instant alone are invisible in every format.
        var moved = before
        moved.offset = 0.5
        moved.at += 10_000
        #expect(WaybarLineFormatter().looksSame(before, moved))
        #expect(JSONLineFormatter().looksSame(before, moved))
        // A paused panel looks different in waybar (class), not on a text panel.
        var paused = before
        paused.state = .paused
        #expect(!WaybarLineFormatter().looksSame(before, paused))
        #expect(I3blocksLineFormatter().looksSame(before, paused))
    }

    @Test func jsonStringsEscapeControlsAndSeparators() throws {
        let text = "tab\there\u{1}\u{2028}end\\"
        let encoded = JSONValue.string(text).text
        #expect(!encoded.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 })
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(encoded)]".utf8)) as? [String]
        #expect(decoded == [text])
    }
}

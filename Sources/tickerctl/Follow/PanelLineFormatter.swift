/// Turns a ``PanelLine`` into what a panel reads: the bytes to write, line terminator included.
protocol PanelLineFormatter {
    /// The output for `line`.
    func format(_ line: PanelLine) -> String
    /// What to write when `follow` ends (e.g. a newline after an in-place terminal line).
    var farewell: String { get }
    /// Whether `a` and `b` look the same to this format's reader, so `b` need not be written
    /// after `a`: true exactly when they format to the same bytes. By default when their texts
    /// are equal (a text panel shows neither the tooltip nor the state, so a counter counting
    /// outside the window writes nothing).
    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool
}

extension PanelLineFormatter {
    var farewell: String { "" }

    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool { a.text == b.text }
}

/// `plain`: the visible text; on a terminal redrawn in place (`\r`, text, clear to end of line).
struct PlainLineFormatter: PanelLineFormatter {
    /// Redraw one line in place (stdout is a terminal).
    let inPlace: Bool

    func format(_ line: PanelLine) -> String {
        inPlace ? "\r" + line.text + "\u{1B}[K" : line.text + "\n"
    }

    var farewell: String { inPlace ? "\n" : "" }
}

/// `json`: `{"text", "offset", "full_text", "channel", "state", "at"}` a line.
final class JSONLineFormatter: PanelLineFormatter {
    private let fullText = EncodedStringCache(pango: false)

    func format(_ line: PanelLine) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4 * line.text.utf8.count + line.fullText.utf8.count + 128)
        out.append(contentsOf: "{\"text\":".utf8)
        LineBytes.appendQuoted(line.text, pango: false, to: &out)
        out.append(contentsOf: ",\"offset\":".utf8)
        var number = ""
        JSONValue.number(line.offset).write(to: &number)
        out.append(contentsOf: number.utf8)
        out.append(contentsOf: ",\"full_text\":".utf8)
        fullText.appendQuoted(line.fullText, to: &out)
        out.append(contentsOf: ",\"channel\":".utf8)
        LineBytes.appendQuoted(line.channel, pango: false, to: &out)
        out.append(contentsOf: ",\"state\":\"".utf8)
        out.append(contentsOf: line.state.rawValue.utf8)
        out.append(contentsOf: "\",\"at\":".utf8)
        out.append(contentsOf: String(line.at).utf8)
        out.append(contentsOf: "}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// The offset and the instant change with every frame; the rest is what a reader watches.
    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool { a.looksLike(b) }
}

/// `waybar`: one JSON object a line for a custom module with `"return-type": "json"`; `text` and
/// `tooltip` are Pango-escaped (the window is cut first, so no entity is ever cut in half).
final class WaybarLineFormatter: PanelLineFormatter {
    private let tooltip = EncodedStringCache(pango: true)

    func format(_ line: PanelLine) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(6 * line.text.utf8.count + line.fullText.utf8.count + 96)
        out.append(contentsOf: "{\"text\":".utf8)
        LineBytes.appendQuoted(line.text, pango: true, to: &out)
        out.append(contentsOf: ",\"tooltip\":".utf8)
        tooltip.appendQuoted(line.fullText, to: &out)
        out.append(contentsOf: ",\"class\":\"".utf8)
        out.append(contentsOf: line.state.rawValue.utf8)
        out.append(contentsOf: "\",\"alt\":\"".utf8)
        out.append(contentsOf: line.state.rawValue.utf8)
        out.append(contentsOf: "\"}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// The text, the tooltip (the full text) and the class are shown.
    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool {
        a.text == b.text && a.state == b.state && a.fullText == b.fullText
    }
}

/// `polybar`: the visible text with every `%{` neutralised, one line per change (`tail = true`).
struct PolybarLineFormatter: PanelLineFormatter {
    func format(_ line: PanelLine) -> String {
        PolybarText.neutralise(line.text) + "\n"
    }
}

/// `i3blocks`: the visible text, one line per change (`interval=persist`).
struct I3blocksLineFormatter: PanelLineFormatter {
    func format(_ line: PanelLine) -> String {
        line.text + "\n"
    }
}

/// Turns a ``PanelLine`` into what a panel reads: the bytes to write, line terminator included.
protocol PanelLineFormatter {
    /// The output for `line`.
    func format(_ line: PanelLine) -> String
    /// What to write when `follow` ends (e.g. a newline after an in-place terminal line).
    var farewell: String { get }
    /// Whether `a` and `b` look the same to this format's reader, so `b` need not be written
    /// after `a`. By default: when they format to the same bytes (a text panel shows neither
    /// the tooltip nor the state, so a counter counting outside the window writes nothing).
    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool
}

extension PanelLineFormatter {
    var farewell: String { "" }

    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool { format(a) == format(b) }
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
struct JSONLineFormatter: PanelLineFormatter {
    func format(_ line: PanelLine) -> String {
        JSONValue.object([
            ("text", .string(line.text)),
            ("offset", .number(line.offset)),
            ("full_text", .string(line.fullText)),
            ("channel", .string(line.channel)),
            ("state", .string(line.state.rawValue)),
            ("at", .integer(line.at)),
        ]).text + "\n"
    }

    /// The offset and the instant change with every frame; the rest is what a reader watches.
    func looksSame(_ a: PanelLine, _ b: PanelLine) -> Bool { a.looksLike(b) }
}

/// `waybar`: one JSON object a line for a custom module with `"return-type": "json"`; `text` and
/// `tooltip` are Pango-escaped (after the window was cut, so no entity is ever cut in half).
struct WaybarLineFormatter: PanelLineFormatter {
    func format(_ line: PanelLine) -> String {
        JSONValue.object([
            ("text", .string(PangoMarkup.escape(line.text))),
            ("tooltip", .string(PangoMarkup.escape(line.fullText))),
            ("class", .string(line.state.rawValue)),
            ("alt", .string(line.state.rawValue)),
        ]).text + "\n"
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

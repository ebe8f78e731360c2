import ArgumentParser

/// The line formats of `follow`, one per kind of panel.
enum FollowFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A terminal: one line redrawn in place on a tty, else one line per change.
    case plain
    /// One JSON object a line: text, offset, full text, channel, state.
    case json
    /// waybar's custom module with `return-type: json`.
    case waybar
    /// polybar's `custom/script` with `tail = true`.
    case polybar
    /// i3blocks with `interval=persist`.
    case i3blocks

    /// The formatter for this format; `terminal` tells whether stdout is a tty (plain only).
    func formatter(terminal: Bool) -> any PanelLineFormatter {
        switch self {
        case .plain: return PlainLineFormatter(inPlace: terminal)
        case .json: return JSONLineFormatter()
        case .waybar: return WaybarLineFormatter()
        case .polybar: return PolybarLineFormatter()
        case .i3blocks: return I3blocksLineFormatter()
        }
    }
}

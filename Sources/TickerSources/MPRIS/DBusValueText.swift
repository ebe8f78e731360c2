/// A metadata value as text: a string, or a list of strings (`xesam:artist` is `as`).
enum DBusValueText: Hashable, Sendable {
    case one(String)
    case many([String])

    /// The value, list items joined with ", ".
    var joined: String {
        switch self {
        case .one(let text): return text
        case .many(let items): return items.joined(separator: ", ")
        }
    }
}

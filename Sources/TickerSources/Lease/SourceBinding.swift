/// How one source's items become messages: where they go and how their text is made.
///
/// Guarantees: every template of a binding was checked against its source's fields when the
/// configuration was read, so rendering never meets an unknown field.
public struct SourceBinding: Hashable, Sendable {
    /// The source's name (its messages' ids start with `src/<name>/`).
    public var name: String
    /// The channel its messages are posted to.
    public var channel: String
    /// Their priority (tape order: higher first).
    public var priority: Int32
    /// Whether all of its messages are urgent (an item can also be urgent by itself).
    public var urgent: Bool
    /// The main template.
    public var template: MessageTemplate
    /// Alternative templates by form name (e.g. `"paused"`); an item whose form is not here is hidden.
    public var forms: [String: MessageTemplate]

    /// A binding of source `name`.
    public init(
        name: String, channel: String, priority: Int32 = 0, urgent: Bool = false, template: MessageTemplate,
        forms: [String: MessageTemplate] = [:]
    ) {
        self.name = name
        self.channel = channel
        self.priority = priority
        self.urgent = urgent
        self.template = template
        self.forms = forms
    }

    /// The prefix of every message id of this source.
    public var idPrefix: String { "src/\(name)/" }

    /// The message id of `item`: `src/<source>/<key>` when the key is 1–128 visible ASCII
    /// characters and fits, else `src/<source>/#<hash of the key>`; the same key always gives the
    /// same id.
    public func messageID(of key: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
        if plain, idPrefix.utf8.count + key.utf8.count <= 128 { return idPrefix + key }
        return idPrefix + "#" + Self.fnv1a(key)
    }

    /// The message `item` becomes, or nil when its form has no template or its text is empty. The
    /// text is made one tickerd takes under its default limits (``TickerText``): cut to 4096
    /// characters with `…`, bidi controls dropped, so a long or marked-up item is shown, not refused.
    public func message(for item: SourceItem) -> DesiredMessage? {
        let template: MessageTemplate
        if let form = item.form {
            guard let alternative = forms[form] else { return nil }
            template = alternative
        } else {
            template = self.template
        }
        let text = TickerText.fitted(template.render(item.fields))
        guard !text.isEmpty else { return nil }
        return DesiredMessage(
            channel: item.channel ?? channel, text: text, priority: item.priority ?? priority,
            urgent: urgent || item.urgent, link: item.link, expires: item.expires, options: item.options)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits (stable across runs and machines).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

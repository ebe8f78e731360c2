import Synchronization

/// The text forms of one tape's layout (``EffectFields/encode(_:relative:)``), each computed once.
///
/// The encoding is a pure function of the layout, so remembering it changes no result; it only
/// spares a tape of many messages from being encoded again each time its timeline is published
/// or stored (a tape stays the same, as `tape` or as the pending `next`, across many of those).
/// A tape whose layout is set anew gets a new cache (``Tape/layout``).
final class EncodedLayoutCache: Sendable {
    /// The Timeline's form and the relative one, once computed.
    private let encoded = Mutex<(absolute: String?, relative: String?)>((nil, nil))
    /// How many encodings were computed (not found) so far, for tests.
    private let computed = Atomic<Int>(0)

    /// The encoding of `layout` (the layout of the tape whose cache this is), in the relative form
    /// when `relative`.
    func encoding(of layout: TapeLayout, relative: Bool = false) -> String {
        if let known = encoded.withLock({ relative ? $0.relative : $0.absolute }) { return known }
        let text = EffectFields.encode(layout, relative: relative)
        computed.add(1, ordering: .relaxed)
        encoded.withLock { if relative { $0.relative = text } else { $0.absolute = text } }
        return text
    }

    /// How many encodings were computed rather than found.
    var computations: Int { computed.load(ordering: .relaxed) }
}

extension Tape {
    /// The layout's text form (``EffectFields/encode(_:relative:)``), computed once per layout;
    /// nil for tapes without a layout.
    public var encodedLayout: String? {
        layout.map { encodedLayouts.encoding(of: $0) }
    }

    /// The layout's relative text form (``EffectFields/encode(_:relative:)`` with `relative`),
    /// computed once per layout; nil for tapes without a layout.
    public var encodedRelativeLayout: String? {
        layout.map { encodedLayouts.encoding(of: $0, relative: true) }
    }
}

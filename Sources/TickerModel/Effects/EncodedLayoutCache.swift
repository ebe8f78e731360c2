import Synchronization

/// The text form of one tape's layout (``EffectFields/encode(_:)``), computed once.
///
/// The encoding is a pure function of the layout, so remembering it changes no result; it only
/// spares a tape of many messages from being encoded again each time its timeline is published
/// or stored (a tape stays the same, as `tape` or as the pending `next`, across many of those).
/// A tape whose layout is set anew gets a new cache (``Tape/layout``).
final class EncodedLayoutCache: Sendable {
    private let encoded = Mutex<String?>(nil)
    /// How many encodings were computed (not found) so far, for tests.
    private let computed = Atomic<Int>(0)

    /// The encoding of `layout` (the layout of the tape whose cache this is).
    func encoding(of layout: TapeLayout) -> String {
        if let known = encoded.withLock({ $0 }) { return known }
        let text = EffectFields.encode(layout)
        computed.add(1, ordering: .relaxed)
        encoded.withLock { $0 = text }
        return text
    }

    /// How many encodings were computed rather than found.
    var computations: Int { computed.load(ordering: .relaxed) }
}

extension Tape {
    /// The layout's text form (``EffectFields/encode(_:)``), computed once per layout; nil for
    /// tapes without a layout.
    public var encodedLayout: String? {
        layout.map { encodedLayouts.encoding(of: $0) }
    }
}

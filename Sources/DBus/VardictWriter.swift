/// Receives the entries of an `a{sv}` property value one by one, in the order given (see
/// ``Property/init(_:emitsChangedSignal:annotations:vardict:)``).
///
/// The same writing code serves both ways the value is read: for a `PropertiesChanged` signal
/// the entries go straight into the message's bytes, with no tree of ``DBusValue``s built and
/// freed; for `Get` and `GetAll` they are collected as ``DBusDictEntry``s.
public struct VardictWriter {
    /// Where the entries go.
    enum Target {
        /// Into ``encoder``, inside `variantDepth` variants.
        case wire(variantDepth: Int)
        /// Into ``entries``.
        case entries
    }

    let target: Target
    /// The message bytes (``Target/wire(variantDepth:)``).
    var encoder = WireEncoder(capacity: 0)
    /// The entries (``Target/entries``).
    private(set) var entries: [DBusDictEntry] = []

    init(_ target: Target) {
        self.target = target
    }

    /// Adds the entry `key` → `value` (the variant's contents). Throws `InvalidArgs` when the key
    /// or the value cannot travel (a NUL in a string, an ill-formed container).
    public mutating func add(_ key: String, _ value: DBusValue) throws {
        switch target {
        case .entries:
            entries.append(DBusDictEntry(key: .string(key), value: .variant(value)))
        case .wire(let variantDepth):
            encoder.pad(to: 8)
            try encoder.appendCheckedString(key)
            try encoder.appendVariant(holding: value, variantDepth: variantDepth)
        }
    }
}

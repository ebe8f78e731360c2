/// Receives the entries of an `a{sv}` property value one by one, in the order given (see
/// ``Property/init(_:emitsChangedSignal:annotations:vardict:)``); `Get`, `GetAll` and
/// `PropertiesChanged` all carry them in that order.
public struct VardictWriter {
    /// The entries written so far.
    private(set) var entries: [DBusDictEntry] = []

    init() {}

    /// Adds the entry `key` → `value` (the variant's contents). Whether the key and value can
    /// travel (no NUL in a string, well-formed containers) is checked when the message is built.
    public mutating func add(_ key: String, _ value: DBusValue) throws {
        entries.append(DBusDictEntry(key: .string(key), value: .variant(value)))
    }
}

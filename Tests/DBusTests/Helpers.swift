import DBus
import Foundation

/// An object path from a literal known to be valid (the root when it is not, so a typo fails the
/// test's expectations instead of crashing).
func path(_ text: String) -> ObjectPath { (try? ObjectPath(text)) ?? .root }

/// A signature from a literal known to be valid.
func signature(_ text: String) -> Signature { (try? Signature(text)) ?? .empty }

/// The reference formatter for busctl's argument syntax, written independently of the library:
/// containers give their element count, variants their signature, structures their fields.
enum BusctlFormat {
    static func tokens(_ value: DBusValue, quoted: Bool) -> [String] {
        func text(_ string: String) -> String { quoted ? "\"" + string + "\"" : string }
        switch value {
        case .byte(let v): return [String(v)]
        case .bool(let v): return [v ? "true" : "false"]
        case .int16(let v): return [String(v)]
        case .uint16(let v): return [String(v)]
        case .int32(let v): return [String(v)]
        case .uint32(let v): return [String(v)]
        case .int64(let v): return [String(v)]
        case .uint64(let v): return [String(v)]
        case .double(let v): return [String(format: "%g", v)]
        case .string(let v): return [text(v)]
        case .objectPath(let v): return [text(v.rawValue)]
        case .signature(let v): return [text(v.rawValue)]
        case .unixFD(let v): return [String(v)]
        case .array(_, let items): return [String(items.count)] + items.flatMap { tokens($0, quoted: quoted) }
        case .dictionary(_, _, let entries):
            return [String(entries.count)] + entries.flatMap { tokens($0.key, quoted: quoted) + tokens($0.value, quoted: quoted) }
        case .structure(let fields): return fields.flatMap { tokens($0, quoted: quoted) }
        case .variant(let inner): return [inner.type.signature] + tokens(inner, quoted: quoted)
        }
    }

    /// busctl's command-line arguments for one value: its signature, then its tokens.
    static func arguments(_ value: DBusValue) -> [String] {
        [value.type.signature] + tokens(value, quoted: false)
    }

    /// What `busctl call` prints for a reply holding `value`.
    static func printed(_ value: DBusValue) -> String {
        ([value.type.signature] + tokens(value, quoted: true)).joined(separator: " ")
    }
}

import DBus

extension DBusValue {
    /// The value as JSON: numbers as numbers, strings and paths as strings, arrays as arrays,
    /// dictionaries with string keys as objects (sorted by key), structures as arrays.
    var json: JSONValue {
        switch self {
        case .byte(let value): return .integer(Int64(value))
        case .bool(let value): return .bool(value)
        case .int16(let value): return .integer(Int64(value))
        case .uint16(let value): return .integer(Int64(value))
        case .int32(let value): return .integer(Int64(value))
        case .uint32(let value): return .integer(Int64(value))
        case .int64(let value): return .integer(value)
        case .uint64(let value): return value <= UInt64(Int64.max) ? .integer(Int64(value)) : .number(Double(value))
        case .double(let value): return .number(value)
        case .string(let value): return .string(value)
        case .objectPath(let value): return .string(value.rawValue)
        case .signature(let value): return .string(value.description)
        case .unixFD(let value): return .integer(Int64(value))
        case .array(_, let items): return .array(items.map(\.json))
        case .dictionary(_, _, let entries):
            let members = entries.map { entry -> (String, JSONValue) in
                (entry.key.stringValue ?? entry.key.plainText, entry.value.json)
            }
            return .object(members.sorted { $0.0 < $1.0 })
        case .structure(let fields): return .array(fields.map(\.json))
        case .variant(let inner): return inner.json
        }
    }

    /// The value as a person reads it on one line (strings unquoted, times left as numbers).
    var plainText: String {
        switch self {
        case .string(let value): return value
        case .bool(let value): return value ? "yes" : "no"
        case .double(let value):
            return value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
        case .variant(let inner): return inner.plainText
        case .array(_, let items): return items.map(\.plainText).joined(separator: ",")
        default: return json.text
        }
    }
}

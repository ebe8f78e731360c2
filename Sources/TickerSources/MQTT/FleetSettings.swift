import DBus

/// A channel's settings as a fleet publishes them: a JSON object of `Configure` keys, passed to
/// tickerd as they are so that every key tickerd knows (now or later) can travel.
///
/// Guarantees: strings become `s` and booleans `b`; numbers take the D-Bus type tickerd's
/// `Configure` wants for the keys listed in ``numberTypes``, and otherwise `x` for an integer and
/// `d` for a fraction. tickerd itself judges the keys and values (its error is logged). `reset`
/// is refused: the source sends it itself with every `$settings`.
enum FleetSettings {
    /// The D-Bus type of the numeric `Configure` keys.
    static let numberTypes: [String: Character] = [
        "speed": "d", "frame-rate": "d", "cycle": "x", "delay": "x", "loops": "u", "columns": "u",
    ]

    /// The `Configure` dictionary of a payload.
    static func parse(_ bytes: [UInt8]) throws(FleetPayloadError) -> [String: DBusValue] {
        guard case .object(let object) = try JSONValue.parse(bytes) else {
            throw FleetPayloadError("the settings must be a JSON object of Configure keys")
        }
        guard !object.isEmpty else { throw FleetPayloadError("the settings object is empty") }
        var settings: [String: DBusValue] = [:]
        for (key, value) in object {
            guard key != "reset" else {
                throw FleetPayloadError("\"reset\" is not a setting: each $settings starts from the channel's configured settings")
            }
            settings[key] = try convert(key, value)
        }
        return settings
    }

    private static func convert(_ key: String, _ value: JSONValue) throws(FleetPayloadError) -> DBusValue {
        switch value {
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .integer(let number):
            switch numberTypes[key] {
            case "d": return .double(Double(number))
            case "u":
                guard let exact = UInt32(exactly: number) else {
                    throw FleetPayloadError("\"\(key)\" must be 0 to 4294967295")
                }
                return .uint32(exact)
            default: return .int64(number)
            }
        case .number(let number):
            guard numberTypes[key] == nil || numberTypes[key] == "d" else {
                throw FleetPayloadError("\"\(key)\" must be an integer")
            }
            return .double(number)
        default:
            throw FleetPayloadError("\"\(key)\" must be a string, a boolean or a number, got \(value.typeName)")
        }
    }
}

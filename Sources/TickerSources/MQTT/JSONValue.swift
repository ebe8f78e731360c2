import Foundation

/// A JSON value as the fleet's payloads carry it, with integers kept apart from fractions (so
/// `40` can be a D-Bus `x` and `2.5` a `d`).
///
/// Guarantees: decoding accepts exactly RFC 8259 JSON (what Foundation's decoder accepts);
/// booleans never read as numbers.
enum JSONValue: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses `bytes` as one JSON value; the error says what is wrong in words.
    static func parse(_ bytes: [UInt8]) throws(FleetPayloadError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw FleetPayloadError("not valid JSON: \(detail ?? context.debugDescription)")
        } catch {
            throw FleetPayloadError("not valid JSON: \(error)")
        }
    }

    /// The JSON type's name, for errors.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

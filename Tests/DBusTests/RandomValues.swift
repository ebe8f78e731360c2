import TestSupport
import DBus


/// Random types and values of those types, nested a few levels.
enum RandomValues {
    static let basicTypes: [DBusType] = [
        .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath, .signature,
    ]

    static func type(_ rng: inout SeededRandom, depth: Int) -> DBusType {
        let choice = depth >= 3 ? 0 : Int.random(in: 0..<9, using: &rng)
        switch choice {
        case 5: return .array(type(&rng, depth: depth + 1))
        case 6: return .dictionary(key: basicTypes.randomElement(using: &rng) ?? .string, value: type(&rng, depth: depth + 1))
        case 7: return .structure((0..<Int.random(in: 1...3, using: &rng)).map { _ in type(&rng, depth: depth + 1) })
        case 8: return .variant
        default: return basicTypes.randomElement(using: &rng) ?? .int32
        }
    }

    static func word(_ rng: inout SeededRandom) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        return String((0..<Int.random(in: 1...8, using: &rng)).map { _ in letters.randomElement(using: &rng) ?? "a" })
    }

    static func value(of type: DBusType, _ rng: inout SeededRandom, depth: Int = 0) -> DBusValue {
        switch type {
        case .byte: return .byte(UInt8.random(in: .min ... .max, using: &rng))
        case .bool: return .bool(Bool.random(using: &rng))
        case .int16: return .int16(Int16.random(in: .min ... .max, using: &rng))
        case .uint16: return .uint16(UInt16.random(in: .min ... .max, using: &rng))
        case .int32: return .int32(Int32.random(in: .min ... .max, using: &rng))
        case .uint32: return .uint32(UInt32.random(in: .min ... .max, using: &rng))
        case .int64: return .int64(Int64.random(in: .min ... .max, using: &rng))
        case .uint64: return .uint64(UInt64.random(in: .min ... .max, using: &rng))
        case .double: return .double(Double(Int.random(in: -4000...4000, using: &rng)) / 4)
        case .string: return .string(word(&rng) + (Bool.random(using: &rng) ? " é✓" : ""))
        case .objectPath:
            let elements = (0..<Int.random(in: 0...3, using: &rng)).map { _ in word(&rng) }
            return .objectPath(path("/" + elements.joined(separator: "/")))
        case .signature: return .signature((try? Signature(types: [self.type(&rng, depth: 1)])) ?? .empty)
        case .unixFD: return .int32(0)
        case .array(let element):
            return .array(element, (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(of: element, &rng, depth: depth + 1) })
        case .dictionary(let key, let valueType):
            return .dictionary(key: key, value: valueType, (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                DBusDictEntry(key: value(of: key, &rng, depth: depth + 1), value: value(of: valueType, &rng, depth: depth + 1))
            })
        case .structure(let fields): return .structure(fields.map { value(of: $0, &rng, depth: depth + 1) })
        case .variant:
            let inner = depth >= 3 ? DBusType.int32 : self.type(&rng, depth: depth + 1)
            return .variant(value(of: inner, &rng, depth: depth + 1))
        }
    }
}

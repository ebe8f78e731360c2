import Glibc

/// Writes ``DBusValue``s in the D-Bus wire format (little-endian) in one pass over the values:
/// the body of a ``WireMessage``.
///
/// Offsets are aligned from the start of the bytes, so the encoder must start at an 8-aligned
/// offset of the message (a body always does). `WireMessageTests` compares its bytes with
/// libdbus's for random values.
struct WireEncoder {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// The largest array the specification allows (64 MiB).
    static let maxArrayLength = 1 << 26

    /// An empty encoder with room for `capacity` bytes.
    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes zeros up to the next multiple of `alignment` (1, 2, 4 or 8).
    ///
    /// The small writes here append byte by byte (`append(contentsOf:)` has a fixed cost per
    /// call however few bytes it copies).
    mutating func pad(to alignment: Int) {
        var remainder = bytes.count & (alignment - 1)
        guard remainder != 0 else { return }
        while remainder < alignment {
            bytes.append(0)
            remainder += 1
        }
    }

    /// Writes a byte (`y`).
    mutating func appendByte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Writes an aligned little-endian `UInt32`.
    mutating func appendUInt32(_ value: UInt32) {
        appendFixed(value)
    }

    private mutating func appendFixed<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        var shift = 0
        while shift < T.bitWidth {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift += 8
        }
    }

    /// Writes a string or object path (`s`, `o`): its length, its UTF-8 bytes and a NUL.
    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendStringBytes($0) }
    }

    /// Writes a string's UTF-8 bytes `utf8` with its length before and a NUL after.
    private mutating func appendStringBytes(_ utf8: UnsafeBufferPointer<UInt8>) {
        appendUInt32(UInt32(truncatingIfNeeded: utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    /// Writes a signature (`g`) from its bytes: a one-byte length, the bytes and a NUL.
    mutating func appendSignature(_ signature: [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: signature.count))
        bytes.append(contentsOf: signature)
        bytes.append(0)
    }

    /// Writes a signature holding only the basic type code `code`.
    mutating func appendBasicSignature(_ code: UInt8) {
        bytes.append(1)
        bytes.append(code)
        bytes.append(0)
    }

    /// Writes `raw` as it is (an encoded body after its header).
    mutating func appendRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Overwrites the `UInt32` at `offset` (written earlier as a placeholder).
    mutating func patchUInt32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { source in
            for index in 0..<4 { bytes[offset + index] = source[index] }
        }
    }

    /// Writes an array's length placeholder and padding, the elements written by `body`, then
    /// the length. Throws `InvalidArgs` when the elements pass the specification's 64 MiB.
    mutating func appendArray(elementAlignment: Int, _ body: (inout WireEncoder) throws -> Void) throws {
        appendUInt32(0)
        let lengthOffset = bytes.count - 4
        pad(to: elementAlignment)
        let start = bytes.count
        try body(&self)
        let length = bytes.count - start
        guard length <= Self.maxArrayLength else {
            throw DBusError.invalidArgs("array of \(length) bytes is longer than the specification's 64 MiB")
        }
        patchUInt32(UInt32(length), at: lengthOffset)
    }

    /// Thrown for a file descriptor (`h`): only libdbus can pass one.
    struct FileDescriptorFound: Error {}

    /// Writes `value`, checking it as ``DBusValue/validate()`` does (the caller checks the
    /// signature limits of its outermost type) in the same pass: containers hold what they
    /// declare, keys are basic, structures are not empty, strings hold no NUL, variants nest at
    /// most 64 deep. Throws `InvalidArgs` for what `validate()` refuses and for an array past
    /// 64 MiB, and ``FileDescriptorFound`` for a file descriptor. `WireMessageTests` checks that
    /// it refuses exactly what `validate()` refuses.
    mutating func append(_ value: DBusValue, variantDepth: Int = 0) throws {
        switch value {
        case .byte(let v): bytes.append(v)
        case .bool(let v): appendUInt32(v ? 1 : 0)
        case .int16(let v): appendFixed(v)
        case .uint16(let v): appendFixed(v)
        case .int32(let v): appendFixed(v)
        case .uint32(let v): appendFixed(v)
        case .int64(let v): appendFixed(v)
        case .uint64(let v): appendFixed(v)
        case .double(let v): appendFixed(v.bitPattern)
        case .string(let v): try appendCheckedString(v)
        case .objectPath(let v): appendString(v.rawValue)
        case .signature(let v): appendSignature(Array(v.rawValue.utf8))
        case .unixFD:
            throw FileDescriptorFound()
        case .array(let element, let items):
            try appendArray(elementAlignment: element.alignment) { encoder in
                for item in items {
                    guard item.hasType(element) else {
                        throw DBusError.invalidArgs("array of '\(element)' holds a '\(item.type)'")
                    }
                    try encoder.append(item, variantDepth: variantDepth)
                }
            }
        case .dictionary(let key, let valueType, let entries):
            guard key.isBasic else { throw DBusError.invalidArgs("dictionary key type '\(key)' is not basic") }
            try appendArray(elementAlignment: 8) { encoder in
                for entry in entries {
                    guard entry.key.hasType(key), entry.value.hasType(valueType) else {
                        throw DBusError.invalidArgs(
                            "dictionary 'a{\(key)\(valueType)}' holds an entry of '\(entry.key.type)' → '\(entry.value.type)'")
                    }
                    encoder.pad(to: 8)
                    try encoder.append(entry.key, variantDepth: variantDepth)
                    try encoder.append(entry.value, variantDepth: variantDepth)
                }
            }
        case .structure(let fields):
            // Never empty: its type was checked (as an argument's, an element's, a variant's).
            pad(to: 8)
            for field in fields { try append(field, variantDepth: variantDepth) }
        case .variant(let inner):
            try appendVariant(holding: inner, variantDepth: variantDepth)
        }
    }

    /// Writes a variant holding `inner` (its signature, then the value) inside `variantDepth`
    /// variants, checked as ``append(_:variantDepth:)`` checks a `.variant`.
    mutating func appendVariant(holding inner: DBusValue, variantDepth: Int) throws {
        guard variantDepth < 64 else { throw DBusError.invalidArgs("variants nested deeper than 64") }
        // The values a Timeline or a frame's extras hold, without asking for their type first
        // (~half of an `a{sv}` entry's cost).
        switch inner {
        case .string(let text):
            appendBasicSignature(UInt8(ascii: "s"))
            try appendCheckedString(text)
            return
        case .double(let number):
            appendBasicSignature(UInt8(ascii: "d"))
            appendFixed(number.bitPattern)
            return
        case .int64(let number):
            appendBasicSignature(UInt8(ascii: "x"))
            appendFixed(number)
            return
        case .uint32(let number):
            appendBasicSignature(UInt8(ascii: "u"))
            appendFixed(number)
            return
        default:
            break
        }
        let type = inner.type
        if let code = type.basicCode {
            appendBasicSignature(code)
        } else {
            try type.checkSignatureLimits()
            var signature: [UInt8] = []
            type.appendSignature(to: &signature)
            appendSignature(signature)
        }
        try append(inner, variantDepth: variantDepth + 1)
    }

    /// Writes a string argument, refusing a NUL character (the wire format ends strings with one).
    mutating func appendCheckedString(_ text: String) throws {
        var text = text
        try text.withUTF8 { utf8 in
            if let base = utf8.baseAddress, memchr(base, 0, utf8.count) != nil {
                throw DBusError.invalidArgs("strings cannot contain a NUL character")
            }
            appendStringBytes(utf8)
        }
    }
}

extension DBusType {
    /// The alignment of a value of this type on the wire.
    var alignment: Int {
        switch self {
        case .byte, .signature, .variant: return 1
        case .int16, .uint16: return 2
        case .bool, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: return 4
        case .int64, .uint64, .double, .structure: return 8
        }
    }

    /// Appends this type's signature bytes (``signature`` without building strings).
    func appendSignature(to bytes: inout [UInt8]) {
        if let code = basicCode {
            bytes.append(code)
            return
        }
        switch self {
        case .variant:
            bytes.append(UInt8(ascii: "v"))
        case .array(let element):
            bytes.append(UInt8(ascii: "a"))
            element.appendSignature(to: &bytes)
        case .dictionary(let key, let value):
            bytes.append(UInt8(ascii: "a"))
            bytes.append(UInt8(ascii: "{"))
            key.appendSignature(to: &bytes)
            value.appendSignature(to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        case .structure(let fields):
            bytes.append(UInt8(ascii: "("))
            for field in fields { field.appendSignature(to: &bytes) }
            bytes.append(UInt8(ascii: ")"))
        default:
            break
        }
    }
}

/// A JSON encoder for the state journal's records that writes bytes as the values are encoded:
/// no tree of boxed values, no key sorting, no `Data`. Foundation's `JSONEncoder` spent ~600k
/// instructions on one record of a Post (most of a Post's CPU time); this writes the same JSON
/// (read back by `JSONDecoder`) for a fraction of that.
///
/// Containers are written as they are opened and closed when a value of an enclosing container
/// is written or the value that opened them has finished encoding, which is how the synthesized
/// `Codable` conformances use them.
struct StreamingJSONEncoder {
    /// The JSON text of `value`.
    func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = JSONStreamWriter()
        try writer.writeValue(value)
        writer.close(toDepth: 0)
        return writer.bytes
    }
}

/// The output and the stack of open containers, shared by the encoder and its containers.
final class JSONStreamWriter {
    /// The JSON written so far.
    private(set) var bytes: [UInt8] = []
    /// The open containers, innermost last: whether each is an object, and whether it has an element yet.
    private var open: [(isObject: Bool, hasElement: Bool)] = []

    init() {
        bytes.reserveCapacity(1024)
    }

    /// How many containers are open.
    var depth: Int { open.count }

    /// Writes `value` (whatever its encoding opens is closed again when it returns).
    func writeValue<T: Encodable>(_ value: T) throws {
        // A channel's timeline is most of a record: written directly (an exact type match, so
        // that no other dictionary is ever converted to it).
        if T.self == [String: StoredTimelineValue].self, let timeline = value as? [String: StoredTimelineValue] {
            return try StoredTimelineValue.writeJSON(timeline, to: self)
        }
        let depth = open.count
        try value.encode(to: StreamingEncoder(writer: self))
        close(toDepth: depth)
    }

    /// Closes the containers above `depth`.
    func close(toDepth depth: Int) {
        while open.count > depth {
            let container = open.removeLast()
            bytes.append(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Opens an object or array at the current place.
    func openContainer(isObject: Bool) {
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        open.append((isObject, false))
    }

    /// Prepares for the next element of the container at `level` (1-based depth): closes what is
    /// open inside it, writes the separator and, in an object, the key.
    func beginElement(level: Int, key: String?) {
        close(toDepth: level)
        if open[level - 1].hasElement { bytes.append(UInt8(ascii: ",")) }
        open[level - 1].hasElement = true
        if let key {
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Writes `text` as a JSON string: runs of plain bytes are copied at once; quotes, backslashes and
    /// control characters are escaped.
    func writeString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var escaped: [UInt8] = [UInt8(ascii: "\"")]
            escaped.reserveCapacity(utf8.count + 2)
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                escaped.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped.append(contentsOf: [UInt8(ascii: "\\"), byte])
                default: escaped.append(contentsOf: Self.unicodeEscape(byte))
                }
            }
            escaped.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            escaped.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: escaped)
        }
    }

    /// `\u00XX` for a control character.
    private static func unicodeEscape(_ byte: UInt8) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    }

    /// Writes a finite number (JSON has no infinities or NaN).
    func writeDouble(_ number: Double) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(codingPath: [], debugDescription: "\(number) is not a JSON number"))
        }
        writeRaw(number.description)
    }

    /// Writes an integer.
    func writeInteger<T: BinaryInteger>(_ number: T) {
        writeRaw(number.description)
    }

    /// Writes `text` as it is (a literal or a number).
    func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}

/// The `Encoder` handed to `encode(to:)`: each container it gives writes at the writer's current place.
private struct StreamingEncoder: Encoder {
    let writer: JSONStreamWriter
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.openContainer(isObject: true)
        return KeyedEncodingContainer(StreamingKeyedContainer(writer: writer, level: writer.depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.openContainer(isObject: false)
        return StreamingUnkeyedContainer(writer: writer, level: writer.depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(writer: writer)
    }
}

private struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    /// The container's depth in the writer's stack.
    let level: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeRaw("null")
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeRaw(value ? "true" : "false")
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        try writer.writeDouble(value)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        writer.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.beginElement(level: level, key: key.stringValue)
        try writer.writeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        writer.beginElement(level: level, key: key.stringValue)
        return StreamingEncoder(writer: writer).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.beginElement(level: level, key: key.stringValue)
        return StreamingEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginElement(level: level, key: "super")
        return StreamingEncoder(writer: writer)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.beginElement(level: level, key: key.stringValue)
        return StreamingEncoder(writer: writer)
    }
}

private struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    /// The container's depth in the writer's stack.
    let level: Int
    var codingPath: [any CodingKey] { [] }
    private(set) var count = 0

    init(writer: JSONStreamWriter, level: Int) {
        self.writer = writer
        self.level = level
    }

    mutating func encodeNil() throws {
        writer.beginElement(level: level, key: nil)
        count += 1
        writer.writeRaw("null")
    }

    mutating func encode(_ value: String) throws {
        writer.beginElement(level: level, key: nil)
        count += 1
        writer.writeString(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        writer.beginElement(level: level, key: nil)
        count += 1
        try writer.writeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        writer.beginElement(level: level, key: nil)
        count += 1
        return StreamingEncoder(writer: writer).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.beginElement(level: level, key: nil)
        count += 1
        return StreamingEncoder(writer: writer).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.beginElement(level: level, key: nil)
        count += 1
        return StreamingEncoder(writer: writer)
    }
}

private struct StreamingSingleValueContainer: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { writer.writeRaw("null") }
    mutating func encode(_ value: Bool) throws { writer.writeRaw(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { writer.writeString(value) }
    mutating func encode(_ value: Double) throws { try writer.writeDouble(value) }
    mutating func encode(_ value: Float) throws { try writer.writeDouble(Double(value)) }
    mutating func encode(_ value: Int) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try writer.writeValue(value) }
}

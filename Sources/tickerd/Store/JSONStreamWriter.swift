/// Writes the state journal's JSON as bytes, value by value: no tree of boxed values, no key
/// sorting, no `Data`, no generic `Encoder` machinery. The records' types write themselves
/// through it (`StateChange+JSON.swift`, `StoredTimelineValue+JSON.swift`) in the form their
/// synthesized `Codable` conformances read back.
final class JSONStreamWriter {
    /// The bytes written so far: `count` of `capacity` allocated.
    ///
    /// A buffer of its own rather than an `Array`, for the many short writes of a record
    /// (punctuation, keys, numbers). Unchecked for exclusive
    /// access at run time: every access is made by this class on the caller's thread, none
    /// overlaps another.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity: Int

    /// An empty writer.
    init() {
        // A Post's record is 1–3 KB; room for it at once (no copies while it grows).
        capacity = 4096
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The JSON written so far.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    private func grow(toHold needed: Int) {
        let grown = max(capacity * 2, needed)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    @inline(__always)
    private func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    private func append(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, !raw.isEmpty else { return }
        reserve(raw.count)
        (storage + count).update(from: base, count: raw.count)
        count += raw.count
    }

    /// Writes `text` as a JSON string: runs of plain bytes are copied at once; quotes, backslashes
    /// and control characters are escaped.
    func writeString(_ text: String) {
        append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let count = utf8.count
            var runStart = 0
            var index = 0
            while index < count {
                // Eight bytes at a time while none of them needs escaping (texts rarely hold one).
                while index + 8 <= count,
                      !Self.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                }
                guard index < count else { break }
                let byte = base[index]
                index += 1
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<(index - 1)]))
                runStart = index
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    append(UInt8(ascii: "\\"))
                    append(byte)
                default:
                    Self.unicodeEscape(byte).withUnsafeBufferPointer { append($0) }
                }
            }
            append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether one of the eight bytes of `word` may be a quote, a backslash or a control
    /// character (never false when one is; the caller then looks at each byte).
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20 borrows into its high bit; a byte equal to n turns to 0 under `^ n`.
        func hasByteBelow(_ limit: UInt64) -> Bool { (word &- ones &* limit) & ~word & highs != 0 }
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return hasByteBelow(0x20) || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// `\u00XX` for a control character.
    private static func unicodeEscape(_ byte: UInt8) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    }

    /// Writes a finite number (JSON has no infinities or NaN).
    func writeDouble(_ number: Double) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number, EncodingError.Context(codingPath: [], debugDescription: "\(number) is not a JSON number"))
        }
        writeRaw(number.description)
    }

    /// Writes an integer.
    func writeInteger<T: BinaryInteger>(_ number: T) {
        guard let value = Int64(exactly: number) else {
            writeRaw(number.description)
            return
        }
        // Digits written backwards into a small buffer: no `String` for each number.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: "-9223372036854775808" is 20
        var magnitude = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            reserve(buffer.count - start)
            for byte in buffer[start...] { append(byte) }
        }
    }

    /// Writes `text` as it is (a literal or a number).
    func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Writes the literal `text` as it is (punctuation, a fixed key), copied from the binary's
    /// constant bytes without going through a `String`.
    func writeLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Writes `raw` as it is.
    func writeBytes(_ raw: UnsafeBufferPointer<UInt8>) {
        append(raw)
    }
}

/// A value that writes itself as JSON through a ``JSONStreamWriter`` (the journal's records and
/// the snapshot).
protocol JSONStreamWritable {
    /// Writes this value as one JSON value.
    func writeJSON(to writer: JSONStreamWriter) throws
}

extension JSONStreamWritable {
    /// This value's JSON.
    func jsonBytes() throws -> [UInt8] {
        let writer = JSONStreamWriter()
        try writeJSON(to: writer)
        return writer.bytes
    }
}

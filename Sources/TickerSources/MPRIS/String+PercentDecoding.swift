extension String {
    /// The text with `%XX` escapes decoded (invalid ones kept as they are).
    var percentDecoded: String {
        var bytes: [UInt8] = []
        var source = Array(utf8)[...]
        while let byte = source.popFirst() {
            if byte == UInt8(ascii: "%"), source.count >= 2,
               let value = UInt8(String(decoding: source.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                source = source.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

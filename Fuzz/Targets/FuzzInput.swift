/// One fuzz input: its raw bytes, with helpers to take a few parameter bytes off the front.
struct FuzzInput: Sendable {
    /// The bytes as libFuzzer gave them.
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes as text (invalid UTF-8 becomes U+FFFD, as a D-Bus or file reader would refuse or
    /// repair it before it reached a parser).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The first byte (0 when empty) and the text of the rest: a parameter and a subject.
    var parameterAndText: (UInt8, String) {
        guard let first = bytes.first else { return (0, "") }
        return (first, String(decoding: bytes.dropFirst(), as: UTF8.self))
    }
}

import Glibc

/// The TEXT argument of `post` and `update`: `-` reads standard input.
enum MessageText {
    /// `argument`, or all of stdin without its trailing line breaks when `argument` is `-`.
    static func resolve(_ argument: String) throws(UsageError) -> String {
        guard argument == "-" else { return argument }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw UsageError("cannot read standard input: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("standard input is not valid UTF-8")
        }
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" {
            text.unicodeScalars.removeLast()
        }
        return text
    }
}

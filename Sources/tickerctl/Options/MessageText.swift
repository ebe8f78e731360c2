import Glibc
import TickerHost

/// The TEXT argument of `post` and `update`: `-` reads standard input.
enum MessageText {
    /// `argument`, or all of stdin without its trailing line breaks when `argument` is `-`.
    static func resolve(_ argument: String) throws(UsageError) -> String {
        guard argument == "-" else { return argument }
        let bytes: [UInt8]
        do {
            bytes = try DescriptorReader.bytes(of: STDIN_FILENO)
        } catch {
            throw UsageError("cannot read standard input: \(error.reason)")
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

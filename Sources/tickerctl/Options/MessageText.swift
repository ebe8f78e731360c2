import Foundation

/// The TEXT argument of `post` and `update`: `-` reads standard input.
enum MessageText {
    /// `argument`, or all of stdin without its trailing line breaks when `argument` is `-`.
    static func resolve(_ argument: String) throws(UsageError) -> String {
        guard argument == "-" else { return argument }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard var text = String(data: data, encoding: .utf8) else {
            throw UsageError("standard input is not valid UTF-8")
        }
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" {
            text.unicodeScalars.removeLast()
        }
        return text
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Stops the fuzzer with `message` when a property does not hold: libFuzzer keeps the input as a
/// crash file, and the message says which property failed and why.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if condition() { return }
    writeToStandardError("PROPERTY FAILED at \(file):\(line): \(message())\n")
    abort()
}

/// Writes `text` to file descriptor 2 (the C `stderr` global is not concurrency-safe in Swift 6).
func writeToStandardError(_ text: String) {
    var copy = text
    copy.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

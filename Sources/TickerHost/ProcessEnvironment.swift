import Glibc

/// The process environment, read from `environ` without Foundation, so that reading it at start
/// runs none of Foundation's code (each function a start touches maps pages of the binary).
public enum ProcessEnvironment {
    /// Every `NAME=value` entry of the environment now, split at its first `=`; an entry without
    /// one is left out, and of a name given twice the last entry is kept (as `ProcessInfo` does).
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let current = entry, let pointer = current.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry = current + 1
        }
        return result
    }
}

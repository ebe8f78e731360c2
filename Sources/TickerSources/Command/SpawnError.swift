import Glibc

/// A system call that failed while starting a command.
public struct SpawnError: Error, CustomStringConvertible {
    /// The call.
    public let call: String
    /// Its errno.
    public let code: Int32
    /// `call: strerror`.
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}

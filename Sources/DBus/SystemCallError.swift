import Glibc

/// A failed Linux system call, with the call's name and `errno`.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system call or helper that failed, e.g. `"epoll_ctl"`.
    public let call: String
    /// The `errno` value it set.
    public let code: Int32

    /// Describes a failure of `call` with error number `code`.
    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// Captures the current `errno` for `call`.
    static func last(_ call: String) -> SystemCallError {
        SystemCallError(call: call, code: errno)
    }

    /// `"<call>: <strerror>"`.
    public var description: String {
        "\(call): \(String(cString: strerror(code)))"
    }
}

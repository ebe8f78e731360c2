import Glibc

/// Reads a file descriptor to its end with read(2), the one loop the executables share (a
/// state file, a zone file, standard input).
public enum DescriptorReader {
    /// Every byte `fd` gives until its end; a read interrupted by a signal is retried.
    public static func bytes(of fd: Int32) throws(ReadFailure) -> [UInt8] {
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(code: errno)
            }
            if count == 0 { return content }
            content.append(contentsOf: chunk[..<count])
        }
    }

    /// A read that failed: its `errno`.
    public struct ReadFailure: Error, Equatable {
        /// The `errno` of the failed read(2).
        public let code: Int32

        /// The system's words for it (strerror).
        public var reason: String { String(cString: strerror(code)) }
    }
}

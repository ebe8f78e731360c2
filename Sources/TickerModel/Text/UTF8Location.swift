/// Where a byte sequence stops being UTF-8, as a person finds it in an editor: the config loaders
/// and the calendar reader name it in their errors.
public enum UTF8Location {
    /// The line (1-based, counted by LF) and column (1-based, in scalars from the line's start) of
    /// the first byte that is not part of valid UTF-8, or nil when all of `bytes` is UTF-8.
    public static func firstInvalid(in bytes: some Collection<UInt8>) -> (line: Int, column: Int)? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                return (line, column)
            }
        }
    }
}

/// The mistakes of a configuration file read section by section, or of a section read key by key.
/// A section (`[limits]`, a `[channel.NAME]`, a `[[message]]`, a `[[source]]`) or key with a
/// mistake is left out and the next one is read, so one check names every mistake it can rather
/// than only the file's first; the refusal is the first of them in the file, listing the others
/// in file order (``ConfigError/more``, at most ``listed`` in all, the rest counted).
public struct ConfigProblems {
    /// The most mistakes one error lists; further ones are counted.
    public static let listed = 20

    private var found: ConfigError?

    /// No mistake yet.
    public init() {}

    /// Whether no mistake was noted.
    public var isEmpty: Bool { found == nil }

    /// Runs `read`, the reading of one section: its value, or nil with its mistake noted.
    public mutating func reading<T>(_ read: () throws(ConfigError) -> T) -> T? {
        do {
            return try read()
        } catch {
            note(error)
            return nil
        }
    }

    /// Runs `read`, the reading of one key that may be absent: its value (nil when absent), or nil
    /// with its mistake noted.
    public mutating func value<T>(_ read: () throws(ConfigError) -> T?) -> T? {
        reading(read) ?? nil
    }

    /// Notes `error` (and the mistakes it lists).
    public mutating func note(_ error: ConfigError) {
        for mistake in error.listed {
            if found == nil {
                found = mistake
            } else if found!.more.count + 1 < Self.listed {
                found!.more.append(mistake)
            } else {
                found!.unlisted += 1
            }
        }
        found?.unlisted += error.unlisted
    }

    /// Throws the mistakes noted, if any: the first in the file, listing the others in file
    /// order (of the first ``listed`` found).
    public func check() throws(ConfigError) {
        guard let found else { return }
        let ordered = found.listed.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        var first = ordered[0].element
        first.more = ordered.dropFirst().map(\.element)
        first.unlisted = found.unlisted
        throw first
    }
}

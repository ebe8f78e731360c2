@testable import TickerModel

/// Time spans (`10h`, `1min 30s`, `1.5s`). Properties: a span that parses is not negative, and it
/// formats (as systemd's `format_timespan`) to text that parses back to exactly the same span —
/// the same value the daemon would show a user in `tickerctl list` is the one it stored.
enum TimeSpanTarget {
    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 256 else { return }
        let (parameter, text) = input.parameterAndText
        let unit: Int64 = parameter & 1 == 0 ? Microseconds.perSecond : 1
        guard let span = try? TimeSpan(parsing: text, defaultUnit: unit) else { return }
        require(span.microseconds >= 0, "'\(text)' parses to a negative span \(span.microseconds)")
        let formatted = span.formatted()
        do {
            let again = try TimeSpan(parsing: formatted)
            require(again == span, "'\(text)' is \(span.microseconds) µs, formats as '\(formatted)', which is \(again.microseconds) µs")
        } catch {
            require(false, "'\(text)' is \(span.microseconds) µs, formats as '\(formatted)', which does not parse: \(error)")
        }
    }
}

/// Why a time span could not be read.
public struct TimeSpanParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// What is wrong with it.
    public let reason: String
    /// A description a person can act on.
    public var description: String { "invalid time span '\(text)': \(reason)" }
}

extension TimeSpan {
    /// Units in systemd's matching order (the first prefix that matches wins).
    private static let units: [(String, Int64)] = [
        ("seconds", Microseconds.perSecond), ("second", Microseconds.perSecond),
        ("sec", Microseconds.perSecond), ("s", Microseconds.perSecond),
        ("minutes", Microseconds.perMinute), ("minute", Microseconds.perMinute),
        ("min", Microseconds.perMinute), ("months", Microseconds.perMonth),
        ("month", Microseconds.perMonth), ("M", Microseconds.perMonth),
        ("msec", Microseconds.perMillisecond), ("ms", Microseconds.perMillisecond),
        ("m", Microseconds.perMinute), ("hours", Microseconds.perHour), ("hour", Microseconds.perHour),
        ("hr", Microseconds.perHour), ("h", Microseconds.perHour), ("days", Microseconds.perDay),
        ("day", Microseconds.perDay), ("d", Microseconds.perDay), ("weeks", Microseconds.perWeek),
        ("week", Microseconds.perWeek), ("w", Microseconds.perWeek), ("years", Microseconds.perYear),
        ("year", Microseconds.perYear), ("y", Microseconds.perYear), ("usec", 1), ("us", 1),
        ("\u{03BC}s", 1), ("\u{00B5}s", 1),
    ]

    private static let whitespace: Set<UInt8> = [32, 9, 10, 13]

    /// Parses a time span as systemd's `parse_time()` does: numbers (with optional fractions),
    /// each followed by an optional unit, added up; a bare number is in `defaultUnit`
    /// (microseconds; seconds unless given).
    public init(parsing text: String, defaultUnit: Int64 = Microseconds.perSecond) throws(TimeSpanParseError) {
        func fail(_ reason: String) -> TimeSpanParseError { TimeSpanParseError(text: text, reason: reason) }
        let bytes = Array(text.utf8)
        var p = 0
        func at(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
        func skipWhitespace(_ i: inout Int) { while Self.whitespace.contains(at(i)) { i += 1 } }
        skipWhitespace(&p)
        if bytes[p...].starts(with: Array("infinity".utf8)) {
            var s = p + 8
            skipWhitespace(&s)
            guard s >= bytes.count else { throw fail("nothing may follow 'infinity'") }
            self = .infinity
            return
        }
        var total: Int64 = 0
        var something = false
        while true {
            skipWhitespace(&p)
            if p >= bytes.count {
                guard something else { throw fail("it is empty") }
                break
            }
            if at(p) == UInt8(ascii: "-") { throw fail("negative spans are not allowed") }
            // strtoll: optional '+', digits.
            var e = p
            if at(e) == UInt8(ascii: "+") { e += 1 }
            var whole: Int64 = 0
            let digitsStart = e
            while at(e) >= 48 && at(e) <= 57 {
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(at(e) - 48))
                guard !o1 && !o2 else { throw fail("number too large") }
                whole = a
                e += 1
            }
            if e == digitsStart { e = p }  // strtoll consumed nothing
            let hasFraction = at(e) == UInt8(ascii: ".")
            if hasFraction {
                p = e + 1
                while at(p) >= 48 && at(p) <= 57 { p += 1 }
            } else if e == p {
                throw fail("expected a number at '\(String(decoding: bytes[p...], as: UTF8.self))'")
            } else {
                p = e
            }
            var unitStart = p
            skipWhitespace(&unitStart)
            var multiplier = defaultUnit
            var s = unitStart
            for (suffix, value) in Self.units where bytes[unitStart...].starts(with: Array(suffix.utf8)) {
                multiplier = value
                s = unitStart + suffix.utf8.count
                break
            }
            if s == p && p < bytes.count {
                throw fail("unknown unit at '\(String(decoding: bytes[p...], as: UTF8.self))'")
            }
            p = s
            guard whole < Int64.max / multiplier else { throw fail("span too large") }
            let part = whole * multiplier
            guard part < Int64.max - total else { throw fail("span too large") }
            total += part
            something = true
            if hasFraction {
                var m = multiplier / 10
                var b = e + 1
                while at(b) >= 48 && at(b) <= 57 {
                    let k = Int64(at(b) - 48) * m
                    guard k < Int64.max - total else { throw fail("span too large") }
                    total += k
                    b += 1
                    m /= 10
                }
                if b == e + 1 { throw fail("a decimal point must be followed by digits") }
            }
        }
        self.init(microseconds: total)
    }
}

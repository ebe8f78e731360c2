/// Parses calendar expressions with the grammar and quirks of systemd 252's
/// `calendar_spec_from_string()`, giving each rejection a reason.
enum CalendarSpecParser {
    private typealias Bytes = [UInt8]

    static func parse(_ expression: String, zones: any TimeZoneLookup) throws(CalendarParseError) -> CalendarSpec {
        /// A last word shaped like an IANA zone (`Area/Location`) that `zones` does not know: the
        /// likeliest mistake when the rest does not parse, so a failure names it first.
        var unknownZone: String?
        func fail(_ reason: String) -> CalendarParseError {
            guard let unknownZone else { return CalendarParseError(expression: expression, reason: reason) }
            return CalendarParseError(
                expression: expression, reason: "'\(unknownZone)' is not a known time zone (else: \(reason))")
        }
        var spec = CalendarSpec(originalForm: expression)
        var text = Bytes(expression.utf8)
        guard !text.contains(0) else { throw fail("it contains a NUL character") }

        let local = zones.localZone
        if let stripped = stripSuffixNoCase(text, Bytes(" UTC".utf8)) {
            spec.isUTC = true
            text = stripped
        } else {
            var matched = false
            for (flag, name) in [local.standardAbbreviation, local.daylightAbbreviation].enumerated() {
                let suffix = Bytes(name.utf8)
                guard !suffix.isEmpty, text.count > suffix.count,
                      stripSuffixNoCase(text, suffix) != nil,
                      text[text.count - suffix.count - 1] == UInt8(ascii: " ") else { continue }
                text = Bytes(text[0..<(text.count - suffix.count - 1)])
                spec.forcedDST = flag
                matched = true
                break
            }
            if !matched, let space = text.lastIndex(of: UInt8(ascii: " ")) {
                let name = String(decoding: text[(space + 1)...], as: UTF8.self)
                if name == "UTC" {
                    spec.timeZoneName = name
                    text = Bytes(text[0..<space])
                } else if TimeZoneName.isWellFormed(name), let rules = zones.zone(named: name) {
                    spec.timeZoneName = name
                    spec.zone = rules
                    text = Bytes(text[0..<space])
                } else if TimeZoneName.isWellFormed(name), name.contains("/") {
                    unknownZone = name
                }
            }
        }
        if !spec.isUTC && spec.timeZoneName == nil { spec.zone = local }
        guard !text.isEmpty else { throw fail("it is empty") }

        let lowered = String(decoding: text.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
        let zero = [CalendarComponent(start: 0)]
        switch lowered {
        case "minutely":
            spec.microsecond = zero
        case "hourly":
            spec.minute = zero
            spec.microsecond = zero
        case "daily":
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        case "monthly":
            spec.day = [CalendarComponent(start: 1)]
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        case "annually", "yearly", "anually":
            spec.month = [CalendarComponent(start: 1)]
            spec.day = [CalendarComponent(start: 1)]
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        case "weekly":
            spec.weekdays = 1
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        case "quarterly":
            spec.month = [1, 4, 7, 10].map { CalendarComponent(start: $0) }
            spec.day = [CalendarComponent(start: 1)]
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        case "biannually", "bi-annually", "semiannually", "semi-annually":
            spec.month = [1, 7].map { CalendarComponent(start: $0) }
            spec.day = [CalendarComponent(start: 1)]
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
        default:
            var cursor = Cursor(text)
            spec.weekdays = 0
            do {
                try parseWeekdays(&cursor, &spec)
                if try !parseDate(&cursor, &spec) {
                    try parseTime(&cursor, &spec)
                }
            } catch let problem {
                throw fail(problem.reason)
            }
            if !cursor.atEnd {
                throw fail("unexpected '\(cursor.rest)'")
            }
        }

        // calendar_spec_normalize()
        if spec.timeZoneName == "UTC" {
            spec.isUTC = true
            spec.timeZoneName = nil
            spec.zone = .utc
        }
        if spec.weekdays <= 0 || spec.weekdays >= 127 { spec.weekdays = -1 }
        if spec.endOfMonth && spec.day.isEmpty { spec.endOfMonth = false }
        spec.year = spec.year.map(fixYear)
        spec.year = CalendarComponent.normalize(spec.year)
        spec.month = CalendarComponent.normalize(spec.month)
        spec.day = CalendarComponent.normalize(spec.day)
        spec.hour = CalendarComponent.normalize(spec.hour)
        spec.minute = CalendarComponent.normalize(spec.minute)
        spec.microsecond = CalendarComponent.normalize(spec.microsecond)

        // calendar_spec_valid()
        let checks: [(String, [CalendarComponent], Int, Int, Bool, Bool)] = [
            ("year", spec.year, 1970, 2199, false, false),
            ("month", spec.month, 1, 12, false, false),
            ("day", spec.day, 1, 31, spec.endOfMonth, false),
            ("hour", spec.hour, 0, 23, false, false),
            ("minute", spec.minute, 0, 59, false, false),
            ("second", spec.microsecond, 0, 60 * 1_000_000 - 1, false, true),
        ]
        for (field, chain, from, to, endOfMonth, microseconds) in checks {
            if let problem = CalendarComponent.validate(chain, from: from, to: to, endOfMonth: endOfMonth,
                                                        microseconds: microseconds) {
                throw fail("\(field): \(problem)")
            }
        }
        if spec.isUTC { spec.zone = .utc }
        spec.key = spec.normalizedForm + "\u{0}" + spec.zone.name
        return spec
    }

    /// systemd's `fix_year`: two-digit years become 2000–2069 and 1970–1999.
    private static func fixYear(_ c: CalendarComponent) -> CalendarComponent {
        var c = c
        if c.start >= 0 && c.start < 70 { c.start += 2000 }
        if c.stop >= 0 && c.stop < 70 { c.stop += 2000 }
        if c.start >= 70 && c.start < 100 { c.start += 1900 }
        if c.stop >= 70 && c.stop < 100 { c.stop += 1900 }
        return c
    }

    private static func stripSuffixNoCase(_ text: Bytes, _ suffix: Bytes) -> Bytes? {
        guard text.count >= suffix.count else { return nil }
        let tail = text[(text.count - suffix.count)...]
        for (a, b) in zip(tail, suffix) where lower(a) != lower(b) { return nil }
        return Bytes(text[0..<(text.count - suffix.count)])
    }

    private static func lower(_ c: UInt8) -> UInt8 { (c >= 65 && c <= 90) ? c + 32 : c }

    struct Problem: Error {
        let reason: String
    }

    /// A read position in the expression.
    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        /// The byte at the cursor, or 0 at the end (like a C string).
        var current: UInt8 { at(0) }
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        var rest: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

        mutating func skipSpaces() {
            while current == UInt8(ascii: " ") { index += 1 }
        }

        func hasPrefixNoCase(_ word: String) -> Bool {
            for (i, c) in word.utf8.enumerated() where CalendarSpecParser.lower(at(i)) != CalendarSpecParser.lower(c) {
                return false
            }
            return true
        }
    }

    private static let dayNames: [(String, Int)] = [
        ("Monday", 0), ("Mon", 0), ("Tuesday", 1), ("Tue", 1), ("Wednesday", 2), ("Wed", 2),
        ("Thursday", 3), ("Thu", 3), ("Friday", 4), ("Fri", 4), ("Saturday", 5), ("Sat", 5),
        ("Sunday", 6), ("Sun", 6),
    ]

    /// systemd's `parse_weekdays`.
    private static func parseWeekdays(_ p: inout Cursor, _ spec: inout CalendarSpec) throws(Problem) {
        var rangeStart = -1
        var first = true
        while true {
            guard let (name, number) = dayNames.first(where: { p.hasPrefixNoCase($0.0) }) else {
                if first { return }
                throw Problem(reason: "expected a weekday name at '\(p.rest)'")
            }
            let after = p.at(name.utf8.count)
            guard [0, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: " ")].contains(after) else {
                throw Problem(reason: "unexpected character after weekday '\(name)' at '\(p.rest)'")
            }
            spec.weekdays |= 1 << number
            if rangeStart >= 0 {
                if rangeStart > number {
                    throw Problem(reason: "weekday range ends before it starts at '\(p.rest)'")
                }
                for j in (rangeStart + 1)..<max(number, rangeStart + 1) { spec.weekdays |= 1 << j }
            }
            p.index += name.utf8.count
            if p.atEnd { return }
            if p.current == UInt8(ascii: " ") {
                p.skipSpaces()
                return
            }
            if p.current == UInt8(ascii: ".") {
                if rangeStart >= 0 { throw Problem(reason: "a weekday range cannot continue with another range") }
                guard p.at(1) == UInt8(ascii: ".") else { throw Problem(reason: "weekday ranges are written 'Mon..Fri'") }
                rangeStart = number
                p.index += 2
            } else if p.current == UInt8(ascii: "-") {
                if rangeStart >= 0 { throw Problem(reason: "a weekday range cannot continue with another range") }
                rangeStart = number
                p.index += 1
            } else if p.current == UInt8(ascii: ",") {
                rangeStart = -1
                p.index += 1
            }
            if p.current == 0 || p.current == UInt8(ascii: " ") {
                p.skipSpaces()
                if rangeStart >= 0 { throw Problem(reason: "weekday range has no end") }
                return
            }
            first = false
        }
    }

    /// C `strtoul` on the cursor: optional white space and sign, then decimal digits.
    private static func strtoul(_ p: inout Cursor) throws(Problem) -> UInt64 {
        var q = p
        while [9, 10, 11, 12, 13, 32].contains(q.current) { q.index += 1 }
        var negative = false
        if q.current == UInt8(ascii: "+") || q.current == UInt8(ascii: "-") {
            negative = q.current == UInt8(ascii: "-")
            q.index += 1
        }
        guard q.current >= 48 && q.current <= 57 else { throw Problem(reason: "expected a number at '\(p.rest)'") }
        var value: UInt64 = 0
        while q.current >= 48 && q.current <= 57 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(q.current - 48))
            guard !o1 && !o2 else { throw Problem(reason: "number too large at '\(p.rest)'") }
            value = a
            q.index += 1
        }
        p = q
        return negative ? 0 &- value : value
    }

    /// systemd's `parse_component_decimal`.
    private static func decimal(_ p: inout Cursor, microseconds: Bool) throws(Problem) -> Int {
        guard p.current >= 48 && p.current <= 57 else {
            throw Problem(reason: p.atEnd ? "expression ends where a number is expected"
                                          : "expected a number at '\(p.rest)'")
        }
        var value = try strtoul(&p)
        if microseconds {
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 1_000_000)
            guard !overflow else { throw Problem(reason: "number too large") }
            value = scaled
            if p.current == UInt8(ascii: ".") && p.at(1) != UInt8(ascii: ".") {
                p.index += 1
                var fraction: UInt64 = 0
                var digits = 0
                while digits < 6 {
                    guard p.current >= 48 && p.current <= 57 else {
                        if digits == 0 { throw Problem(reason: "expected digits after the decimal point at '\(p.rest)'") }
                        while digits < 6 { fraction *= 10; digits += 1 }
                        break
                    }
                    fraction = fraction * 10 + UInt64(p.current - 48)
                    p.index += 1
                    digits += 1
                }
                if p.current >= UInt8(ascii: "5") && p.current <= UInt8(ascii: "9") { fraction += 1 }
                while p.current >= 48 && p.current <= 57 { p.index += 1 }
                value += fraction
            }
        }
        guard value <= UInt64(Int32.max) else { throw Problem(reason: "number \(value) is too large") }
        return Int(value)
    }

    /// systemd's `prepend_component`, iteratively over a comma-separated list.
    private static func components(_ p: inout Cursor, microseconds: Bool) throws(Problem) -> [CalendarComponent] {
        var chain: [CalendarComponent] = []
        while true {
            guard chain.count <= 240 else { throw Problem(reason: "too many comma-separated values (more than 240)") }
            let start = try decimal(&p, microseconds: microseconds)
            var stop = -1
            var step = 0
            if p.current == UInt8(ascii: ".") && p.at(1) == UInt8(ascii: ".") {
                p.index += 2
                stop = try decimal(&p, microseconds: microseconds)
                step = microseconds ? 1_000_000 : 1
            }
            if p.current == UInt8(ascii: "/") {
                p.index += 1
                step = try decimal(&p, microseconds: microseconds)
                guard step != 0 else { throw Problem(reason: "repetition '/0' is not allowed") }
            } else {
                guard start <= Int(Int32.max) - step else { throw Problem(reason: "value too large") }
                if microseconds && stop >= 0 && start + step > stop {
                    throw Problem(reason: "seconds range shorter than one second needs an explicit '/' step")
                }
            }
            let terminators: [UInt8] = [0, UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "-"),
                                        UInt8(ascii: "~"), UInt8(ascii: ":")]
            guard terminators.contains(p.current) else {
                throw Problem(reason: "unexpected '\(p.rest)'")
            }
            chain.append(CalendarComponent(start: start, stop: stop, repeat: step))
            guard p.current == UInt8(ascii: ",") else { return chain }
            p.index += 1
        }
    }

    /// systemd's `parse_chain`: `*` or a component list. `nil` means `*` (any).
    private static func chain(_ p: inout Cursor, microseconds: Bool) throws(Problem) -> [CalendarComponent] {
        if p.current == UInt8(ascii: "*") {
            p.index += 1
            return microseconds ? [CalendarComponent(start: 0, stop: -1, repeat: 1_000_000)] : []
        }
        return try components(&p, microseconds: microseconds)
    }

    /// systemd's `parse_date`; returns true when the expression is complete (`@timestamp`).
    private static func parseDate(_ p: inout Cursor, _ spec: inout CalendarSpec) throws(Problem) -> Bool {
        if p.atEnd { return false }
        if p.current == UInt8(ascii: "@") {
            var q = p
            q.index += 1
            let value = try strtoul(&q)
            let seconds = Int64(bitPattern: value)
            // Outside 1970..2199 the year check would reject it anyway (and gmtime_r may fail).
            guard seconds >= 0, seconds < 7_258_118_400 else {
                throw Problem(reason: "timestamp @\(seconds) is outside the years 1970..2199")
            }
            let time = BrokenDownTime(seconds: seconds, utcOffset: 0, isDST: 0, abbreviation: "UTC")
            spec.isUTC = true
            spec.year = [CalendarComponent(start: Int(time.fullYear))]
            spec.month = [CalendarComponent(start: time.month + 1)]
            spec.day = [CalendarComponent(start: time.day)]
            spec.hour = [CalendarComponent(start: time.hour)]
            spec.minute = [CalendarComponent(start: time.minute)]
            spec.microsecond = [CalendarComponent(start: time.second * 1_000_000)]
            p = q
            return true
        }
        var t = p
        let first = try chain(&t, microseconds: false)
        if t.current == 0 || t.current == UInt8(ascii: ":") { return false }
        if t.current == UInt8(ascii: "~") {
            spec.endOfMonth = true
        } else if t.current != UInt8(ascii: "-") {
            throw Problem(reason: "expected '-', '~' or ':' at '\(t.rest)'")
        }
        t.index += 1
        let second = try chain(&t, microseconds: false)
        if t.current == 0 || t.current == UInt8(ascii: " ") {
            t.skipSpaces()
            p = t
            spec.month = first
            spec.day = second
            return false
        }
        if spec.endOfMonth { throw Problem(reason: "'~' must separate the month and the day") }
        if t.current == UInt8(ascii: "~") {
            spec.endOfMonth = true
        } else if t.current != UInt8(ascii: "-") {
            throw Problem(reason: "expected '-' or '~' at '\(t.rest)'")
        }
        t.index += 1
        let third = try chain(&t, microseconds: false)
        guard t.current == 0 || t.current == UInt8(ascii: " ") else {
            throw Problem(reason: "expected a space after the date at '\(t.rest)'")
        }
        t.skipSpaces()
        p = t
        spec.year = first
        spec.month = second
        spec.day = third
        return false
    }

    /// systemd's `parse_calendar_time`.
    private static func parseTime(_ p: inout Cursor, _ spec: inout CalendarSpec) throws(Problem) {
        let zero = [CalendarComponent(start: 0)]
        if p.atEnd {
            (spec.hour, spec.minute, spec.microsecond) = (zero, zero, zero)
            return
        }
        let hour = try chain(&p, microseconds: false)
        guard p.current == UInt8(ascii: ":") else {
            throw Problem(reason: p.atEnd ? "a time needs at least hours and minutes (HH:MM)"
                                          : "expected ':' at '\(p.rest)'")
        }
        p.index += 1
        let minute = try chain(&p, microseconds: false)
        var second = zero
        if !p.atEnd {
            guard p.current == UInt8(ascii: ":") else { throw Problem(reason: "expected ':' at '\(p.rest)'") }
            p.index += 1
            second = try chain(&p, microseconds: true)
            guard p.atEnd else { throw Problem(reason: "unexpected '\(p.rest)' after the seconds") }
        }
        (spec.hour, spec.minute, spec.microsecond) = (hour, minute, second)
    }
}

import TestSupport
/// The calendar expressions compared with `systemd-analyze calendar`: every syntax element by hand,
/// random combinations from a seeded generator, and invalid expressions that both must reject.
enum CalendarCorpus {
    /// One or more examples of each syntax element of systemd.time(7) "Calendar Events".
    static let syntaxElements: [String] = [
        // Shorthands, any case.
        "minutely", "hourly", "daily", "weekly", "monthly", "yearly", "annually", "anually", "quarterly",
        "semiannually", "semi-annually", "biannually", "bi-annually", "Daily", "HOURLY", "daily UTC",
        "weekly Europe/Berlin", "monthly Australia/Lord_Howe",
        // Weekdays: short, long, any case, lists, ranges ("..", and "-" for compatibility).
        "Mon", "monday", "SUNDAY", "Sat,Sun", "Mon..Fri", "Mon-Fri", "Mon..Wed,Fri..Sun", "Sun,Mon,Tue",
        "Wed..Wed", "Mon, 12:00", "Fri *-*-13", "Thu..Sat 2024-*-* 00:00",
        // Dates: full, month-day, two-digit years, lists, ranges, repetitions, '*'.
        "2024-02-29", "2025-02-29", "24-12-24", "99-01-01", "12-25", "*-12-25 18:00", "2024..2026-01-01",
        "2024/2-06-01", "*-1,4,7,10-1", "*-*-1..7", "*-*-1..31/10", "*-*-*/10", "*-01..12/3-01", "2024-*-*",
        "*-02-31", "2030-01-01 00:00:00", "2199-12-31 23:59:59",
        // End of month.
        "*-*~1", "*-*~01", "*-02~1", "*-*~1..3", "*-*~3..1", "*-*~7,1", "*-02~1..3 12:00", "2024-02~1",
        "*-*~28",
        // Times: hh:mm, hh:mm:ss, fractions, lists, ranges, repetitions.
        "12:00", "*:00", "*:*", "*:*:*", "*:0/15", "0/6:00", "8..17:00", "8..17/2:30", "9,12,17:00:00",
        "*:*:0/10", "*:*:0.5", "*:*:1.25/2.5", "*:*:59.999999", "*:*:0.0000005", "*:*:30.5..40/2",
        "*:*:1..5", "*:*:1..5.5", "*:*:00..59", "*:*:0,*", "*:*:0/1", "*:0..10/20", "10..10:00",
        "00:00:00.000001",
        // Combinations and zones.
        "Mon..Fri *-*-* 09:00 Europe/Berlin", "Sat *-*-1..7 18:00 America/New_York",
        "*-*-* 02:30 Europe/Berlin", "*-*-* 02:30 America/New_York", "*-*-* 02:15 Australia/Lord_Howe",
        "*-*-* 01:45 Australia/Lord_Howe", "*-*-* 05:30 Asia/Kolkata", "daily Etc/UTC",
        "@0", "@1700000000", "@1900000000", "Mon @1900000000",
    ]

    /// Expressions both systemd and TickerModel must reject.
    static let invalid: [String] = [
        "", " ", "bogus", "*-*-* 25:00", "*-13-01", "Mon..", "Mon-", "Sun..Mon", "*:*:60", "*-*-32",
        "*-*~29", "1969-01-01", "2200-01-01", "*:0/0", "12:", "12", "*-*-* 1.5:00", "*-*-*-*", "Mon,,Tue",
        "Mon.Tue", "*:*:1..1.5", "daily Mars/Olympus", "Mon *-*~1/2", "*-~1", "*~1~1", "@-5",
        "@99999999999", "*:*:*.", "*:*:1.x", "*-*-* *:*:*:*", "Monday1", "*:60", "24:00", "2/0-01-01",
        "*-*-* 00:00:00 Europe/", "*-*-*  00:00", "*/500", "0..5,x", "*:*:59.999999/0.5",
        "Mon..Wed,Sat *-*~01/2 0/5:0", "daily  UTC", "*-*-* 00:00 ../../etc", "weekly\tUTC",
        "2024-02-29 12:00:00 +0100", "Tue..Mon", "*-12-25 18:00 Moon", "1..", "..5",
    ]

    /// `count` random expressions built from the grammar, reproducible from `seed`.
    static func random(seed: UInt64, count: Int) -> [String] {
        var generator = ExpressionGenerator(random: SeededRandom(seed: seed))
        return (0..<count).map { _ in generator.expression() }
    }
}

/// Builds random calendar expressions field by field.
struct ExpressionGenerator {
    var random: SeededRandom

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "monday", "TUESDAY",
                                       "Wednesday", "thu", "Friday", "sat", "Sunday"]

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    private mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    private mutating func value(_ low: Int, _ high: Int, width: Int = 2) -> String {
        let text = String(int(low...high))
        let padded = String(repeating: "0", count: max(0, width - text.count)) + text
        return chance(0.5) ? text : padded
    }

    /// One field: `*`, a value, a range, a repetition, a stepped range or a list.
    private mutating func component(_ low: Int, _ high: Int, width: Int = 2) -> String {
        let k = Double.random(in: 0..<1, using: &random)
        if k < 0.3 { return "*" }
        if k < 0.5 { return value(low, high, width: width) }
        if k < 0.65 {
            let a = int(low...high), b = int(low...high)
            return "\(min(a, b))..\(max(a, b))"
        }
        if k < 0.8 { return "\(value(low, high, width: width))/\(int(1...max(1, (high - low) / 2)))" }
        if k < 0.9 {
            let a = int(low...high), b = int(low...high)
            return "\(min(a, b))..\(max(a, b))/\(int(1...5))"
        }
        return (0..<int(2...4)).map { _ in value(low, high, width: width) }.joined(separator: ",")
    }

    private mutating func seconds() -> String {
        let k = Double.random(in: 0..<1, using: &random)
        if k < 0.3 { return component(0, 59) }
        if k < 0.5 {
            let fraction = String(int(0...999_999))
            let text = "\(int(0...59)).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
            return String(text.prefix(int(3...9)))
        }
        if k < 0.6 { return "\(int(0...30))/\(int(1...20)).\(int(0...9))" }
        if k < 0.7 { return "\(int(0...10))..\(int(20...59))/\(int(1...9)).5" }
        return component(0, 59)
    }

    private mutating func weekdays() -> String {
        let k = Double.random(in: 0..<1, using: &random)
        if k < 0.6 { return "" }
        if k < 0.75 { return pick(Self.weekdayNames) + " " }
        if k < 0.9 {
            let a = int(0...6), b = int(0...6)
            guard a != b else { return Self.weekdayNames[a] + " " }
            return "\(Self.weekdayNames[min(a, b)])..\(Self.weekdayNames[max(a, b)]) "
        }
        var days = Array(Self.weekdayNames.prefix(7))
        days.shuffle(using: &random)
        return days.prefix(int(2...4)).joined(separator: ",") + " "
    }

    mutating func expression() -> String {
        if chance(0.05) {
            return pick(["minutely", "hourly", "daily", "weekly", "monthly", "yearly", "annually", "quarterly",
                         "semiannually", "Daily", "HOURLY"])
        }
        let days = weekdays()
        var date = ""
        if chance(0.7) {
            let year = pick(["*", "*", "*", value(2024, 2027, width: 4), "2024..2026", "24", "2025/2", "2024,2026"])
            let month = component(1, 12)
            let fromEnd = chance(0.2)
            let day = fromEnd ? pick(["1", "2", "3", "1..3", "1,7", "7/2"]) : component(1, 31)
            let separator = fromEnd ? "~" : "-"
            date = chance(0.3) ? "\(month)\(separator)\(day) " : "\(year)-\(month)\(separator)\(day) "
        }
        var time = ""
        if chance(0.85) || (date.isEmpty && days.isEmpty) {
            let hour = component(0, 23), minute = component(0, 59)
            time = chance(0.5) ? "\(hour):\(minute)" : "\(hour):\(minute):\(seconds())"
        }
        var result = (days + date + time)
        while result.hasSuffix(" ") { result.removeLast() }
        if chance(0.15) {
            result += " " + pick(["UTC", "utc", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe",
                                  "Asia/Kolkata"])
        }
        return result.isEmpty ? "daily" : result
    }
}

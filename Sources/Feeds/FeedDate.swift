import Foundation
import TickerModel

/// The date formats feeds use: RFC 822/1123 (RSS `pubDate`, with the usual liberties: no
/// weekday, two-digit years, zone names, one-digit days, `+01:00`) and RFC 3339 (Atom, JSON Feed,
/// `dc:date`, also with a space before the offset). A zone name it does not know counts as UTC,
/// as in feedparser; the European names (CET, CEST, BST, EET…) have their offsets, where
/// feedparser takes them as UTC.
enum FeedDate {
    /// The instant `text` names, or nil when it is in neither format.
    static func parse(_ text: String) -> Instant? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = trimmed.unicodeScalars.first, ("0"..."9").contains(first), trimmed.count >= 10,
           trimmed.unicodeScalars[trimmed.unicodeScalars.index(trimmed.unicodeScalars.startIndex, offsetBy: 4)] == "-" {
            return rfc3339(trimmed)
        }
        return rfc822(trimmed)
    }

    /// `YYYY-MM-DD[(T| )hh:mm[:ss[.frac]]][Z|±hh:mm]`; a date alone is midnight UTC.
    static func rfc3339(_ text: String) -> Instant? {
        let chars = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= chars.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let c = chars[index]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
                index += 1
            }
            return value
        }
        func skip(_ c: UInt8) -> Bool {
            guard index < chars.count, chars[index] == c else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(45), let month = number(2), skip(45), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        if index < chars.count, chars[index] == 84 || chars[index] == 116 || chars[index] == 32 {
            index += 1
            guard let h = number(2), skip(58), let m = number(2) else { return nil }
            hour = h
            minute = m
            if skip(58) {
                guard let s = number(2) else { return nil }
                second = s
                if skip(46) || skip(44) {
                    while index < chars.count, chars[index] >= 48, chars[index] <= 57 { index += 1 }
                }
            }
            // `2026-11-24 09:00:00 +0100`: a space before the offset.
            while index < chars.count, chars[index] == 32 { index += 1 }
            if skip(90) || skip(122) {
                offset = 0
            } else if index < chars.count, chars[index] == 43 || chars[index] == 45 {
                let sign = chars[index] == 45 ? -1 : 1
                index += 1
                guard let oh = number(2) else { return nil }
                _ = skip(58)
                let om = number(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard index == chars.count else { return nil }
        return instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// `[Wkd,] D Mon YYYY hh:mm[:ss] (±hhmm|zone)`.
    static func rfc822(_ text: String) -> Instant? {
        var words = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: { $0 == " " || $0 == "\t" })
            .map(String.init)
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]), let month = months[words[1].prefix(3).lowercased()],
              var year = Int(words[2]) else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let clock = words[3].split(separator: ":").map { Int($0) }
        guard clock.count >= 2, clock.allSatisfy({ $0 != nil }) else { return nil }
        var offset = 0
        if words.count >= 5 {
            // `+0100`, or `+01:00` as some feeds write it.
            let zone = words[4].replacingOccurrences(of: ":", with: "")
            if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
                offset = (sign == "-" ? -1 : 1) * ((value / 100) * 3600 + (value % 100) * 60)
            } else if let hours = zones[zone.uppercased()] {
                offset = hours * 3600
            } else if zone.allSatisfy(\.isLetter) {
                // A zone name it does not know is taken as UTC, as feedparser takes it: the
                // date is then hours off at most, where no date at all would put the entry last.
                offset = 0
            } else {
                return nil
            }
        }
        return instant(year: year, month: month, day: day, hour: clock[0]!, minute: clock[1]!,
                       second: clock.count > 2 ? clock[2]! : 0, offset: offset)
    }

    static let months = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
                         "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12]
    /// RFC 822's zone names and their offsets in hours, and the European ones feeds use.
    static let zones = ["GMT": 0, "UT": 0, "UTC": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
                        "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "WET": 0, "WEST": 1, "BST": 1, "CET": 1,
                        "CEST": 2, "MET": 1, "MEST": 2, "EET": 2, "EEST": 3]

    /// The instant of a civil time at `offset` seconds east of UTC; nil when a field is out of range.
    static func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Instant? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Instant(seconds) * 1_000_000
    }
}

/// Prints calendar expressions in systemd's normalised form (`calendar_spec_to_string`).
enum CalendarFormat {
    /// `value` zero-padded to `width` digits (C `%0*i`).
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    static func normalizedForm(of spec: CalendarSpec) -> String {
        var out = ""
        if spec.weekdays > 0 && spec.weekdays <= 127 {
            out += weekdays(spec.weekdays)
            out += " "
        }
        out += chain(spec.year, width: 4, microseconds: false)
        out += "-"
        out += chain(spec.month, width: 2, microseconds: false)
        out += spec.endOfMonth ? "~" : "-"
        out += chain(spec.day, width: 2, microseconds: false)
        out += " "
        out += chain(spec.hour, width: 2, microseconds: false)
        out += ":"
        out += chain(spec.minute, width: 2, microseconds: false)
        out += ":"
        out += chain(spec.microsecond, width: 2, microseconds: true)
        if spec.isUTC {
            out += " UTC"
        } else if let name = spec.timeZoneName {
            out += " " + name
        } else if spec.forcedDST == 0 || spec.forcedDST == 1 {
            let name = spec.forcedDST == 0 ? spec.zone.standardAbbreviation : spec.zone.daylightAbbreviation
            if !name.isEmpty { out += " " + name }
        }
        return out
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private static func weekdays(_ bits: Int) -> String {
        var out = ""
        var needComma = false
        var rangeStart = -1
        var x = 0
        while x < 7 {
            if bits & (1 << x) != 0 {
                if rangeStart < 0 {
                    if needComma { out += "," } else { needComma = true }
                    out += dayNames[x]
                    rangeStart = x
                }
            } else if rangeStart >= 0 {
                if x > rangeStart + 1 {
                    out += x > rangeStart + 2 ? ".." : ","
                    out += dayNames[x - 1]
                }
                rangeStart = -1
            }
            x += 1
        }
        if rangeStart >= 0 && x > rangeStart + 1 {
            out += x > rangeStart + 2 ? ".." : ","
            out += dayNames[x - 1]
        }
        return out
    }

    private static func chain(_ chain: [CalendarComponent], width: Int, microseconds: Bool) -> String {
        let d = microseconds ? 1_000_000 : 1
        // systemd's chain_is_star(): empty, or (seconds) some element covers every second.
        if chain.isEmpty { return "*" }
        if microseconds && chain.contains(where: { $0.start == 0 && $0.stop < 0 && $0.repeat == 1_000_000 }) {
            return "*"
        }
        var parts: [String] = []
        for c in chain {
            var out = pad(c.start / d, width)
            if c.start % d > 0 { out += "." + pad(c.start % d, 6) }
            if c.stop > 0 { out += ".." + pad(c.stop / d, width) }
            if c.stop % d > 0 { out += "." + pad(c.stop % d, 6) }
            if c.repeat > 0 && !(c.stop > 0 && c.repeat == d) { out += "/" + String(c.repeat / d) }
            if c.repeat % d > 0 { out += "." + pad(c.repeat % d, 6) }
            parts.append(out)
        }
        return parts.joined(separator: ",")
    }
}

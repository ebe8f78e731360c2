/// The text `systemd-analyze calendar` prints, as a pure function, so `tickerctl calendar` can
/// print the same lines and tests can compare them line by line.
public enum CalendarReport {
    /// The output for a list of expressions.
    public struct Output: Sendable, Equatable {
        /// Standard output, exactly as `systemd-analyze calendar` writes it.
        public var standardOutput: String
        /// One message per failed expression, for standard error.
        public var errors: [String]
        /// Whether every expression was valid and evaluated (the exit status is 0).
        public var succeeded: Bool { errors.isEmpty }
    }

    /// Renders the report for `expressions`, parsed against `zones`, starting at `base`.
    ///
    /// - Parameters:
    ///   - iterations: how many elapses to show (systemd's `--iterations`; 0 shows none).
    ///   - now: the real time for the "From now:" lines, or nil to leave them out.
    public static func render(expressions: [String], zones: any TimeZoneLookup, base: Instant,
                              iterations: Int, now: Instant?) -> Output {
        var output = Output(standardOutput: "", errors: [])
        for (index, expression) in expressions.enumerated() {
            do {
                let spec = try CalendarSpec(parsing: expression, zones: zones)
                let table = rows(for: spec, base: base, iterations: iterations, displayZone: zones.localZone, now: now)
                switch table {
                case .success(let rows): output.standardOutput += format(rows)
                case .failure(let message): output.errors.append(message.text)
                }
            } catch {
                output.errors.append("Failed to parse calendar specification '\(expression)': \(error.reason)")
            }
            if index + 1 < expressions.count { output.standardOutput += "\n" }
        }
        return output
    }

    /// A failure to evaluate an expression.
    public struct Failure: Error, Sendable, Equatable {
        /// The message, as systemd words it.
        public let text: String
    }

    /// The label/value rows systemd prints for `spec`: "Original form:", "Normalized form:",
    /// "Next elapse:", "(in UTC):" (only when `displayZone` is not UTC), "From now:" (only when
    /// `now` is given) and "Iter. #N:".
    public static func rows(for spec: CalendarSpec, base: Instant, iterations: Int, displayZone: ZoneRules,
                            now: Instant?) -> Result<[(String, String)], Failure> {
        var rows: [(String, String)] = []
        let normalized = spec.normalizedForm
        if normalized != spec.originalForm { rows.append(("Original form:", spec.originalForm)) }
        rows.append(("Normalized form:", normalized))
        var search = CalendarSearch(spec: spec)
        var current = base
        for i in 0..<max(iterations, 0) {
            let next: Instant
            switch search.next(after: current) {
            case .at(let instant):
                next = instant
            case .never:
                if i == 0 { rows.append(("Next elapse:", "never")) }
                return .success(rows)
            case .gaveUp:
                return .failure(Failure(text: "Failed to determine next elapse for '\(spec.originalForm)': "
                    + "Resource deadlock avoided"))
            case .outOfRange:
                return .failure(Failure(text: "Failed to determine next elapse for '\(spec.originalForm)': "
                    + "Invalid argument"))
            }
            rows.append((i == 0 ? "Next elapse:" : "Iter. #\(i + 1):", TimestampFormat.timestamp(next, in: displayZone)))
            if !displayZone.isUTCEquivalent {
                rows.append(("(in UTC):", TimestampFormat.timestamp(next, in: .utc)))
            }
            if let now { rows.append(("From now:", TimestampFormat.relative(next, now: now))) }
            current = next
        }
        return .success(rows)
    }

    /// Lines of a two-column table: labels right-aligned, one space, the value.
    public static func format(_ rows: [(String, String)]) -> String {
        let width = rows.map { $0.0.count }.max() ?? 0
        var out = ""
        for (label, value) in rows {
            out += String(repeating: " ", count: width - label.count) + label + " " + value + "\n"
        }
        return out
    }
}

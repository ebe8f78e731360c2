import Calendars
import DBus
import Foundation
import SourceFetch
import TOMLConfig
import TickerModel

/// The events of an iCalendar file or http(s) URL as messages: each occurrence that is on now
/// (or starts within `lead`) is an item until its end, keyed by UID and original start.
///
/// Guarantees: a file is checked for changes every `poll` (its stamp: inode, size, mtime) and
/// read again when it changed; a URL is fetched every `interval` with If-None-Match /
/// If-Modified-Since. A file or document that cannot be read or parsed is logged (naming the
/// source and what was wrong) and the last good calendar stays. Items appear and go at their
/// occurrences' boundaries, not at the next poll.
public final class CalendarSource: ItemSource {
    /// Where the calendar comes from.
    public enum Location: Equatable, Sendable {
        /// A local `.ics` file.
        case file(String)
        /// An http(s) URL.
        case url(URL)
    }

    /// The calendar's location.
    public let location: Location
    /// The zone all-day and floating events are placed in (IANA name).
    public let timeZone: String
    /// How long before its start an occurrence is shown (microseconds).
    public let lead: Int64
    /// How often a file's stamp is checked (microseconds).
    public let poll: Int64
    /// How often a URL is fetched (microseconds).
    public let interval: Int64
    /// Why the service's own zone could not be used for `timeZone` (logged at start), if so.
    let zoneProblem: String?

    /// Occurrences are expanded for this long ahead and again when that runs out.
    static let horizon: Int64 = 2 * 86_400_000_000

    private var context: SourceContext?
    private var timer: LoopTimer?
    private var calendar: ICalendar?
    private var occurrences: [CalendarOccurrence] = []
    private var expandedUntil: Int64 = .min
    private var stamp: FileStamp?
    private var validators = HTTPValidators()
    private var nextFetch: Int64 = .min
    private var fetching = false
    private var published: [SourceItem]?
    private var lastProblem: String?
    private var stopped = false

    /// A source for `location`.
    public convenience init(location: Location, timeZone: String, lead: Int64 = 0, poll: Int64 = 5_000_000,
                interval: Int64 = 900_000_000) {
        self.init(location: location, timeZone: timeZone, lead: lead, poll: poll, interval: interval, zoneProblem: nil)
    }

    init(location: Location, timeZone: String, lead: Int64, poll: Int64, interval: Int64, zoneProblem: String?) {
        self.zoneProblem = zoneProblem
        self.location = location
        self.timeZone = timeZone
        self.lead = lead
        self.poll = poll
        self.interval = interval
    }

    /// The `calendar` kind: keys `file` or `url`, `timezone`, `lead`, `poll`, `interval`;
    /// fields `{summary}`, `{location}`, `{description}`, `{start}`, `{end}`, `{date}`.
    public static let kind = SourceKind(
        name: "calendar", fields: ["summary", "location", "description", "start", "end", "date"],
        keys: ["file", "url", "timezone", "lead", "poll", "interval"],
        needsNetwork: { table throws(ConfigError) in try table.string("url") != nil }
    ) { table throws(ConfigError) in
        let file = try table.string("file")
        let url = try table.string("url")
        let location: Location
        switch (file, url) {
        case let (file?, nil):
            guard file.hasPrefix("/") else { throw table.error("file", "must be an absolute path") }
            location = .file(file)
        case let (nil, url?):
            guard let parsed = URL(string: url), (try? ConditionalFetcher(url: parsed)) != nil else {
                throw table.error("url", "must be an http:// or https:// URL")
            }
            location = .url(parsed)
        case (nil, nil):
            throw table.error(nil, "missing key 'file' (an .ics file) or 'url' (an http(s) URL)")
        case (.some, .some):
            throw table.error("url", "give either 'file' or 'url', not both")
        }
        let zone: String
        var zoneProblem: String?
        if let given = try table.string("timezone") {
            guard TimeZone(identifier: given) != nil else { throw table.error("timezone", "unknown time zone '\(given)'") }
            zone = given
        } else {
            (zone, zoneProblem) = ServiceTimeZone.resolve()
        }
        let lead = try SourcesConfigLoader.timeSpan(table, "lead") ?? 0
        let poll = try SourcesConfigLoader.timeSpan(table, "poll") ?? 5_000_000
        let interval = try SourcesConfigLoader.timeSpan(table, "interval") ?? 900_000_000
        if poll < 100_000 { throw table.error("poll", "must be at least 100ms") }
        if interval < 1_000_000 { throw table.error("interval", "must be at least 1s") }
        return CalendarSource(location: location, timeZone: zone, lead: lead, poll: poll, interval: interval,
                              zoneProblem: zoneProblem)
    }

    public func start(_ context: SourceContext) throws {
        self.context = context
        if let zoneProblem { context.logger.warning("\(zoneProblem)") }
        timer = context.loop.makeTimer { [weak self] in self?.tick() }
        tick()
    }

    public func stop() {
        stopped = true
        timer?.cancel()
    }

    private func tick() {
        guard let context, !stopped else { return }
        let now = LeaseManager.now()
        switch location {
        case .file(let path):
            let current = FileStamp(path: path)
            if current != stamp {
                stamp = current
                load(path)
            }
        case .url(let url):
            if now >= nextFetch, !fetching { fetch(url, context: context) }
        }
        if now + Self.horizon / 2 > expandedUntil { expand(at: now) }
        show(at: now)
        schedule(after: now)
    }

    private func load(_ path: String) {
        do {
            take(try LocalFile.contents(of: path), from: path)
        } catch {
            report("\(error); keeping the last good calendar")
        }
    }

    private func take(_ data: Data, from origin: String) {
        let (text, encodingProblem) = CalendarBytes.text(of: data)
        if let encodingProblem { context?.logger.warning("\(origin): \(encodingProblem)") }
        do {
            let parsed = try ICalendar(parsing: text)
            for warning in parsed.warnings { context?.logger.warning("\(origin): \(warning)") }
            calendar = parsed
            expandedUntil = .min
            lastProblem = nil
        } catch {
            report("\(origin): \(error.message); keeping the last good calendar")
        }
    }

    private func fetch(_ url: URL, context: SourceContext) {
        fetching = true
        nextFetch = LeaseManager.now() + interval
        guard let fetcher = try? ConditionalFetcher(url: url) else { return }
        let bound = LoopBound(self, loop: context.loop)
        let validators = self.validators
        Task {
            let result: Result<HTTPFetchOutcome, HTTPFetchError>
            do { result = .success(try await fetcher.fetch(with: validators)) } catch let error as HTTPFetchError { result = .failure(error) } catch { result = .failure(HTTPFetchError("\(error)")) }
            bound.loop.execute { bound.value.fetched(result, from: url) }
        }
    }

    private func fetched(_ result: Result<HTTPFetchOutcome, HTTPFetchError>, from url: URL) {
        fetching = false
        guard !stopped else { return }
        switch result {
        case .success(.notModified):
            break
        case let .success(.modified(data, newValidators, _, _)):
            validators = newValidators
            take(data, from: url.absoluteString)
        case let .failure(error):
            report("\(error.message); keeping the last good calendar")
        }
        tick()
    }

    private func expand(at now: Int64) {
        expandedUntil = now + Self.horizon
        guard let calendar else { return }
        var warnings: [String] = []
        occurrences = calendar.occurrences(in: (now - 86_400_000_000)..<expandedUntil + lead, timeZone: timeZone,
                                           warnings: &warnings)
        for warning in Set(warnings).sorted() { context?.logger.warning("\(origin): \(warning)") }
    }

    private func show(at now: Int64) {
        let items = occurrences.filter { $0.start - lead <= now && (now < $0.end || ($0.start == $0.end && now < $0.start + 60_000_000)) }
            .map(item)
        guard items != published else { return }
        published = items
        context?.publish(items)
    }

    private func item(_ occurrence: CalendarOccurrence) -> SourceItem {
        let start = CalendarText(zone: timeZone)
        var fields = ["summary": occurrence.summary ?? "", "location": occurrence.location ?? "",
                      "description": occurrence.description ?? ""]
        if let days = occurrence.days {
            fields["start"] = days.lowerBound.description
            // Its last day: DTEND of an all-day event is the day after it (RFC 5545), which
            // would show a birthday as lasting two days.
            fields["end"] = days.upperBound.previous.description
            fields["date"] = days.lowerBound.description
        } else {
            fields["start"] = start.time(occurrence.start)
            fields["end"] = start.time(occurrence.end)
            fields["date"] = start.date(occurrence.start)
        }
        let link = occurrence.url.flatMap { LinkURI.problem($0) == nil ? $0 : nil }
        let end = occurrence.start == occurrence.end ? occurrence.start + 60_000_000 : occurrence.end
        // RFC 5545 wants a UID, but a hand-written file may have none: such an event is known by
        // its summary, so two of them on the same day (two birthdays) are two messages.
        let identity = occurrence.uid.isEmpty ? "no-uid:\(occurrence.summary ?? "")" : occurrence.uid
        return SourceItem(key: "\(identity)@\(occurrence.recurrenceID / 1_000_000)", fields: fields, link: link,
                          expires: end)
    }

    /// Wakes at the next poll, fetch or occurrence boundary, whichever is first.
    private func schedule(after now: Int64) {
        var next = now + poll
        if case .url = location { next = max(now + 1_000_000, min(nextFetch, now + 60_000_000)) }
        for occurrence in occurrences {
            for boundary in [occurrence.start - lead, occurrence.end] where boundary > now && boundary < next {
                next = boundary
            }
        }
        timer?.schedule(at: .after(.microseconds(next - now)))
    }

    /// The file or URL, as log lines name it.
    private var origin: String {
        switch location {
        case .file(let path): path
        case .url(let url): url.absoluteString
        }
    }

    /// Logs a problem once until it changes.
    private func report(_ problem: String) {
        guard problem != lastProblem else { return }
        lastProblem = problem
        context?.logger.error("\(problem)")
    }
}

/// Local wall-clock text for `{start}`/`{end}`/`{date}` in a zone.
struct CalendarText {
    let formatter: DateFormatter
    let dayFormatter: DateFormatter

    init(zone: String) {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "HH:mm"
        dayFormatter = DateFormatter()
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.timeZone = TimeZone(identifier: zone)
        dayFormatter.dateFormat = "yyyy-MM-dd"
    }

    func time(_ instant: Int64) -> String { formatter.string(from: Date(timeIntervalSince1970: Double(instant) / 1e6)) }
    func date(_ instant: Int64) -> String { dayFormatter.string(from: Date(timeIntervalSince1970: Double(instant) / 1e6)) }
}

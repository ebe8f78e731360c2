// Release-built measurement of Schedule.nextBoundary with 100k messages (run by
// scripts/schedule-benchmark.sh; not part of the test suite, which never times anything). The
// messages come from Benchmarks/…/ScheduleSamples.swift, compiled beside this file.
import Foundation
import TickerModel

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func loadZone(_ name: String) -> ZoneRules? {
    guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else { return nil }
    return try? TZifParser.parse([UInt8](data), name: name)
}

struct Zones: TimeZoneLookup {
    let localZone: ZoneRules = loadZone("Europe/Berlin") ?? .utc
    func zone(named name: String) -> ZoneRules? { loadZone(name) }
}

var random = SystemRandomNumberGenerator()
let zones = Zones()
let second: Int64 = 1_000_000
let origin: Int64 = 1_767_225_600 * second  // 2026-01-01 00:00 UTC
let expressions = [
    "daily", "hourly", "*:0/5", "*:0/15", "Mon..Fri 09:00", "Sat,Sun 10:00", "*-*-* 22:00", "*-*~1 18:00",
    "*-12-24 18:00", "Mon *-*-1..7 12:00", "*:*:0/30", "*-*-* 08..18:00/2", "weekly", "monthly",
    "*-*-* 02:30 Europe/Berlin", "*-*-* 01:45 Australia/Lord_Howe", "*-*-* 09:00 America/New_York",
    "*-*-* 17:30 Asia/Kolkata", "quarterly", "*:07,37",
]
let calendars = expressions.compactMap { try? CalendarSpec(parsing: $0, zones: zones) }

// nextElapse cost per expression.
var elapseTotal: UInt64 = 0
var elapseCalls = 0
for calendar in calendars {
    var t = origin
    let start = now()
    for _ in 0..<2000 {
        guard let next = calendar.nextElapse(after: t) else { break }
        t = next
        elapseCalls += 1
    }
    elapseTotal += now() - start
}

func measure(_ title: String, _ entries: [ScheduleEntry]) {
    var schedule = Schedule(entries)
    var start = now()
    _ = schedule.nextBoundary(after: origin)
    let buildMs = Double(now() - start) / 1e6

    // March from boundary to boundary, as the daemon does.
    var t = origin
    var queries = 0
    start = now()
    while queries < 50_000, let next = schedule.nextBoundary(after: t) {
        t = next
        queries += 1
    }
    let marchNs = Double(now() - start) / Double(queries)

    // Asking again when nothing changed.
    start = now()
    var sink: Int64 = 0
    for _ in 0..<1_000_000 { sink &+= schedule.nextBoundary(after: t) ?? 0 }
    let idleNs = Double(now() - start) / 1_000_000

    start = now()
    var activeCount = 0
    for _ in 0..<20 { activeCount = schedule.activeEntries(at: t).count }
    let activeMs = Double(now() - start) / 20 / 1e6

    print("== \(title)")
    print(String(format: "first evaluation of all 100000 messages: %.1f ms", buildMs))
    print(String(format: "nextBoundary marching boundary to boundary: %.2f µs per query (%d queries, to %@)",
                 marchNs / 1000, queries, TimestampFormat.timestamp(t, in: .utc)))
    print(String(format: "nextBoundary when nothing changed: %.3f µs per query", idleNs / 1000))
    print(String(format: "activeEntries (%d active, sorted): %.2f ms", activeCount, activeMs))
    if sink == 42 { print("") }
}

print(String(format: "nextElapse: %.2f µs per call (%d calls over %d calendars)",
             Double(elapseTotal) / Double(elapseCalls) / 1000, elapseCalls, calendars.count))
// Distinct calendars: each recurring message has its own time of day (and zone for some).
let distinct = makeScheduleEntries(origin: origin) { i in
    let zone = ["", " UTC", " America/New_York", " Australia/Lord_Howe"][i % 4]
    let text = "*-*-* \(i / 7 % 24):\(i / 3 % 60):\(i % 60)\(zone)"
    return (try? CalendarSpec(parsing: text, zones: zones)) ?? calendars[0]
}
measure("30000 recurring messages with distinct calendars", distinct)
// Shared calendars: 1500 messages per calendar start together.
let shared = makeScheduleEntries(origin: origin) { _ in calendars[Int.random(in: 0..<calendars.count, using: &random)] }
measure("30000 recurring messages sharing \(calendars.count) calendars", shared)

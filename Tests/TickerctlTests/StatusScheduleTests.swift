import Foundation
import Testing
import TestSupport

/// `tickerctl status` tells a channel that shows nothing now but holds scheduled messages from one
/// that holds none, and says when the next one comes on: a message scheduled for 21:00, looked at
/// in the afternoon, read as "empty", as if it were lost.
@Suite(.serialized) struct StatusScheduleTests {
    @Test func aChannelOfOnlyScheduledMessagesSaysSoAndWhenTheNextStarts() throws {
        let fixture = try CLIFixture(environment: ["TZ": "UTC"])
        // A nightly message whose window is two hours ahead (so not open now), whenever this runs.
        let now = Date()
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let hour = (utc.component(.hour, from: now) + 2) % 24
        var nightly = try #require(utc.date(bySettingHour: hour, minute: 0, second: 0, of: now))
        if nightly <= now { nightly = try #require(utc.date(byAdding: .day, value: 1, to: nightly)) }
        let expression = String(format: "*-*-* %02d:00:00 UTC", hour)
        _ = try fixture.ok(["post", "--channel", "night", "--id", "bedtime", "--calendar", expression,
                            "--duration", "30min", "It's night-time right now. You should be in bed"])
        // Beside a shown message, one that starts at a given time, later than the nightly one.
        let later = nightly.addingTimeInterval(86_400 * 3)
        _ = try fixture.ok(["post", "Shown now"])
        _ = try fixture.ok(["post", "--id", "later", "--start", "@\(Int(later.timeIntervalSince1970))", "Later"])
        _ = try fixture.ok(["configure", "quiet", "columns=30"])
        // busctl, independently: the nightly channel shows nothing now.
        #expect(try fixture.property("Messages", channel: "night") as? [String] == [])

        let text = try fixture.ok(["status"])
        #expect(text.contains("3 channels, 1 active message, 2 scheduled, 0 subscribers"), "\(text)")
        let rows = Self.rows(text)
        let night = try #require(rows["night"], "\(text)")
        #expect(night["STATE"] == "scheduled" && night["MESSAGES"] == "0" && night["SCHEDULED"] == "1", "\(night)")
        #expect(night["NEXT"] == Self.timestamp(nightly), "\(night)")
        let main = try #require(rows["main"], "\(text)")
        #expect(main["STATE"] == "running" && main["MESSAGES"] == "1" && main["SCHEDULED"] == "1", "\(main)")
        #expect(main["NEXT"] == Self.timestamp(later), "\(main)")
        let quiet = try #require(rows["quiet"], "\(text)")
        #expect(quiet["STATE"] == "empty" && quiet["SCHEDULED"] == "0" && quiet["NEXT"] == "-", "\(quiet)")

        // --json says the same.
        let json = try fixture.ok(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let channels = try #require(object["channels"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: channels.compactMap { channel in
            (channel["Name"] as? String).map { ($0, channel) }
        })
        #expect(byName["night"]?["state"] as? String == "scheduled")
        #expect(byName["night"]?["scheduled"] as? [String] == ["bedtime"])
        #expect((byName["night"]?["nextStart"] as? NSNumber)?.int64Value == Int64(nightly.timeIntervalSince1970) * 1_000_000)
        #expect(byName["main"]?["state"] as? String == "running")
        #expect(byName["main"]?["scheduled"] as? [String] == ["later"])
        #expect((byName["main"]?["nextStart"] as? NSNumber)?.int64Value == Int64(later.timeIntervalSince1970) * 1_000_000)
        #expect(byName["quiet"]?["state"] as? String == "empty")
        #expect(byName["quiet"]?["scheduled"] as? [String] == [])
        #expect(byName["quiet"]?["nextStart"] is NSNull)
    }

    /// `date` as tickerctl prints times in UTC: `Fri 2026-11-27 21:00:00 UTC`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    /// The status table's rows by channel, each cell under its header (cut at the header's columns,
    /// so cells with spaces, like times, stay whole).
    static func rows(_ text: String) -> [String: [String: String]] {
        let lines = text.split(separator: "\n").map(String.init)
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("CHANNEL ") }) else { return [:] }
        let header = Array(lines[headerIndex])
        var starts: [(name: String, at: Int)] = []
        for index in header.indices where header[index] != " " && (index == 0 || header[index - 1] == " ") {
            let name = String(header[index...].prefix { $0 != " " })
            starts.append((name, index))
        }
        var rows: [String: [String: String]] = [:]
        for line in lines[(headerIndex + 1)...] {
            let characters = Array(line)
            var cells: [String: String] = [:]
            for (position, column) in starts.enumerated() {
                let end = position + 1 < starts.count ? starts[position + 1].at : characters.count
                let cell = column.at < characters.count ? characters[column.at..<min(end, characters.count)] : []
                cells[column.name] = String(cell).trimmingCharacters(in: .whitespaces)
            }
            if let name = cells["CHANNEL"] { rows[name] = cells }
        }
        return rows
    }
}

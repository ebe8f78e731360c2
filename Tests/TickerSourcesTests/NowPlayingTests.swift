import Foundation
import Testing
import TestSupport

/// Now playing against real players: two mpv instances with Debian's mpv-mpris plugin on a
/// private session bus, driven through their MPRIS interfaces with busctl.
@Suite(.serialized) struct NowPlayingTests {
    /// Where Debian's mpv-mpris puts its plugin.
    static var plugin: String? {
        ["/usr/lib/mpv-mpris/mpris.so", "/etc/mpv/scripts/mpris.so", "/usr/lib/x86_64-linux-gnu/mpv/mpris.so"]
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A two-second 440 Hz mono WAV whose INFO chunk names `title` and `artist` (none when nil,
    /// as a radio stream or a video has no artist).
    static func writeTrack(_ path: String, title: String, artist: String?) throws {
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            var padded = body
            if padded.count % 2 == 1 { padded.append(0) }
            return Array(id.utf8) + le32(body.count) + padded
        }
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let rate = 8000
        var samples: [UInt8] = []
        for index in 0..<(rate * 2) {
            let value = Int(3000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))
            samples += le16(value & 0xFFFF)
        }
        let format = le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
        let info = Array("INFO".utf8) + chunk("INAM", Array(title.utf8) + [0])
            + (artist.map { chunk("IART", Array($0.utf8) + [0]) } ?? [])
        let body = Array("WAVE".utf8) + chunk("fmt ", format) + chunk("LIST", info) + chunk("data", samples)
        try Data(Array("RIFF".utf8) + le32(body.count) + body).write(to: URL(fileURLWithPath: path))
    }

    /// How long a new player may take to start and be shown: mpv has taken over 10 s to register
    /// its MPRIS name while the whole suite ran in parallel on 2 cores.
    static let playerStart = Duration.seconds(60)

    /// Starts mpv on `file`, looping, with the MPRIS plugin, on the fixture's bus; it logs to
    /// ``log(of:)``.
    static func player(_ file: String, fixture: SourcesFixture, plugin: String) throws -> ChildProcess {
        try ChildProcess("mpv", [
            "--no-config", "--no-video", "--ao=null", "--loop-file=inf", "--no-terminal", "--script=\(plugin)",
            "--log-file=\(file).log", file,
        ], environment: ["DBUS_SESSION_BUS_ADDRESS": fixture.address])
    }

    /// The end of the log of the player started on `file` (for a failure's message).
    static func log(of file: String) -> String {
        let text = (try? String(contentsOfFile: "\(file).log", encoding: .utf8)) ?? "(no log)"
        return String(text.suffix(2000))
    }

    /// The MPRIS bus name of the player with process id `pid` (nil until it has one).
    static func busName(of pid: pid_t, fixture: SourcesFixture) throws -> String? {
        let names = try fixture.ok("busctl", ["--address=\(fixture.address)", "--json=short", "call", "org.freedesktop.DBus",
                                              "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames"])
        let json = try JSONSerialization.jsonObject(with: Data(names.utf8)) as? [String: Any]
        let all = ((json?["data"] as? [Any])?.first as? [String]) ?? []
        for name in all where name.hasPrefix("org.mpris.MediaPlayer2.") {
            let reply = try ChildProcess.run("busctl", [
                "--address=\(fixture.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", name,
            ])
            if reply.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "u \(pid)" { return name }
        }
        return nil
    }

    /// Calls an MPRIS method of player `name`.
    static func control(_ name: String, _ member: String, fixture: SourcesFixture, interface: String = "org.mpris.MediaPlayer2.Player") throws {
        try fixture.ok("busctl", ["--address=\(fixture.address)", "call", name, "/org/mpris/MediaPlayer2", interface, member])
    }

    @Test func followsTheMostRecentlyActivePlayerThroughPlayPauseAndQuit() throws {
        let plugin = try #require(Self.plugin, "mpv-mpris is not installed (make deps)")
        let files = try TemporaryDirectory(prefix: "now-playing")
        try Self.writeTrack(files.file("a.wav"), title: "Sinnerman", artist: "Nina Simone")
        try Self.writeTrack(files.file("b.wav"), title: "So What", artist: "Miles Davis")
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "music"
            type = "mpris"
            template = "♪ {artist} — {title}"
            paused = "paused: {title}"
            """)
        try fixture.startService()
        let texts = { try fixture.messages(of: "music").map(\.text) }

        let first = try Self.player(files.file("a.wav"), fixture: fixture, plugin: plugin)
        defer { first.kill(SIGKILL) }
        #expect(try fixture.wait(Self.playerStart) { try texts() == ["♪ Nina Simone — Sinnerman"] },
                "\(Self.log(of: files.file("a.wav")))")
        let a = try #require(try Self.busName(of: first.pid, fixture: fixture))

        let second = try Self.player(files.file("b.wav"), fixture: fixture, plugin: plugin)
        defer { second.kill(SIGKILL) }
        #expect(try fixture.wait(Self.playerStart) { try texts() == ["♪ Miles Davis — So What"] },
                "\(Self.log(of: files.file("b.wav")))")
        var b: String?
        fixture.wait { b = try? Self.busName(of: second.pid, fixture: fixture); return b != nil }
        let bName = try #require(b)
        #expect(try fixture.messages(of: "music").map(\.id) == ["src/music/current"])

        // The newer player pauses: the one still playing is shown.
        try Self.control(bName, "Pause", fixture: fixture)
        #expect(try fixture.wait { try texts() == ["♪ Nina Simone — Sinnerman"] })
        // Both paused: the most recently active, in the paused form.
        try Self.control(a, "Pause", fixture: fixture)
        #expect(try fixture.wait { try texts() == ["paused: Sinnerman"] })
        try Self.control(bName, "Play", fixture: fixture)
        #expect(try fixture.wait { try texts() == ["♪ Miles Davis — So What"] })

        // A player that quits goes within a second.
        var started = ContinuousClock.now
        try Self.control(bName, "Quit", fixture: fixture, interface: "org.mpris.MediaPlayer2")
        #expect(try fixture.wait { try texts() == ["paused: Sinnerman"] })
        #expect(ContinuousClock.now - started < .seconds(1))

        // Stopped shows nothing, within a second.
        try Self.control(a, "Play", fixture: fixture)
        #expect(try fixture.wait { try texts() == ["♪ Nina Simone — Sinnerman"] })
        started = ContinuousClock.now
        try Self.control(a, "Stop", fixture: fixture)
        #expect(try fixture.wait { try texts().isEmpty })
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func pausedShowsNothingWithoutAPausedTemplate() throws {
        let plugin = try #require(Self.plugin, "mpv-mpris is not installed (make deps)")
        let files = try TemporaryDirectory(prefix: "now-playing")
        try Self.writeTrack(files.file("a.wav"), title: "Blue in Green", artist: "Bill Evans")
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "music"
            type = "mpris"
            template = "{title} ({player})"
            """)
        try fixture.startService()
        let player = try Self.player(files.file("a.wav"), fixture: fixture, plugin: plugin)
        defer { player.kill(SIGKILL) }
        #expect(try fixture.wait(Self.playerStart) {
            try fixture.messages(of: "music").map(\.text).first?.hasPrefix("Blue in Green (mpv") == true
        }, "\(Self.log(of: files.file("a.wav")))")
        let name = try #require(try Self.busName(of: player.pid, fixture: fixture))
        try Self.control(name, "Pause", fixture: fixture)
        #expect(try fixture.wait { try fixture.messages(of: "music").isEmpty })
        // The player that quits while paused leaves nothing either.
        player.kill(SIGTERM)
        _ = try player.wait(timeout: .seconds(10))
        #expect(try fixture.messages(of: "music").isEmpty)
    }

    @Test func aTrackWithoutAnArtistReadsAsItsTitleAlone() throws {
        let plugin = try #require(Self.plugin, "mpv-mpris is not installed (make deps)")
        let files = try TemporaryDirectory(prefix: "now-playing")
        try Self.writeTrack(files.file("stream.wav"), title: "Radio Paradise", artist: nil)
        try Self.writeTrack(files.file("song.wav"), title: "Sinnerman", artist: "Nina Simone")
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "music"
            type = "mpris"
            template = "♪ [{artist} — ]{title}"
            paused = "⏸ [{artist} — ]{title}"
            """)
        try fixture.startService()
        let texts = { try fixture.messages(of: "music").map(\.text) }

        // No artist: no dangling separator, while playing and while paused.
        let stream = try Self.player(files.file("stream.wav"), fixture: fixture, plugin: plugin)
        defer { stream.kill(SIGKILL) }
        #expect(try fixture.wait(Self.playerStart) { try texts() == ["♪ Radio Paradise"] },
                "\(String(describing: try? texts())) \(Self.log(of: files.file("stream.wav")))")
        let streamName = try #require(try Self.busName(of: stream.pid, fixture: fixture))
        try Self.control(streamName, "Pause", fixture: fixture)
        #expect(try fixture.wait { try texts() == ["⏸ Radio Paradise"] }, "\(String(describing: try? texts()))")

        // A track with an artist shows the part, separator included.
        let song = try Self.player(files.file("song.wav"), fixture: fixture, plugin: plugin)
        defer { song.kill(SIGKILL) }
        #expect(try fixture.wait(Self.playerStart) { try texts() == ["♪ Nina Simone — Sinnerman"] },
                "\(String(describing: try? texts())) \(Self.log(of: files.file("song.wav")))")
    }
}

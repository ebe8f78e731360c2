import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10, "Faults": frames nobody reads. A subscriber that stops reading must cost the others
/// nothing, and a bus that stops reading the daemon must not make it grow without bound; both
/// ways the daemon keeps answering and recovers.
@Suite(.serialized) struct DaemonBackpressureTests {
    /// Columns of the wide subscriptions: below the text's width (2120 cells), so it scrolls.
    static let wide: UInt32 = 1500

    /// A long text on `channel`, so every frame at any rate differs from the one before.
    static func scrolling(_ fixture: DaemonFixture, channel: String) throws {
        _ = try fixture.post(String(repeating: "A ticker that never stops moving, frame after frame. ", count: 40), channel: channel)
        _ = try fixture.call("Configure", "sa{sv}", [channel, "1", "speed", "d", "240"])
    }

    /// A healthy subscriber on `main` at `fps`.
    static func watcher(_ fixture: DaemonFixture, fps: Double) throws -> BusClient {
        let client = try BusClient(address: fixture.address)
        try client.record(interface: DaemonFixture.channelInterface, member: "Frame")
        try client.call(path: DaemonFixture.channelPath("main"), interface: DaemonFixture.channelInterface,
                        member: "Subscribe", [.vardict(["columns": .uint32(40), "fps": .double(fps)])])
        return client
    }

    /// Over `seconds`: frames `watcher` got, the slowest of Posts made every 200 ms, and the
    /// daemon's peak RSS.
    static func observe(_ fixture: DaemonFixture, _ watcher: BusClient, seconds: Double) throws
        -> (frames: Int, slowestPost: Double, peakRSS: Int) {
        let client = try FuzzClient(address: fixture.address)
        let start = ContinuousClock.now
        let framesBefore = watcher.signals.count
        var slowest = 0.0
        var peak = 0
        var index = 0
        while (ContinuousClock.now - start).fuzzSeconds < seconds {
            let posted = ContinuousClock.now
            _ = try client.call(DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "Post",
                                [.string("side"), .string("post \(index)"), .vardict(["id": .string("side\(index % 5)")])],
                                timeout: .seconds(5))
            slowest = max(slowest, (ContinuousClock.now - posted).fuzzSeconds)
            peak = max(peak, ProcessSample.of(fixture.daemon.process.pid)?.residentBytes ?? 0)
            index += 1
            usleep(200_000)  // the Post pace, not a wait for a condition
        }
        return (watcher.signals.count - framesBefore, slowest, peak)
    }

    @Test func aSubscriberThatStopsReadingCostsTheOthersNothing() throws {
        // dbus-daemon refuses messages for a connection with more than 2 MB queued (default 127 MB).
        let bus = try PrivateBus(extraConfig: "<limit name=\"max_outgoing_bytes\">2000000</limit>")
        let fixture = try DaemonFixture(bus: bus)
        try Self.scrolling(fixture, channel: "main")
        let stalled = try StalledSubscriber(address: fixture.address)
        for index in 0..<6 {
            let channel = "wide\(index)"
            try Self.scrolling(fixture, channel: channel)
            try stalled.subscribe(channel: channel, columns: Self.wide, fps: 60)
        }
        stalled.stall()
        let watcher = try Self.watcher(fixture, fps: 30)
        let baseline = try #require(ProcessSample.of(fixture.daemon.process.pid)).residentBytes
        let seen = try Self.observe(fixture, watcher, seconds: 8)

        #expect(!fixture.daemon.process.hasExited)
        #expect(seen.frames >= Int(30 * 8 * 0.6), "the reading subscriber got \(seen.frames) frames in 8 s at 30 fps")
        #expect(seen.slowestPost < 1, "a Post took \(seen.slowestPost) s")
        if !Sanitizer.distortsMemory {
            #expect(seen.peakRSS - baseline < 30 << 20, "tickerd grew by \(seen.peakRSS - baseline) bytes")
        }
        let refused = bus.daemon.standardError.contains("full message queue")
        print("stalled subscriber: watcher \(seen.frames) frames / 8 s, slowest Post \(seen.slowestPost) s, "
              + "tickerd RSS \(baseline >> 10) → peak \(seen.peakRSS >> 10) KiB, dbus-daemon refused frames: \(refused)")

        // When it reads again it is served again, and the daemon never noticed anything.
        stalled.resume()
        #expect(try fixture.render(columns: 10, at: 0).text.count == 10)
    }

    @Test func aBusThatStopsReadingDoesNotGrowTheDaemonAndItRecovers() throws {
        let fixture = try DaemonFixture()
        let subscribers = try (0..<4).map { _ in try StalledSubscriber(address: fixture.address) }
        for index in 0..<8 {
            let channel = "wide\(index)"
            try Self.scrolling(fixture, channel: channel)
            for subscriber in subscribers { try subscriber.subscribe(channel: channel, columns: Self.wide, fps: 60) }
        }
        try Self.scrolling(fixture, channel: "main")
        let watcher = try Self.watcher(fixture, fps: 30)
        #expect(watcher.waitFor { $0.count >= 10 })
        let pid = fixture.daemon.process.pid
        let baseline = try #require(ProcessSample.of(pid)).residentBytes

        // dbus-daemon stops reading anything for 8 s while the daemon makes 32 × 60 frames of
        // 1500 columns a second (about 3 MB/s): without a bound, its queue would pass 20 MB.
        let busDaemon = fixture.daemon.bus.daemon
        busDaemon.kill(SIGSTOP)
        defer { busDaemon.kill(SIGCONT) }
        var peak = baseline
        let stopped = ContinuousClock.now
        while ContinuousClock.now - stopped < .seconds(8) {
            peak = max(peak, ProcessSample.of(pid)?.residentBytes ?? 0)
            usleep(100_000)  // the sampling pace
        }
        busDaemon.kill(SIGCONT)
        #expect(!fixture.daemon.process.hasExited)
        if !Sanitizer.distortsMemory {
            #expect(peak - baseline < 10 << 20, "tickerd grew by \((peak - baseline) >> 10) KiB while the bus was stopped")
        }

        // Back to normal: Posts answered at once, the watcher's frames flow, the log says what happened.
        let seen = try Self.observe(fixture, watcher, seconds: 3)
        #expect(seen.slowestPost < 1, "a Post took \(seen.slowestPost) s after the bus came back")
        #expect(seen.frames >= Int(30 * 3 * 0.5), "the watcher got \(seen.frames) frames in 3 s after the bus came back")
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("dropping frames") },
                "\(fixture.daemon.process.standardError)")
        print("stopped bus: tickerd RSS \(baseline >> 10) → peak \(peak >> 10) KiB in 8 s; afterwards \(seen.frames) frames / 3 s, slowest Post \(seen.slowestPost) s")
        for subscriber in subscribers { subscriber.resume() }
    }
}

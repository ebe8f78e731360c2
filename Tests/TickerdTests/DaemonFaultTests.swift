import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10, "Faults": the real daemon killed mid-burst, started on broken state files, and
/// losing its bus while busy. What a user would notice is asserted: answered posts that vanish,
/// a daemon that does not start or does not exit, a state file that is lost or half-written.
@Suite(.serialized) struct DaemonFaultTests {
    /// Ids `List("")` returns.
    static func listedIDs(_ fixture: DaemonFixture) throws -> Set<String> {
        let client = try FuzzClient(address: fixture.address)
        let listed = try client.call(
            DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "List", [.string("")])
        return Set((listed.first?.arrayValue ?? []).compactMap { $0.structureFields?.first?.stringValue })
    }

    @Test func killNineDuringAPostBurstLosesNoAnsweredPostAndNeverTearsTheStateFile() throws {
        let fixture = try DaemonFixture()
        let statePath = fixture.daemon.stateDirectory + "/state.json"
        var rng = SeededRandom(seed: 0x6B11_1009)
        var answeredTotal = 0
        var readsTotal = 0
        for round in 0..<4 {
            let reader = StateFileReader(path: statePath)
            let burst = try PostBurst(address: fixture.address, posters: 2, prefix: "r\(round)")
            let target = Int.random(in: 30...150, using: &rng)
            #expect(burst.waitForAnswered(atLeast: target, timeout: .seconds(120)), "round \(round): \(burst.stopReasons)")
            fixture.daemon.signal(SIGKILL)
            #expect(try fixture.daemon.process.wait(timeout: .seconds(10)) == 128 + SIGKILL)
            #expect(burst.waitUntilStopped(timeout: .seconds(30)))
            let (reads, torn) = reader.stop()
            #expect(torn.isEmpty, "round \(round): \(torn.count) of \(reads) reads were not whole JSON, e.g. …\(torn.first ?? "")")
            let left = try #require(FileManager.default.contents(atPath: statePath))
            #expect((try? JSONSerialization.jsonObject(with: left)) != nil, "the kill left a state file that does not parse")

            // A temporary file as a kill in the middle of a write leaves it: gone after the restart.
            try Data("{\"version\":1,\"chan".utf8).write(to: URL(fileURLWithPath: statePath + ".tmp.99999"))
            try fixture.daemon.start()
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.daemon.stateDirectory)
                .filter { $0.hasPrefix("state.json.tmp.") }
            #expect(leftovers.isEmpty, "round \(round): temporary files left behind: \(leftovers)")
            let answered = burst.answeredIDs
            let listed = try Self.listedIDs(fixture)
            let missing = answered.filter { !listed.contains($0) }
            #expect(missing.isEmpty, "round \(round): \(missing.count) of \(answered.count) answered posts lost: \(missing.prefix(5))")
            #expect(!fixture.daemon.process.standardError.contains("could not be read"))
            answeredTotal += answered.count
            readsTotal += reads
        }
        print("kill -9: 4 kills, \(answeredTotal) answered posts all present after restart; \(readsTotal) concurrent reads of state.json, none torn")
    }

    @Test func truncatedEmptyOrGarbageStateIsKeptAsideLoggedAndTheDaemonServes() throws {
        let fixture = try DaemonFixture()
        for index in 0..<5 { _ = try fixture.post("message \(index) that will be cut short", channel: "keep") }
        try fixture.daemon.stop()
        let folder = fixture.daemon.stateDirectory
        let path = folder + "/state.json"
        let good = try #require(FileManager.default.contents(atPath: path))
        let variants: [(String, Data)] = [
            ("cut in half", good.prefix(good.count / 2)),
            ("cut one byte short", good.prefix(good.count - 1)),
            ("one byte", good.prefix(1)),
            ("empty", Data()),
            ("binary garbage", Data((0..<700).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })),
            ("JSON of another shape", Data("[1, 2, 3]".utf8)),
            ("a newer format version", Data(String(decoding: good, as: UTF8.self)
                .replacingOccurrences(of: "\"version\":1", with: "\"version\":99").utf8)),
        ]
        var asideBefore: Set<String> = []
        for (name, bytes) in variants {
            try bytes.write(to: URL(fileURLWithPath: path))
            try fixture.daemon.start()
            // Kept aside byte for byte, under a name of its own (none overwritten), and logged.
            let aside = Set(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.json.corrupt-") })
            let new = aside.subtracting(asideBefore)
            #expect(new.count == 1, "\(name): new files aside \(new.sorted()), before \(asideBefore.sorted())")
            if let file = new.first {
                #expect(FileManager.default.contents(atPath: folder + "/" + file) == bytes, "\(name): the kept file differs")
            }
            asideBefore = aside
            #expect(fixture.daemon.process.waitForError(timeout: .seconds(5)) { $0.contains("could not be read") && $0.contains("moved to") },
                    "\(name): nothing logged")
            // It keeps running: posts are stored, frames render.
            _ = try fixture.post("works after \(name)")
            #expect(try fixture.render(columns: 21, at: 0).text.count == 21)
            #expect(!fixture.daemon.process.hasExited)
            try fixture.daemon.stop()
        }
        #expect(asideBefore.count == variants.count)
    }

    @Test func losingTheBusMidLoadSavesAndExitsOneQuicklyWithoutSpinningAndARestartRestores() throws {
        let fixture = try DaemonFixture()
        var ids: [String] = []
        for index in 0..<20 { ids.append(try fixture.post("kept across the bus's death, number \(index)", options: ["ttl", "x", "3600000000"])) }
        // A subscriber at 60 fps keeps the loop busy when the bus goes.
        let subscriber = try BusClient(address: fixture.address)
        try subscriber.record(interface: DaemonFixture.channelInterface, member: "Frame")
        try subscriber.call(path: DaemonFixture.channelPath("main"), interface: DaemonFixture.channelInterface,
                            member: "Subscribe", [.vardict(["columns": .uint32(30), "fps": .double(60)])])
        #expect(subscriber.waitFor { $0.count >= 10 })

        let pid = fixture.daemon.process.pid
        let before = try #require(ProcessSample.of(pid))
        let killed = ContinuousClock.now
        fixture.daemon.bus.daemon.kill(SIGKILL)
        // Sample its CPU time until it is gone (the last sample is at most a few ms before the exit).
        var last = before
        while !fixture.daemon.process.hasExited, ContinuousClock.now - killed < .seconds(10) {
            if let sample = ProcessSample.of(pid) { last = sample }
            usleep(2_000)
        }
        let status = try fixture.daemon.process.wait(timeout: .seconds(10))
        let exitTime = (ContinuousClock.now - killed).fuzzSeconds
        let cpu = last.cpuSeconds - before.cpuSeconds
        #expect(status == 1)
        #expect(exitTime < 2, "tickerd took \(exitTime) s to exit after the bus died")
        #expect(cpu < 0.3, "tickerd used \(cpu) s of CPU while the bus was gone")
        #expect(fixture.daemon.process.standardError.contains("lost the bus connection"))
        print(String(format: "bus death: exit 1 after %.3f s, %.3f s CPU between the kill and the exit", exitTime, cpu))

        // A daemon started on a new bus with the same state serves the same messages.
        let bus = try PrivateBus()
        let restarted = try ChildProcess(
            TickerdProcess.binary("tickerd"),
            ["--bus", bus.address, "--state-dir", fixture.daemon.stateDirectory, "--config", fixture.daemon.configPath],
            environment: ["TICKERD_LOG": "stderr"])
        defer {
            restarted.kill(SIGTERM)
            _ = try? restarted.wait(timeout: .seconds(10))
            bus.stop()
        }
        try BusPeers.waitForOwner(bus.address)
        let client = try FuzzClient(address: bus.address)
        let listed = try client.call(DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "List", [.string("main")])
        let restored = Set((listed.first?.arrayValue ?? []).compactMap { $0.structureFields?.first?.stringValue })
        #expect(restored == Set(ids))
    }
}

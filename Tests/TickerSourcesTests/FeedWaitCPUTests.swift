import Foundation
import Testing
import TestSupport

/// What a slow feed server costs the machine: a fetch that waits for its server sleeps in the
/// kernel instead of spinning, so a laptop stays cool while a feed server takes its time.
@Suite(.serialized) struct FeedWaitCPUTests {
    /// The CPU time (user + system) process `pid` has used, in seconds, from /proc/PID/stat.
    static func cpuSeconds(_ pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces: the fields counted from after its ")".
        guard let close = stat.lastIndex(of: ")") else { throw TestSupportError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15, the 12th and 13th after the command name.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestSupportError("unreadable /proc/\(pid)/stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func aFetchWaitingOnASilentServerUsesAlmostNoCPU() throws {
        let folder = try TemporaryDirectory(prefix: "feed-silent")
        try "".write(toFile: folder.file("silent.xml.silent"), atomically: true, encoding: .utf8)
        let (server, port) = try CalendarFeedSourceTests.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "silent"
            type = "feed"
            url = "http://127.0.0.1:\(port)/silent.xml"
            interval = "1min"
            template = "{title}"
            """)
        try fixture.startService()
        let service = try #require(fixture.service)
        // The server has read the request: from now on the fetch only waits for an answer.
        #expect(server.waitForOutput(timeout: .seconds(10)) { $0.contains("/silent.xml silent\n") }, "\(fixture.log)")
        let before = try Self.cpuSeconds(service.pid)
        // The measured window itself (nothing to synchronise with: the fetch waits for its 30 s deadline).
        usleep(4_000_000)
        let used = try Self.cpuSeconds(service.pid) - before
        #expect(!server.standardOutput.contains("/silent.xml silent, client left"), "the fetch ended within the window")
        #expect(used < 0.3, "tickerd-sources used \(used) s of CPU in 4 s while one fetch waited for a silent server")
    }
}

import Foundation
import Testing
import TestSupport

/// The system unit's `SystemCallFilter=` and `MemoryDenyWriteExecute=` against what the built
/// Swift binaries really do: every system call `strace` sees is in the filter's allowed set, and
/// no mapping is ever made writable and executable or made executable later. (No systemd manager is
/// started: the allowed set comes from `systemd-analyze syscall-filter`.)
///
/// The runs cover process start-up (the dynamic loader, glibc, the Swift runtime, Foundation and
/// ArgumentParser). When the daemon serves the bus, add a run of `tickerd --bus ADDRESS` on a
/// private bus with a few calls and a SIGTERM to ``runs``.
///
/// Under `make sanitize` the suite steps aside: a sanitizer runtime makes system calls and mappings
/// of its own (shadow memory, ptrace checks) that the production binary never makes, and
/// LeakSanitizer refuses to run under strace's ptrace.
@Suite(.disabled(if: Sanitizer.isActive, "the sanitizer runtime's own system calls are not the daemon's"))
struct SyscallFilterTests {
    static let runs: [[String]] = [
        [Repository.builtProduct("tickerd"), "--version"],
        [Repository.builtProduct("tickerd"), "--help"],
        [Repository.builtProduct("tickerctl"), "--help"],
        // What the units' ExecReload= runs before signalling the daemon.
        [Repository.builtProduct("tickerd"), "--check-config", "--config", Repository.path("examples/tickerd.toml")],
    ]

    /// The system calls a `SystemCallFilter=` list allows: `+` groups and names minus `~` ones.
    static func allowed(by unit: UnitFile) throws -> Set<String> {
        let listing = try ChildProcess.run("systemd-analyze", ["syscall-filter", "--no-pager"])
        var groups: [String: [String]] = [:]
        var current: String?
        for raw in listing.stdout.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if raw.hasPrefix("@") { current = line; groups[line] = [] }
            else if let group = current, !line.isEmpty, !line.hasPrefix("#") { groups[group, default: []].append(line) }
        }
        func expand(_ entry: String) -> Set<String> {
            guard entry.hasPrefix("@") else { return [entry] }
            return (groups[entry] ?? []).reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
        }
        var allowed: Set<String> = []
        for value in unit.values("SystemCallFilter") {
            let deny = value.hasPrefix("~")
            let entries = (deny ? String(value.dropFirst()) : value).split(separator: " ").map(String.init)
            let names = entries.reduce(into: Set<String>()) { $0.formUnion(expand($1)) }
            if deny { allowed.subtract(names) } else { allowed.formUnion(names) }
        }
        return allowed
    }

    @Test(arguments: runs)
    func everySystemCallIsAllowedAndNoMemoryBecomesExecutable(_ command: [String]) throws {
        let folder = try TemporaryDirectory(prefix: "tickerd-strace")
        let trace = folder.file("trace")
        let traced = try ChildProcess.run("strace", ["-f", "-qq", "-o", trace] + command, timeout: .seconds(60))
        #expect(traced.status == 0, "\(traced.stderr)")
        try checkTrace(trace)
    }

    /// The daemon at work: serving the bus, posting, rendering, a subscriber's frames, a reload,
    /// then SIGTERM — every call it makes must be inside the unit's filter.
    @Test func aServingDaemonStaysInsideTheFilter() throws {
        let daemon = try TracedDaemon(environment: ["WATCHDOG_USEC": "200000"])
        let bus = daemon.bus
        let busctl = { (arguments: [String]) throws -> Int32 in
            try ChildProcess.run("busctl", ["--address=\(bus.address)", "--"] + arguments).status
        }
        let control = ["call", "io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1", "io.github.tickerd.Ticker1.Control"]
        let channel = ["call", "io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1/channel/main",
                       "io.github.tickerd.Ticker1.Channel"]
        #expect(try busctl(control + ["Post", "ssa{sv}", "main", "Traced text, long enough to scroll...", "1", "effect", "s", "dots"]) == 0)
        #expect(try busctl(control + ["SetValue", "ssda{sv}", "main", "n", "5", "1", "duration", "x", "300000"]) == 0)
        #expect(try busctl(channel + ["Render", "ux", "20", "0"]) == 0)
        #expect(try busctl(control + ["Reload"]) == 0)
        // A subscriber for a moment: gdbus subscribes and leaves, the daemon notices.
        let subscribe = try ChildProcess.run("gdbus", ["call", "--address", bus.address, "--dest", "io.github.tickerd.Ticker1",
            "--object-path", "/io/github/tickerd/Ticker1/channel/main", "--method",
            "io.github.tickerd.Ticker1.Channel.Subscribe", "{'fps': <30.0>}"])
        #expect(subscribe.status == 0)
        #expect(daemon.notify.wait(timeout: .seconds(5)) { $0.contains("WATCHDOG=1") } != nil)
        guard try daemon.stop() else { return }
        try checkTrace(daemon.trace)
    }

    private func checkTrace(_ trace: String) throws {
        let unit = try UnitFile("systemd/tickerd.service")
        let allowed = try Self.allowed(by: unit)
        #expect(allowed.contains("epoll_wait") && !allowed.contains("setrlimit"))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        var used: Set<String> = []
        for line in lines {
            let call = line.drop { $0.isNumber || $0 == " " }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !call.isEmpty, line.contains("(") { used.insert(String(call)) }
            if line.contains("PROT_EXEC") && (line.contains("PROT_WRITE") || line.contains("mprotect(")) {
                Issue.record("MemoryDenyWriteExecute would refuse: \(line)")
            }
        }
        #expect(used.count > 10)
        #expect(used.subtracting(allowed) == [], "outside SystemCallFilter=")
    }
}

import Foundation
import Testing
import TestSupport
import TickerNames

/// A running `tickerd` on a private bus and the independent peers (busctl, gdbus, dbus-monitor)
/// that talk to it.
final class DaemonFixture: Sendable {
    static let service = TickerBus.name
    static let managerPath = TickerBus.managerPath
    static let control = TickerBus.controlInterface
    static let managerInterface = TickerBus.managerInterface
    static let channelInterface = TickerBus.channelInterface

    let daemon: TickerdProcess

    init(config: String = "", environment: [String: String] = [:], bus: PrivateBus? = nil, wrapper: [String] = []) throws {
        daemon = try TickerdProcess(config: config, bus: bus, environment: environment, wrapper: wrapper)
    }

    deinit {
        _ = try? daemon.stop()
        daemon.bus.stop()
    }

    var address: String { daemon.bus.address }

    static func channelPath(_ name: String) -> String { TickerBus.channelPath(name) }

    /// `busctl --address=… --json=short call …`, failing the test when busctl fails.
    func call(
        _ member: String, _ signature: String = "", _ arguments: [String] = [],
        path: String = DaemonFixture.managerPath, interface: String = DaemonFixture.control
    ) throws -> BusctlReply {
        let output = try busctl(["call", Self.service, path, interface, member] + (signature.isEmpty ? [] : [signature]) + arguments)
        guard output.status == 0 else {
            throw TestSupportError("busctl call \(member) failed: \(output.stderr)")
        }
        return try BusctlReply(json: output.stdout)
    }

    /// `busctl call` expected to fail: returns its error text (busctl prints the message).
    func callFailing(
        _ member: String, _ signature: String = "", _ arguments: [String] = [],
        path: String = DaemonFixture.managerPath, interface: String = DaemonFixture.control
    ) throws -> String {
        let output = try busctl(["call", Self.service, path, interface, member] + (signature.isEmpty ? [] : [signature]) + arguments)
        #expect(output.status != 0, "busctl call \(member) should have failed but printed \(output.stdout)")
        return output.stderr
    }

    /// `gdbus call` returning (exit status, stdout, stderr); gdbus names the D-Bus error.
    func gdbus(_ path: String, _ method: String, _ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run("gdbus", [
            "call", "--address", address, "--dest", Self.service, "--object-path", path, "--method", method,
        ] + arguments)
    }

    /// The D-Bus error name of a failing gdbus call, e.g. `io.github.tickerd.Ticker1.Error.InvalidText`.
    func gdbusErrorName(_ path: String, _ method: String, _ arguments: [String]) throws -> String {
        let output = try gdbus(path, method, arguments)
        #expect(output.status != 0, "gdbus \(method) should have failed but printed \(output.stdout)")
        // "Error: GDBus.Error:io.github.tickerd.Ticker1.Error.InvalidText: message"
        guard let range = output.stderr.range(of: "GDBus.Error:") else { return output.stderr }
        let rest = output.stderr[range.upperBound...]
        return String(rest.prefix { $0 != ":" })
    }

    /// A channel property as busctl's JSON.
    func property(_ channel: String, _ name: String) throws -> BusctlReply {
        let output = try busctl(["get-property", Self.service, Self.channelPath(channel), Self.channelInterface, name])
        guard output.status == 0 else { throw TestSupportError("get-property \(name): \(output.stderr)") }
        return try BusctlReply(json: output.stdout)
    }

    /// Posts `text` to `channel` with `options` (busctl a{sv} arguments, e.g. ["ttl", "x", "5000000"]).
    func post(_ text: String, channel: String = "main", options: [String] = []) throws -> String {
        let reply = try call("Post", "ssa{sv}", [channel, text, "\(options.count / 3)"] + options)
        return try #require(reply.strings.first)
    }

    /// `Render(columns, at)` → (text, offset).
    func render(_ channel: String = "main", columns: Int, at: Int64) throws -> (text: String, offset: Double) {
        let reply = try call(
            "Render", "ux", ["\(columns)", "\(at)"], path: Self.channelPath(channel), interface: Self.channelInterface)
        let text = try #require(reply.data.first as? String)
        let offset = try #require((reply.data.dropFirst().first as? NSNumber)?.doubleValue)
        return (text, offset)
    }

    /// Waits (polling the property, with a deadline) until `condition` holds for it.
    func waitForProperty(
        _ channel: String, _ name: String, timeout: Duration = .seconds(10), _ condition: (BusctlReply) -> Bool
    ) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if condition(try property(channel, name)) { return true }
        } while ContinuousClock.now < deadline
        return false
    }

    func busctl(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run("busctl", ["--address=\(address)", "--json=short", "--"] + arguments)
    }

    /// Voluntary + involuntary context switches summed over the process's threads.
    static func contextSwitches(pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var total = 0
        for task in tasks {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }

    /// Waits until every thread of `pid` is asleep (state `S` in `/proc/PID/task/TID/stat`), so a
    /// count of context switches taken afterwards does not catch the daemon on its way back to
    /// `epoll_wait` after its last reply. False when it is still running at `timeout`.
    static func waitUntilAsleep(pid: Int32, timeout: Duration = .seconds(5)) throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
            let asleep = try tasks.allSatisfy { task in
                let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)
                // The state follows the command name, which is in parentheses and may hold spaces.
                guard let close = stat.lastIndex(of: ")") else { return false }
                return stat[close...].dropFirst(2).first == "S"
            }
            if asleep { return true }
            usleep(2_000)
        }
        return false
    }

    /// CLOCK_REALTIME now in µs.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}

/// busctl's `--json=short` output: `{"type":"…","data":…}`. For `call`, `data` is the array of
/// out arguments; for `get-property`, `value` is the property's value.
struct BusctlReply: @unchecked Sendable {
    let type: String
    let value: Any

    init(json: String) throws {
        if json.allSatisfy(\.isWhitespace) {
            type = ""
            value = [Any]()
            return
        }
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        guard let dictionary = object as? [String: Any], let type = dictionary["type"] as? String else {
            throw TestSupportError("not busctl JSON: \(json)")
        }
        self.type = type
        value = dictionary["data"] ?? NSNull()
    }

    /// The out arguments of a call.
    var data: [Any] { value as? [Any] ?? [value] }

    /// The string out arguments of a call.
    var strings: [String] { data.compactMap { $0 as? String } }

    /// A dictionary property (`a{sv}`) with the variants unwrapped.
    var dictionary: [String: Any] {
        guard let entries = value as? [String: Any] else { return [:] }
        return entries.mapValues { ($0 as? [String: Any])?["data"] ?? $0 }
    }
}

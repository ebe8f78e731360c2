import DBus
import Foundation
import Testing
import TestSupport

/// A private bus, a loop thread, and the test service exported on it.
final class BusFixture: Sendable {
    let bus: PrivateBus
    let thread: LoopThread
    let service: LoopBound<TestService>

    init(extraConfig: String = "") throws {
        bus = try PrivateBus(extraConfig: extraConfig)
        thread = try LoopThread()
        let address = bus.address
        let loop = thread.loop
        service = try thread.sync { LoopBound(try TestService(address: address, loop: loop), loop: loop) }
    }

    deinit {
        let service = self.service
        try? thread.sync { service.value.connection.close() }
        thread.stop()
        bus.stop()
    }

    /// Reads something from the service on its loop.
    func read<T: Sendable>(_ body: @escaping @Sendable (TestService) throws -> T) throws -> T {
        let service = self.service
        return try thread.sync { try body(service.value) }
    }

    /// Waits (up to `timeout`) until `condition` holds on the service's loop.
    func waitFor(timeout: Duration = .seconds(20), _ condition: @escaping @Sendable (TestService) -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        let service = self.service
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<Bool>()
        thread.loop.execute {
            let loop = service.loop
            let remaining = deadline - ContinuousClock.now
            let met = loop.run(timeout: remaining) { condition(service.value) }
            result.set(.success(met))
            done.signal()
        }
        done.wait()
        return try result.get()
    }

    /// `busctl --address=… <options> -- <arguments>` (so negative numbers are not options).
    func busctl(_ arguments: [String], options: [String] = []) throws -> ChildProcess.Output {
        try ChildProcess.run("busctl", ["--address=\(bus.address)"] + options + ["--"] + arguments)
    }

    /// `busctl call` on the test object.
    func busctlCall(_ member: String, _ arguments: [String] = []) throws -> ChildProcess.Output {
        try busctl(["call", TestService.busName, TestService.pathText, TestService.interfaceName, member] + arguments)
    }

    /// `gdbus call` on the test object.
    func gdbusCall(_ member: String, _ arguments: [String] = [], interface: String = TestService.interfaceName) throws -> ChildProcess.Output {
        try ChildProcess.run("gdbus", [
            "call", "--address", bus.address, "--dest", TestService.busName,
            "--object-path", TestService.pathText, "--method", "\(interface).\(member)",
        ] + arguments)
    }

    /// `dbus-send --print-reply` to the test object; its stderr carries the error name.
    func dbusSend(_ member: String, _ arguments: [String] = [], interface: String = TestService.interfaceName,
                  path: String = TestService.pathText) throws -> ChildProcess.Output {
        try ChildProcess.run("dbus-send", [
            "--bus=\(bus.address)", "--print-reply", "--dest=\(TestService.busName)", path,
            "\(interface).\(member)",
        ] + arguments)
    }
}

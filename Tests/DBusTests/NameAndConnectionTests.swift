import DBus
import Foundation
import Testing
import TestSupport

/// Names, peers that go away, a bus that goes away, and the client side of calls.
@Suite struct NameAndConnectionTests {
    @Test func aTakenNameIsAClearError() throws {
        let fixture = try BusFixture()
        let owner = try fixture.read { $0.connection.uniqueName }
        let loop = try EventLoop()
        let second = try Connection(bus: .address(fixture.bus.address), loop: loop)
        #expect(throws: NameRequestError.taken(name: TestService.busName, owner: owner)) {
            try second.requestName(TestService.busName)
        }
        #expect(throws: NameRequestError.queued(name: TestService.busName, owner: owner)) {
            try second.requestName(TestService.busName, options: [.queue])
        }
        #expect(try fixture.read { try $0.connection.requestName(TestService.busName) } == .alreadyOwner)
    }

    @Test func aNameDeniedByPolicyIsAClearError() throws {
        let denied = "io.github.tickerd.Denied"
        let fixture = try BusFixture(extraConfig: "<policy context=\"mandatory\"><deny own=\"\(denied)\"/></policy>")
        let loop = try EventLoop()
        let client = try Connection(bus: .address(fixture.bus.address), loop: loop)
        do {
            try client.requestName(denied)
            Issue.record("the policy should have refused the name")
        } catch let NameRequestError.denied(name, reason) {
            #expect(name == denied)
            #expect(!reason.isEmpty)
        }
        #expect(throws: NameRequestError.self) { try client.requestName("not a name") }
    }

    @Test func releasingANameFreesItForOthers() throws {
        let fixture = try BusFixture()
        #expect(try fixture.read { try $0.connection.releaseName(TestService.busName) })
        let loop = try EventLoop()
        let client = try Connection(bus: .address(fixture.bus.address), loop: loop)
        #expect(try client.requestName(TestService.busName) == .primaryOwner)
        #expect(try client.nameOwner(TestService.busName) == client.uniqueName)
    }

    @Test func nameOwnerChangedReportsAPeerProcessThatExited() throws {
        let fixture = try BusFixture()
        let remembered = try fixture.busctlCall("Remember")
        #expect(remembered.status == 0)
        let sender = try fixture.read { $0.callers.last ?? "" }
        #expect(sender.hasPrefix(":"))
        #expect(try fixture.waitFor { $0.vanished.contains(sender) })
    }

    @Test func nameOwnerChangedReportsAPeerProcessKilledMidCall() throws {
        let fixture = try BusFixture()
        let peer = try ChildProcess("dbus-send", [
            "--bus=\(fixture.bus.address)", "--print-reply", "--reply-timeout=120000",
            "--dest=\(TestService.busName)", TestService.pathText, "\(TestService.interfaceName).Hang",
        ])
        #expect(try fixture.waitFor { !$0.callers.isEmpty })
        let sender = try fixture.read { $0.callers.last ?? "" }
        #expect(try !fixture.read { $0.vanished.contains(sender) })
        peer.kill(SIGKILL)
        #expect(try fixture.waitFor { $0.vanished.contains(sender) })
    }

    @Test func theDisconnectCallbackFiresWhenTheBusGoesAway() throws {
        let bus = try PrivateBus()
        let loop = try EventLoop()
        let connection = try Connection(bus: .address(bus.address), loop: loop)
        var disconnected = 0
        connection.onDisconnect = { disconnected += 1 }
        bus.stop()
        #expect(loop.run(timeout: .seconds(20)) { disconnected == 1 })
        #expect(!connection.isConnected)
        #expect(throws: DBusError.self) { try connection.send(Message.signal(path: .root, interface: "org.x.Y", member: "Z")) }
    }

    @Test func connectingToNothingIsAnError() throws {
        let loop = try EventLoop()
        let error = #expect(throws: DBusError.self) {
            try Connection(bus: .address("unix:path=/nonexistent/tickerd-test-bus"), loop: loop)
        }
        #expect(error?.name.hasPrefix("org.freedesktop.DBus.Error.") == true)
    }

    @Test func asynchronousCallsCompleteOnTheLoop() throws {
        let fixture = try BusFixture()
        let loop = try EventLoop()
        let client = try Connection(bus: .address(fixture.bus.address), loop: loop)
        var results: [String: Result<[DBusValue], DBusError>] = [:]
        for member in ["Later", "NoSuchMethod"] {
            let message = try Message.methodCall(destination: TestService.busName, path: TestService.path,
                                                 interface: TestService.interfaceName, member: member)
            try message.append(.uint32(20))
            try client.call(message) { result in
                results[member] = result.flatMap { reply in
                    Result { try reply.arguments() }.mapError { DBusError(from: $0) }
                }
            }
        }
        #expect(loop.run(timeout: .seconds(20)) { results.count == 2 })
        #expect(try results["Later"]?.get() == [.string("done after 20 ms")])
        if case .failure(let error)? = results["NoSuchMethod"] {
            #expect(error.name == DBusError.Names.unknownMethod)
        } else {
            Issue.record("NoSuchMethod should fail")
        }
    }

    @Test func callsTimeOutWithNoReply() throws {
        let fixture = try BusFixture()
        let loop = try EventLoop()
        let client = try Connection(bus: .address(fixture.bus.address), loop: loop)
        let hang = { try Message.methodCall(destination: TestService.busName, path: TestService.path,
                                           interface: TestService.interfaceName, member: "Hang") }
        var asyncError: DBusError?
        try client.call(try hang(), timeout: .milliseconds(100)) { result in
            if case .failure(let error) = result { asyncError = error }
        }
        #expect(loop.run(timeout: .seconds(20)) { asyncError != nil })
        #expect(asyncError?.name == DBusError.Names.noReply)
        let blockingError = #expect(throws: DBusError.self) { try client.callBlocking(try hang(), timeout: .milliseconds(100)) }
        #expect(blockingError?.name == DBusError.Names.noReply)
    }

    @Test func aDroppedDeferredReplyStillAnswersTheCaller() throws {
        let fixture = try BusFixture()
        let peer = try ChildProcess("dbus-send", [
            "--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(TestService.busName)",
            TestService.pathText, "\(TestService.interfaceName).Hang",
        ])
        #expect(try fixture.waitFor { $0.heldReplies.count == 1 })
        try fixture.read { $0.heldReplies.removeAll() }
        #expect(try peer.wait(timeout: .seconds(20)) != 0)
        #expect(peer.standardError.hasPrefix("Error org.freedesktop.DBus.Error.Failed:"))
    }
}

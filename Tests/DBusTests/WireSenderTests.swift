@testable import DBus
import Glibc
import TestSupport
import Testing

/// Messages written straight to the bus socket (``WireMessage``) and messages queued in libdbus
/// reach a subscriber whole and in the order they were sent, also when the bus stops reading.
@Suite struct WireSenderTests {
    /// What a subscriber received: each signal's sequence number and text length.
    final class Received {
        var entries: [(sequence: UInt32, length: Int)] = []
    }

    @Test func messagesStayWholeAndInOrderWhileTheBusStalls() throws {
        let bus = try PrivateBus()
        // The sender's loop never runs: its queue moves only when it sends or flushes.
        let senderLoop = try EventLoop()
        let subscriberLoop = try EventLoop()
        let sender = try Connection(bus: .address(bus.address), loop: senderLoop)
        let subscriber = try Connection(bus: .address(bus.address), loop: subscriberLoop)
        let received = Received()
        let subscription = try subscriber.addMatchConfirmed(MatchRule(interface: "org.example.Stall", member: "Seq")) { message in
            guard let arguments = try? message.arguments(), arguments.count == 2,
                  let sequence = arguments[0].uint32Value, let text = arguments[1].stringValue else { return }
            received.entries.append((sequence, text.utf8.count))
        }
        defer { subscription.cancel() }

        func length(of sequence: Int) -> Int { sequence % 97 == 0 ? 40_000 : 300 + sequence % 13 }
        func send(_ sequence: Int) throws {
            let arguments: [DBusValue] = [.uint32(UInt32(sequence)), .string(String(repeating: "x", count: length(of: sequence)))]
            if sequence % 3 == 2 {
                // Through libdbus, between the wire messages.
                let message = try Message.signal(path: path("/o"), interface: "org.example.Stall", member: "Seq")
                try message.append(arguments)
                try sender.send(message)
            } else {
                try sender.emitSignal(path: path("/o"), interface: "org.example.Stall", member: "Seq", arguments: arguments)
            }
        }

        // dbus-daemon stops reading: the socket fills, so later messages wait in libdbus's queue.
        bus.daemon.kill(SIGSTOP)
        var stopped = true
        defer { if stopped { bus.daemon.kill(SIGCONT) } }
        let stalled = 2000
        for sequence in 0..<stalled { try send(sequence) }
        #expect(sender.wireSender.directCount > 0, "no message went to the socket directly")
        #expect(sender.wireSender.queuedCount > 0, "no wire message waited in libdbus's queue")
        bus.daemon.kill(SIGCONT)
        stopped = false

        // Once the subscriber has a message, the bus has emptied the socket, while libdbus still
        // holds the rest: the next messages must queue behind them, not overtake them.
        // (Each libdbus send writes what the socket takes, so its queue drains as the bus reads;
        // once it is empty, wire messages rightly go straight to the socket again.)
        #expect(subscriberLoop.run(timeout: .seconds(60)) { !received.entries.isEmpty })
        let count = stalled + 300
        for sequence in stalled..<count { try send(sequence) }
        sender.flush()
        #expect(subscriberLoop.run(timeout: .seconds(60)) { received.entries.count >= count })
        #expect(received.entries.map(\.sequence) == (0..<count).map { UInt32($0) })
        #expect(received.entries.map(\.length) == (0..<count).map(length(of:)))
    }
}

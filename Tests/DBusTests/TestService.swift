import DBus
import Glibc

/// The object the bus tests export: echo methods per type, failures, deferred replies, signals
/// and properties of every access and change annotation.
final class TestService {
    static let busName = "io.github.tickerd.Test1"
    static let interfaceName = "io.github.tickerd.Test1"
    static let pathText = "/io/github/tickerd/Test1/obj"
    static let managerPathText = "/io/github/tickerd/Test1"

    /// Echo methods: name, type.
    static let echoTypes: [(String, DBusType)] = [
        ("EchoByte", .byte), ("EchoBool", .bool), ("EchoInt16", .int16), ("EchoUInt16", .uint16),
        ("EchoInt32", .int32), ("EchoUInt32", .uint32), ("EchoInt64", .int64), ("EchoUInt64", .uint64),
        ("EchoDouble", .double), ("EchoString", .string), ("EchoPath", .objectPath),
        ("EchoSignature", .signature), ("EchoStrings", .array(.string)), ("EchoPaths", .array(.objectPath)),
        ("EchoBytes", .array(.byte)), ("EchoVardict", .vardict),
        ("EchoList", .array(.structure([.string, .vardict]))),
        ("EchoFrame", .structure([.string, .double, .vardict])),
        ("EchoVariant", .variant), ("EchoIntDict", .dictionary(key: .int32, value: .string)),
        ("EchoNested", .array(.array(.int32))),
        ("EchoStruct", .structure([.byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64,
                                   .double, .string, .objectPath, .signature])),
    ]

    let connection: Connection
    var counter: Int32 = 0
    var label = "hello"
    var lastEcho: DBusValue?
    var callers: [String] = []
    var vanished: [String] = []
    var heldReplies: [MethodReply] = []
    var callCount = 0
    private var watcher: NameOwnerWatcher?

    static var path: ObjectPath { (try? ObjectPath(pathText)) ?? .root }
    static var managerPath: ObjectPath { (try? ObjectPath(managerPathText)) ?? .root }

    init(address: String, loop: EventLoop, requestName: Bool = true) throws {
        connection = try Connection(bus: .address(address), loop: loop)
        if requestName { try connection.requestName(TestService.busName) }
        connection.addObjectManager(at: TestService.managerPath)
        try connection.export([makeInterface()], at: TestService.path)
        watcher = try NameOwnerWatcher.vanishedConnections(on: connection) { [unowned self] name in
            self.vanished.append(name)
        }
    }

    private func makeInterface() -> Interface {
        var methods = TestService.echoTypes.map { name, type in
            Method(name, in: [Argument("value", type)], out: [Argument("value", type)]) { [unowned self] call in
                self.callCount += 1
                self.lastEcho = call.arguments.first
                return call.arguments
            }
        }
        methods += [
            Method("Fail", in: [Argument("name", .string), Argument("message", .string)]) { call in
                throw DBusError(name: try call.argument(0, \.stringValue), message: try call.argument(1, \.stringValue))
            },
            Method("Remember", out: [Argument("sender", .string)]) { [unowned self] call in
                let sender = call.sender ?? ""
                self.callers.append(sender)
                return [.string(sender)]
            },
            Method("Hang", deferred: { [unowned self] call, reply in
                self.callers.append(call.sender ?? "")
                self.heldReplies.append(reply)
            }),
            Method("Later", in: [Argument("milliseconds", .uint32)], out: [Argument("done", .string)],
                   deferred: { [unowned self] call, reply in
                let millis = (try? call.argument(0, \.uint32Value)) ?? 0
                self.connection.loop.schedule(at: .after(.milliseconds(Int64(millis)))) {
                    reply.succeed([.string("done after \(millis) ms")])
                }
            }),
            Method("Emit", in: [Argument("text", .string)]) { [unowned self] call in
                try self.connection.emitSignal(
                    path: TestService.path, interface: TestService.interfaceName, member: "Tick",
                    arguments: [.string(try call.argument(0, \.stringValue))])
                return []
            },
            Method("EmitTo", in: [Argument("destination", .string), Argument("text", .string)]) { [unowned self] call in
                try self.connection.emitSignal(
                    path: TestService.path, interface: TestService.interfaceName, member: "Tick",
                    arguments: [.string(try call.argument(1, \.stringValue))],
                    destination: try call.argument(0, \.stringValue))
                return []
            },
            Method("WrongReturn", out: [Argument("number", .int32)]) { _ in [.string("not a number")] },
        ]
        return Interface(
            TestService.interfaceName,
            methods: methods,
            properties: [
                Property("Name", type: .string, emitsChangedSignal: .const, get: { .string("test service") }),
                Property("Counter", type: .int32, get: { [unowned self] in .int32(self.counter) },
                         set: { [unowned self] value in self.counter = value.int32Value ?? 0 }),
                Property("Label", type: .string, emitsChangedSignal: .invalidates,
                         get: { [unowned self] in .string(self.label) },
                         set: { [unowned self] value in
                             guard let text = value.stringValue, !text.isEmpty else {
                                 throw DBusError.invalidArgs("Label cannot be empty")
                             }
                             self.label = text
                         }),
                Property("Frame", type: .structure([.string, .double, .vardict]), emitsChangedSignal: .false,
                         get: { .structure([.string("abc"), .double(0.5), .vardict(["reveal": .double(1)])]) }),
            ],
            signals: [SignalDescription("Tick", arguments: [Argument("text", .string)])])
    }
}

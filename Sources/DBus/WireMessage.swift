import CDBus

/// The arguments of a message in wire form: their bytes (from an 8-aligned start) and their
/// signature. Encode them once to send the same arguments in several messages (a frame to many
/// subscribers).
public struct WireBody: Sendable {
    /// The encoded arguments.
    let bytes: [UInt8]
    /// Their signature, e.g. `sa{sv}as`.
    let signature: [UInt8]

    /// The body holding `arguments` in order; throws `InvalidArgs` when one is ill-formed (as
    /// ``Message/append(_:)`` does), holds a file descriptor (only libdbus passes those), or the
    /// signature passes 255 bytes.
    public init(_ arguments: [DBusValue]) throws {
        do {
            try self.init(encoding: arguments)
        } catch is WireEncoder.FileDescriptorFound {
            throw DBusError.invalidArgs("a file descriptor cannot be sent in a wire body")
        }
    }

    /// The largest body worth encoding here: a larger one is built by libdbus's iterators, which
    /// copy it fewer times than libdbus parsing it back from bytes.
    static let encodedLimit = 30 << 10

    /// The body holding `arguments` when it is worth encoding here, or nil when the caller
    /// should build the message through libdbus: one argument holds a file descriptor, or the
    /// body is larger than ``encodedLimit``.
    static func forEncoding(_ arguments: [DBusValue]) throws -> WireBody? {
        do {
            let body = try WireBody(encoding: arguments)
            return body.bytes.count <= encodedLimit ? body : nil
        } catch is WireEncoder.FileDescriptorFound {
            return nil
        }
    }

    /// A body of `bytes` (written from an 8-aligned start) with `signature`, both already checked.
    init(bytes: [UInt8], signature: [UInt8]) {
        self.bytes = bytes
        self.signature = signature
    }

    private init(encoding arguments: [DBusValue]) throws {
        var signature: [UInt8] = []
        var encoder = WireEncoder(capacity: 256)
        for argument in arguments {
            // `validate()`'s checks: the type's limits here, the contents while they are written.
            let type = argument.type
            try type.checkSignatureLimits()
            type.appendSignature(to: &signature)
            try encoder.append(argument)
        }
        guard signature.count <= SignatureParser.maxLength else {
            throw DBusError.invalidArgs("signature longer than \(SignatureParser.maxLength) bytes")
        }
        self.bytes = encoder.bytes
        self.signature = signature
    }
}

/// A whole D-Bus message as the bytes that go on the socket (little-endian), built without
/// libdbus: a signal or a method return. ``Connection/send(_:)-(WireMessage)`` hands it to
/// libdbus, which checks every byte and sends it like its own messages.
///
/// Its header fields come in the order libdbus writes them, so the bytes equal libdbus's own
/// marshalling of the same message (`WireMessageTests`). The serial is written when it is sent.
public struct WireMessage: Sendable {
    /// The message bytes; the serial (bytes 8–11) is 0 until ``withSerial(_:)``.
    public private(set) var bytes: [UInt8]

    private enum Field: UInt8 {
        case path = 1, interface = 2, member = 3, replySerial = 5, destination = 6, signature = 8
    }

    private enum Kind: UInt8 {
        case methodReturn = 2, signal = 4
    }

    /// Header flag: the sender expects no reply (libdbus sets it on signals and returns).
    private static let noReplyExpected: UInt8 = 0x1

    /// The signal `interface.member` from `path`, to `destination` (a unicast signal) or to
    /// every match (nil), carrying `body`. Throws `InvalidArgs` on an invalid name.
    public static func signal(
        path: ObjectPath, interface: String, member: String, destination: String? = nil, body: WireBody
    ) throws -> WireMessage {
        try WireSignal(path: path, interface: interface, member: member).message(to: destination, body: body)
    }

    /// A signal of `signal`'s names (checked already).
    fileprivate static func signal(_ signal: WireSignal, destination: String?, body: WireBody) -> WireMessage {
        WireMessage(kind: .signal, body: body) { header in
            appendField(.path, UInt8(ascii: "o"), signal.path.rawValue, to: &header)
            appendField(.interface, UInt8(ascii: "s"), signal.interface, to: &header)
            appendField(.member, UInt8(ascii: "s"), signal.member, to: &header)
            if let destination { appendField(.destination, UInt8(ascii: "s"), destination, to: &header) }
        }
    }

    /// The successful reply to the call with serial `replySerial` from `destination` (nil on a
    /// connection without a bus), carrying `body`.
    public static func methodReturn(replySerial: UInt32, destination: String?, body: WireBody) throws -> WireMessage {
        guard replySerial != 0 else { throw DBusError.invalidArgs("cannot reply to a call that was never sent") }
        if let destination { try NameValidation.checkBusName(destination) }
        return WireMessage(kind: .methodReturn, body: body) { header in
            if let destination { appendField(.destination, UInt8(ascii: "s"), destination, to: &header) }
            header.pad(to: 8)
            header.appendByte(Field.replySerial.rawValue)
            header.appendBasicSignature(UInt8(ascii: "u"))
            header.appendUInt32(replySerial)
        }
    }

    private init(kind: Kind, body: WireBody, fields: (inout WireEncoder) -> Void) {
        var header = WireEncoder(capacity: 128 + body.bytes.count)
        header.appendByte(UInt8(ascii: "l"))
        header.appendByte(kind.rawValue)
        header.appendByte(Self.noReplyExpected)
        header.appendByte(1)
        header.appendUInt32(UInt32(truncatingIfNeeded: body.bytes.count))
        header.appendUInt32(0)
        // The header fields: an array of (byte code, variant value), its length patched after.
        header.appendUInt32(0)
        fields(&header)
        if !body.signature.isEmpty {
            header.pad(to: 8)
            header.appendByte(Field.signature.rawValue)
            header.appendBasicSignature(UInt8(ascii: "g"))
            header.appendSignature(body.signature)
        }
        header.patchUInt32(UInt32(header.bytes.count - 16), at: 12)
        header.pad(to: 8)
        header.appendRaw(body.bytes)
        bytes = header.bytes
    }

    private static func appendField(_ field: Field, _ code: UInt8, _ text: String, to header: inout WireEncoder) {
        header.pad(to: 8)
        header.appendByte(field.rawValue)
        header.appendBasicSignature(code)
        header.appendString(text)
    }

    /// This message numbered `serial` (not 0).
    func withSerial(_ serial: UInt32) -> WireMessage {
        var numbered = self
        withUnsafeBytes(of: serial.littleEndian) { source in
            for index in 0..<4 { numbered.bytes[8 + index] = source[index] }
        }
        return numbered
    }

    /// The message as libdbus's own (numbered `serial`, which must not be 0), after libdbus
    /// validated every byte; throws `InvalidArgs` with libdbus's reason when it refuses them.
    func libdbusMessage(serial: UInt32) throws -> Message {
        let numbered = withSerial(serial)
        let (parsed, error) = numbered.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                withLibdbusError { dbus_message_demarshal(chars.baseAddress, Int32(chars.count), $0) }
            }
        }
        guard let parsed else {
            throw DBusError.invalidArgs("libdbus refuses the message: \(error?.message ?? "out of memory")")
        }
        return Message(adopting: parsed)
    }
}

/// A signal's path, interface and member, checked once: a sender of the same signal to many
/// destinations (a frame to each subscriber) builds each message with ``message(to:body:)``,
/// which checks only the destination.
public struct WireSignal: Sendable {
    /// The object path the signal comes from.
    public let path: ObjectPath
    /// The interface.
    public let interface: String
    /// The signal name.
    public let member: String

    /// The signal `interface.member` from `path`; throws `InvalidArgs` on an invalid name.
    public init(path: ObjectPath, interface: String, member: String) throws {
        try NameValidation.checkInterfaceName(interface)
        try NameValidation.checkMemberName(member)
        self.path = path
        self.interface = interface
        self.member = member
    }

    /// This signal to `destination` (nil: to every match) carrying `body`; throws `InvalidArgs`
    /// on an invalid destination.
    public func message(to destination: String?, body: WireBody) throws -> WireMessage {
        if let destination { try NameValidation.checkBusName(destination) }
        return WireMessage.signal(self, destination: destination, body: body)
    }
}

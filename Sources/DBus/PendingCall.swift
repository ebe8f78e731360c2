import CDBus

/// An asynchronous method call awaiting its reply (see ``Connection/call(_:timeout:reply:)``).
public final class PendingCall {
    private var raw: OpaquePointer?
    private var completion: ((Result<Message, DBusError>) -> Void)?

    init(completion: @escaping (Result<Message, DBusError>) -> Void) {
        self.completion = completion
    }

    deinit {
        if let raw { dbus_pending_call_unref(raw) }
    }

    /// Whether the reply (or an error) has been delivered, or the call was cancelled.
    public var isFinished: Bool { completion == nil }

    /// Forgets the call: its reply handler will not be called. Idempotent.
    public func cancel() {
        completion = nil
        if let raw {
            dbus_pending_call_cancel(raw)
            dbus_pending_call_unref(raw)
            self.raw = nil
        }
    }

    func attach(_ pending: OpaquePointer) -> Bool {
        raw = pending
        let box = Unmanaged.passRetained(self).toOpaque()
        let set = dbus_pending_call_set_notify(
            pending,
            { pending, data in
                guard let pending, let data else { return }
                Unmanaged<PendingCall>.fromOpaque(data).takeUnretainedValue().complete(pending)
            },
            box,
            { data in
                guard let data else { return }
                Unmanaged<PendingCall>.fromOpaque(data).release()
            })
        if set == 0 {
            Unmanaged<PendingCall>.fromOpaque(box).release()
            return false
        }
        return true
    }

    private func complete(_ pending: OpaquePointer) {
        guard let stolen = dbus_pending_call_steal_reply(pending) else {
            finish(.failure(DBusError(name: DBusError.Names.noReply, message: "no reply")))
            return
        }
        let reply = Message(adopting: stolen)
        if reply.kind == .error {
            finish(.failure(reply.error ?? DBusError.failed("error reply")))
        } else {
            finish(.success(reply))
        }
    }

    func finish(_ result: Result<Message, DBusError>) {
        guard let completion else { return }
        self.completion = nil
        if let raw {
            dbus_pending_call_unref(raw)
            self.raw = nil
        }
        completion(result)
    }
}

extension Duration {
    /// libdbus's timeout argument: milliseconds, or "default" (25 s) for `nil`.
    static func libdbusTimeout(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return CDBUS_TIMEOUT_USE_DEFAULT }
        return max(1, timeout.clampedMilliseconds)
    }
}

extension Connection {
    /// Sends the method call `message` and calls `reply` on the loop with the reply, or with the
    /// error reply / `NoReply` after `timeout` (libdbus's default 25 s when `nil`) / `Disconnected`.
    @discardableResult
    public func call(
        _ message: Message, timeout: Duration? = nil,
        reply: @escaping (Result<Message, DBusError>) -> Void
    ) throws -> PendingCall {
        guard message.kind == .methodCall else { throw DBusError.invalidArgs("only method calls have replies") }
        let call = PendingCall(completion: reply)
        guard isConnected else {
            loop.runSoon { call.finish(.failure(DBusError.disconnected())) }
            return call
        }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Duration.libdbusTimeout(timeout)) != 0 else {
            throw DBusError.noMemory
        }
        guard let pending else {
            loop.runSoon { call.finish(.failure(DBusError.disconnected())) }
            return call
        }
        guard call.attach(pending) else {
            dbus_pending_call_cancel(pending)
            throw DBusError.noMemory
        }
        return call
    }

    /// Sends `message` and blocks (without running the loop) until its reply; throws the error
    /// reply, `NoReply` on timeout, or `Disconnected`. For simple clients and start-up; a daemon
    /// should prefer ``call(_:timeout:reply:)`` inside handlers.
    public func callBlocking(_ message: Message, timeout: Duration? = nil) throws -> Message {
        guard message.kind == .methodCall else { throw DBusError.invalidArgs("only method calls have replies") }
        guard isConnected else { throw DBusError.disconnected() }
        let (reply, error) = withLibdbusError {
            dbus_connection_send_with_reply_and_block(raw, message.raw, Duration.libdbusTimeout(timeout), $0)
        }
        guard let reply else { throw error ?? DBusError.failed("no reply") }
        return Message(adopting: reply)
    }

    /// Calls `interface.member` on `path` at `destination` and blocks for the reply's arguments.
    public func callBlocking(
        destination: String, path: ObjectPath, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: Duration? = nil
    ) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try callBlocking(message, timeout: timeout).arguments()
    }
}

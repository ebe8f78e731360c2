import CMosquitto
import Glibc

/// A libmosquitto client that follows the fleet's topic tree from the library's own network
/// thread (`mosquitto_loop_start`), reconnecting by itself with a growing delay once it has
/// connected (the first connection is retried by its owner, see ``start()``).
///
/// Guarantees: every event reaches `handler` on libmosquitto's thread, in the order the library
/// saw it; on each (re)connection the client subscribes to the tree and its sync topic (QoS 1, in
/// one SUBSCRIBE) before ``MQTTEvent/subscribed`` is reported; ``stop()`` disconnects and joins
/// the thread, after which no event comes.
final class MQTTClient: @unchecked Sendable {
    /// Why a client cannot be set up.
    struct SetupError: Error, CustomStringConvertible {
        /// What went wrong, for the log.
        let description: String
    }

    /// The state libmosquitto's callbacks reach through their `obj` pointer.
    private final class Callbacks: @unchecked Sendable {
        let settings: MQTTSettings
        let handler: @Sendable (MQTTEvent) -> Void
        init(settings: MQTTSettings, handler: @escaping @Sendable (MQTTEvent) -> Void) {
            self.settings = settings
            self.handler = handler
        }
    }

    private static let libraryReady: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue

    private let handle: OpaquePointer
    private let callbacks: Unmanaged<Callbacks>
    private let settings: MQTTSettings
    private var running = false

    /// A client for `settings`, reporting to `handler`; not connected yet.
    init(settings: MQTTSettings, handler: @escaping @Sendable (MQTTEvent) -> Void) throws(SetupError) {
        guard Self.libraryReady else { throw SetupError(description: "libmosquitto cannot be initialised") }
        self.settings = settings
        let callbacks = Unmanaged.passRetained(Callbacks(settings: settings, handler: handler))
        guard let handle = mosquitto_new(settings.clientID, true, callbacks.toOpaque()) else {
            callbacks.release()
            throw SetupError(description: "mosquitto_new failed: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.callbacks = callbacks
        do throws(SetupError) {
            try configure()
        } catch {
            mosquitto_destroy(handle)
            callbacks.release()
            throw error
        }
    }

    deinit {
        stop()
        mosquitto_destroy(handle)
        callbacks.release()
    }

    private func check(_ code: Int32, _ what: String) throws(SetupError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw SetupError(description: "\(what): \(String(cString: mosquitto_strerror(code)))")
    }

    private func configure() throws(SetupError) {
        let version = settings.protocolVersion == .mqtt5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(version)), "protocol version")
        if let username = settings.username {
            try check(mosquitto_username_pw_set(handle, username, settings.password), "user name")
        }
        if let caFile = settings.caFile {
            try check(mosquitto_tls_set(handle, caFile, nil, settings.certFile, settings.keyFile, nil), "TLS")
        }
        try check(mosquitto_reconnect_delay_set(handle, 1, max(1, settings.reconnectMax), true), "reconnect delay")
        mosquitto_connect_callback_set(handle) { handle, object, code in
            guard let handle, let object else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(object).takeUnretainedValue()
            guard code == 0 else {
                let reason = callbacks.settings.protocolVersion == .mqtt5
                    ? String(cString: mosquitto_reason_string(code)) : String(cString: mosquitto_connack_string(code))
                callbacks.handler(.refused(reason))
                return
            }
            callbacks.handler(.connected)
            let filters = [callbacks.settings.treeFilter, callbacks.settings.syncTopic]
            var pointers = filters.map { strdup($0) }
            defer { pointers.forEach { free($0) } }
            let result = pointers.withUnsafeMutableBufferPointer { buffer in
                mosquitto_subscribe_multiple(handle, nil, Int32(buffer.count), buffer.baseAddress, 1, 0, nil)
            }
            if result != MOSQ_ERR_SUCCESS.rawValue {
                callbacks.handler(.disconnected("cannot subscribe: \(String(cString: mosquitto_strerror(result)))"))
            }
        }
        mosquitto_subscribe_callback_set(handle) { _, object, _, count, granted in
            guard let object else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(object).takeUnretainedValue()
            if let granted, (0..<Int(count)).contains(where: { granted[$0] >= 0x80 }) {
                callbacks.handler(.refused("the broker refused the subscription to \(callbacks.settings.treeFilter)"))
                return
            }
            callbacks.handler(.subscribed)
        }
        mosquitto_message_callback_set(handle) { _, object, message in
            guard let object, let message, let topic = message.pointee.topic else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(object).takeUnretainedValue()
            let length = Int(message.pointee.payloadlen)
            var payload: [UInt8] = []
            if length > 0, let bytes = message.pointee.payload {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: length))
            }
            callbacks.handler(.message(topic: String(cString: topic), payload: payload, retained: message.pointee.retain))
        }
        mosquitto_disconnect_callback_set(handle) { _, object, code in
            guard let object else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(object).takeUnretainedValue()
            callbacks.handler(.disconnected(code == 0 ? nil : MQTTClient.describe(code, callbacks.settings)))
        }
        mosquitto_publish_v5_callback_set(handle) { _, object, _, reason, _ in
            guard let object, reason >= 0x80 else { return }
            let callbacks = Unmanaged<Callbacks>.fromOpaque(object).takeUnretainedValue()
            callbacks.handler(.publishRefused(String(cString: mosquitto_reason_string(reason))))
        }
    }

    /// Why a connection ended, in words: libmosquitto's own errors (below 0x80; it has no words
    /// for a keepalive timeout) or, with MQTT 5, the reason code of the broker's DISCONNECT.
    private static func describe(_ code: Int32, _ settings: MQTTSettings) -> String {
        if code == MOSQ_ERR_KEEPALIVE.rawValue {
            return "no answer from the broker within the keepalive of \(settings.keepalive)s"
        }
        return settings.protocolVersion == .mqtt5 && code >= 0x80
            ? String(cString: mosquitto_reason_string(code)) : String(cString: mosquitto_strerror(code))
    }

    /// Tries to connect and, once a connection is under way, starts the network thread, which
    /// from then on reconnects by itself with the growing delay. Returns nil then, or why the
    /// first attempt failed (the broker is not there yet): call it again later.
    func start() throws(SetupError) -> String? {
        guard !running else { return nil }
        let code = mosquitto_connect_async(handle, settings.host, settings.port, settings.keepalive)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            if code == MOSQ_ERR_INVAL.rawValue || code == MOSQ_ERR_NOMEM.rawValue || code == MOSQ_ERR_TLS.rawValue {
                try check(code, "cannot connect to \(settings.host):\(settings.port)")
            }
            let reason = code == MOSQ_ERR_ERRNO.rawValue
                ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
            return "cannot connect to \(settings.host):\(settings.port): \(reason)"
        }
        try check(mosquitto_loop_start(handle), "cannot start the network thread")
        running = true
        return nil
    }

    /// Publishes `payload` on `topic` (QoS 1, not retained); false when it cannot be queued.
    @discardableResult
    func publish(topic: String, payload: [UInt8]) -> Bool {
        payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, 1, false)
        } == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Disconnects and stops the network thread.
    func stop() {
        guard running else { return }
        running = false
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
    }
}

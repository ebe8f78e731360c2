import CDBus

/// Runs `body` with a fresh libdbus error and converts a set error into a ``DBusError``.
func withLibdbusError<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T) -> (T, DBusError?) {
    var raw = CDBus.DBusError()
    dbus_error_init(&raw)
    let result = body(&raw)
    guard dbus_error_is_set(&raw) != 0 else { return (result, nil) }
    let name = raw.name.map { String(cString: $0) } ?? DBusError.Names.failed
    let message = raw.message.map { String(cString: $0) } ?? ""
    dbus_error_free(&raw)
    return (result, DBusError(name: name, message: message))
}

/// `dbus_threads_init_default()`, done once before the first connection.
let libdbusThreadsReady: Bool = dbus_threads_init_default() != 0

import CDBus

/// Reads the arguments of a libdbus message into ``DBusValue``s. libdbus has validated the
/// message on receipt; anything unexpected still becomes an `InvalidArgs` error, never a crash.
enum MessageReader {
    static func readAll(_ message: OpaquePointer) throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(try read(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private static func text(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iter, $0) }
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func currentType(_ iter: inout DBusMessageIter) throws -> DBusType {
        guard let raw = dbus_message_iter_get_signature(&iter) else { throw DBusError.noMemory }
        defer { dbus_free(raw) }
        return try DBusType(parsing: String(cString: raw))
    }

    private static func readItems(_ iter: inout DBusMessageIter) throws -> [DBusValue] {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var items: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != CDBUS_TYPE_INVALID {
            items.append(try read(&sub))
            _ = dbus_message_iter_next(&sub)
        }
        return items
    }

    static func read(_ iter: inout DBusMessageIter) throws -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .bool(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(&iter, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(text(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(try ObjectPath(text(&iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(try Signature(text(&iter)))
        case CDBUS_TYPE_ARRAY:
            let type = try currentType(&iter)
            switch type {
            case .dictionary(let key, let value):
                var sub = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &sub)
                var entries: [DBusDictEntry] = []
                while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let entryKey = try read(&pair)
                    guard dbus_message_iter_next(&pair) != 0 else {
                        throw DBusError.invalidArgs("dictionary entry without a value")
                    }
                    entries.append(DBusDictEntry(key: entryKey, value: try read(&pair)))
                    _ = dbus_message_iter_next(&sub)
                }
                return .dictionary(key: key, value: value, entries)
            case .array(let element):
                return .array(element, try readItems(&iter))
            default:
                throw DBusError.invalidArgs("unexpected array type '\(type)'")
            }
        case CDBUS_TYPE_STRUCT:
            return .structure(try readItems(&iter))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        default:
            throw DBusError.invalidArgs("unexpected type code \(code) in message")
        }
    }
}

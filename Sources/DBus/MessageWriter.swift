import CDBus

/// Appends ``DBusValue``s to a libdbus message through its iterators. Values are validated as a
/// whole first, so libdbus never sees an ill-formed value and a message is never half-written
/// because of bad input.
enum MessageWriter {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        for value in values { try value.validate() }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { try append(value, to: &iter) }
    }

    private static func appendBasic<T>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: T) throws {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iter, type, $0) }
        guard ok != 0 else { throw DBusError.noMemory }
    }

    private static func appendText(_ iter: inout DBusMessageIter, _ type: Int32, _ text: String) throws {
        let ok = text.withCString { cString -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = cString
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&iter, type, $0) }
        }
        guard ok != 0 else { throw DBusError.noMemory }
    }

    private static func withContainer(
        _ iter: inout DBusMessageIter, _ type: Int32, _ signature: String?,
        _ body: (inout DBusMessageIter) throws -> Void
    ) throws {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = dbus_message_iter_open_container(&iter, type, signature, &sub)
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        guard opened != 0 else { throw DBusError.noMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw DBusError.noMemory }
    }

    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws {
        switch value {
        case .byte(let v): try appendBasic(&iter, CDBUS_TYPE_BYTE, v)
        case .bool(let v): try appendBasic(&iter, CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): try appendBasic(&iter, CDBUS_TYPE_INT16, v)
        case .uint16(let v): try appendBasic(&iter, CDBUS_TYPE_UINT16, v)
        case .int32(let v): try appendBasic(&iter, CDBUS_TYPE_INT32, v)
        case .uint32(let v): try appendBasic(&iter, CDBUS_TYPE_UINT32, v)
        case .int64(let v): try appendBasic(&iter, CDBUS_TYPE_INT64, v)
        case .uint64(let v): try appendBasic(&iter, CDBUS_TYPE_UINT64, v)
        case .double(let v): try appendBasic(&iter, CDBUS_TYPE_DOUBLE, v)
        case .unixFD(let v): try appendBasic(&iter, CDBUS_TYPE_UNIX_FD, v)
        case .string(let v): try appendText(&iter, CDBUS_TYPE_STRING, v)
        case .objectPath(let v): try appendText(&iter, CDBUS_TYPE_OBJECT_PATH, v.rawValue)
        case .signature(let v): try appendText(&iter, CDBUS_TYPE_SIGNATURE, v.rawValue)
        case .array(let element, let items):
            try withContainer(&iter, CDBUS_TYPE_ARRAY, element.signature) { sub in
                for item in items { try append(item, to: &sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key.signature + valueType.signature + "}"
            try withContainer(&iter, CDBUS_TYPE_ARRAY, entrySignature) { sub in
                for entry in entries {
                    try withContainer(&sub, CDBUS_TYPE_DICT_ENTRY, nil) { pair in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            try withContainer(&iter, CDBUS_TYPE_STRUCT, nil) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try withContainer(&iter, CDBUS_TYPE_VARIANT, inner.type.signature) { sub in
                try append(inner, to: &sub)
            }
        }
    }
}

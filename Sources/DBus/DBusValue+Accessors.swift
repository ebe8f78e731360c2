/// Typed reading of a ``DBusValue``: each accessor is `nil` when the value has another type.
extension DBusValue {
    /// The `y` payload.
    public var byteValue: UInt8? { if case .byte(let v) = self { return v }; return nil }
    /// The `b` payload.
    public var boolValue: Bool? { if case .bool(let v) = self { return v }; return nil }
    /// The `n` payload.
    public var int16Value: Int16? { if case .int16(let v) = self { return v }; return nil }
    /// The `q` payload.
    public var uint16Value: UInt16? { if case .uint16(let v) = self { return v }; return nil }
    /// The `i` payload.
    public var int32Value: Int32? { if case .int32(let v) = self { return v }; return nil }
    /// The `u` payload.
    public var uint32Value: UInt32? { if case .uint32(let v) = self { return v }; return nil }
    /// The `x` payload.
    public var int64Value: Int64? { if case .int64(let v) = self { return v }; return nil }
    /// The `t` payload.
    public var uint64Value: UInt64? { if case .uint64(let v) = self { return v }; return nil }
    /// The `d` payload.
    public var doubleValue: Double? { if case .double(let v) = self { return v }; return nil }
    /// The `s` payload.
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The `o` payload.
    public var objectPathValue: ObjectPath? { if case .objectPath(let v) = self { return v }; return nil }
    /// The `g` payload.
    public var signatureValue: Signature? { if case .signature(let v) = self { return v }; return nil }
    /// The `h` payload.
    public var unixFDValue: Int32? { if case .unixFD(let v) = self { return v }; return nil }
    /// The elements of an array.
    public var arrayValue: [DBusValue]? { if case .array(_, let v) = self { return v }; return nil }
    /// The entries of a dictionary.
    public var dictionaryEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let v) = self { return v }
        return nil
    }
    /// The fields of a structure.
    public var structureFields: [DBusValue]? { if case .structure(let v) = self { return v }; return nil }
    /// The content of a variant.
    public var variantValue: DBusValue? { if case .variant(let v) = self { return v }; return nil }

    /// An `as` as strings.
    public var stringArrayValue: [String]? {
        guard case .array(.string, let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }

    /// An `ao` as object paths.
    public var objectPathArrayValue: [ObjectPath]? {
        guard case .array(.objectPath, let items) = self else { return nil }
        return items.compactMap(\.objectPathValue)
    }

    /// An `a{sv}` as a dictionary of the variants' contents (a repeated key keeps the last value).
    public var vardictValue: [String: DBusValue]? {
        guard case .dictionary(.string, .variant, let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if let key = entry.key.stringValue, let value = entry.value.variantValue {
                result[key] = value
            }
        }
        return result
    }

    /// A variant's content, or the value itself when it is not a variant.
    public var unwrappingVariant: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappingVariant }
        return self
    }
}

/// Building common containers.
extension DBusValue {
    /// An `a{sv}` from a dictionary; each value is wrapped in a variant; entries sorted by key.
    public static func vardict(_ dictionary: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            dictionary.sorted { $0.key < $1.key }.map {
                DBusDictEntry(key: .string($0.key), value: .variant($0.value))
            })
    }

    /// An `as`.
    public static func stringArray(_ strings: [String]) -> DBusValue {
        .array(.string, strings.map { .string($0) })
    }

    /// An `ao`.
    public static func objectPathArray(_ paths: [ObjectPath]) -> DBusValue {
        .array(.objectPath, paths.map { .objectPath($0) })
    }
}

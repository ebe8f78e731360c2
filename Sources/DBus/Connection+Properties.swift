extension Connection {
    private func lookUpInterface(_ path: ObjectPath, _ name: String) throws -> Interface {
        guard let object = router.objects.objects[path] else {
            throw DBusError(name: DBusError.Names.unknownObject, message: "no object at path \(path)")
        }
        guard let interface = object.interface(named: name) else {
            throw DBusError(name: DBusError.Names.unknownInterface, message: "object \(path) does not implement \(name)")
        }
        return interface
    }

    /// The interface of the object at `path` that `Get` or `Set` of property `property` means:
    /// the one named `name`, or for an empty name (which the D-Bus specification allows) the
    /// first of the object's interfaces, in export order, that has such a property.
    private func lookUpInterface(_ path: ObjectPath, _ name: String, property: String) throws -> Interface {
        guard name.isEmpty else { return try lookUpInterface(path, name) }
        guard let object = router.objects.objects[path] else {
            throw DBusError(name: DBusError.Names.unknownObject, message: "no object at path \(path)")
        }
        guard let interface = object.interfaces.first(where: { $0.property(named: property) != nil }) else {
            throw DBusError(name: DBusError.Names.unknownProperty, message: "object \(path) has no property \(property)")
        }
        return interface
    }

    private func lookUpProperty(_ interface: Interface, _ name: String) throws -> Property {
        guard let property = interface.property(named: name) else {
            throw DBusError(name: DBusError.Names.unknownProperty, message: "interface \(interface.name) has no property \(name)")
        }
        return property
    }

    /// `a{sv}` of the readable properties of `interface`; with `failing`, a getter's error is
    /// thrown, else its property is left out.
    func readableProperties(of interface: Interface, failing: Bool) -> DBusValue? {
        try? readablePropertiesThrowing(of: interface, failing: failing)
    }

    private func readablePropertiesThrowing(of interface: Interface, failing: Bool) throws -> DBusValue {
        var entries: [DBusDictEntry] = []
        for property in interface.properties where property.getter != nil {
            do {
                entries.append(DBusDictEntry(key: .string(property.name), value: .variant(try property.value())))
            } catch {
                if failing { throw error }
            }
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    func propertiesGet(_ path: ObjectPath, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard arguments.count == 2, let interfaceName = arguments[0].stringValue,
              let propertyName = arguments[1].stringValue else { throw DBusError.invalidArgs("Get takes (ss)") }
        if StandardInterfaces.names.contains(interfaceName) {
            throw DBusError(name: DBusError.Names.unknownProperty, message: "interface \(interfaceName) has no property \(propertyName)")
        }
        let interface = try lookUpInterface(path, interfaceName, property: propertyName)
        let property = try lookUpProperty(interface, propertyName)
        return [.variant(try property.value())]
    }

    func propertiesGetAll(_ path: ObjectPath, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard arguments.count == 1, let interfaceName = arguments[0].stringValue else {
            throw DBusError.invalidArgs("GetAll takes (s)")
        }
        if StandardInterfaces.names.contains(interfaceName) { return [.vardict([:])] }
        guard interfaceName.isEmpty else {
            return [try readablePropertiesThrowing(of: try lookUpInterface(path, interfaceName), failing: true)]
        }
        // An empty name: the properties of every interface of the object (the first of a name wins).
        guard let object = router.objects.objects[path] else {
            throw DBusError(name: DBusError.Names.unknownObject, message: "no object at path \(path)")
        }
        var entries: [DBusDictEntry] = []
        var seen = Set<String>()
        for interface in object.interfaces {
            guard case let .dictionary(_, _, properties) = try readablePropertiesThrowing(of: interface, failing: true) else { continue }
            for entry in properties where seen.insert(entry.key.stringValue ?? "").inserted { entries.append(entry) }
        }
        return [.dictionary(key: .string, value: .variant, entries)]
    }

    func propertiesSet(_ path: ObjectPath, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard arguments.count == 3, let interfaceName = arguments[0].stringValue,
              let propertyName = arguments[1].stringValue, let value = arguments[2].variantValue else {
            throw DBusError.invalidArgs("Set takes (ssv)")
        }
        if StandardInterfaces.names.contains(interfaceName) {
            throw DBusError(name: DBusError.Names.unknownProperty, message: "interface \(interfaceName) has no property \(propertyName)")
        }
        let interface = try lookUpInterface(path, interfaceName, property: propertyName)
        let property = try lookUpProperty(interface, propertyName)
        guard let setter = property.setter else {
            throw DBusError(name: DBusError.Names.propertyReadOnly, message: "property \(propertyName) of \(interface.name) is read-only")
        }
        guard value.type == property.type else {
            throw DBusError.invalidArgs("property \(propertyName) is of type '\(property.type)', got '\(value.type)'")
        }
        try setter(value)
        try? propertiesChanged(path: path, interface: interface.name, names: [propertyName])
        return []
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` from `path` as given.
    public func emitPropertiesChanged(
        path: ObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) throws {
        try emitSignal(
            path: path, interface: StandardInterfaces.properties, member: "PropertiesChanged",
            arguments: [.string(interface), .vardict(changed), .stringArray(invalidated)])
    }

    /// Announces that the properties `names` of `interface` at `path` changed, following each one's
    /// EmitsChangedSignal annotation: `true` sends the current value, `invalidates` the name only,
    /// `false` and `const` nothing. Emits nothing when nothing is left to announce.
    public func propertiesChanged(path: ObjectPath, interface: String, names: [String]) throws {
        let declared = try lookUpInterface(path, interface)
        var changed: [String: DBusValue] = [:]
        var invalidated: [String] = []
        for name in names {
            let property = try lookUpProperty(declared, name)
            switch property.emitsChangedSignal {
            case .true: if changed[name] == nil { changed[name] = try property.value() }
            case .invalidates: if !invalidated.contains(name) { invalidated.append(name) }
            case .false, .const: break
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        try emitPropertiesChanged(path: path, interface: interface, changed: changed, invalidated: invalidated)
    }

    /// `a{oa{sa{sv}}}` of the objects below `manager`.
    func managedObjects(below manager: ObjectPath) -> DBusValue {
        let entries = router.objects.objects(below: manager).map { object in
            DBusDictEntry(key: .objectPath(object.path), value: interfacesAndProperties(of: object))
        }
        return .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .vardict), entries)
    }
}

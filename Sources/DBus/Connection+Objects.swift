import CDBus

extension Connection {
    /// Exports `interfaces` at `path`. Throws `InvalidArgs` for invalid or repeated names and
    /// `org.freedesktop.DBus.Error.ObjectPathInUse` when `path` is exported already. Under an
    /// ObjectManager, `InterfacesAdded` is emitted.
    public func export(_ interfaces: [Interface], at path: ObjectPath) throws {
        var names = Set<String>()
        for interface in interfaces {
            try interface.validate()
            guard names.insert(interface.name).inserted else {
                throw DBusError.invalidArgs("interface \(interface.name) given twice for \(path)")
            }
        }
        guard router.objects.objects[path] == nil else {
            throw DBusError(name: "org.freedesktop.DBus.Error.ObjectPathInUse", message: "\(path) is exported already")
        }
        let object = ExportedObject(path: path, interfaces: interfaces)
        router.objects.objects[path] = object
        if let manager = router.objects.nearestManager(above: path) {
            try? emitSignal(
                path: manager, interface: StandardInterfaces.objectManager, member: "InterfacesAdded",
                arguments: [.objectPath(path), interfacesAndProperties(of: object)])
        }
    }

    /// Stops exporting `path` (`InterfacesRemoved` under an ObjectManager). Idempotent.
    public func unexport(_ path: ObjectPath) {
        guard let object = router.objects.objects.removeValue(forKey: path) else { return }
        if let manager = router.objects.nearestManager(above: path) {
            try? emitSignal(
                path: manager, interface: StandardInterfaces.objectManager, member: "InterfacesRemoved",
                arguments: [.objectPath(path), .stringArray(object.interfaces.map(\.name))])
        }
    }

    /// The paths exported now, sorted.
    public var exportedPaths: [ObjectPath] { router.objects.objects.keys.sorted() }

    /// Puts `org.freedesktop.DBus.ObjectManager` on `path`: `GetManagedObjects` lists the objects
    /// below it, and exporting or unexporting one below emits `InterfacesAdded` / `InterfacesRemoved`.
    public func addObjectManager(at path: ObjectPath) {
        router.objects.managers.insert(path)
    }

    /// Removes the ObjectManager from `path`.
    public func removeObjectManager(at path: ObjectPath) {
        router.objects.managers.remove(path)
    }

    /// `a{sa{sv}}`: each interface of `object` with its readable properties (a failing getter
    /// leaves its property out).
    func interfacesAndProperties(of object: ExportedObject) -> DBusValue {
        .dictionary(key: .string, value: .vardict, object.interfaces.map { interface in
            DBusDictEntry(key: .string(interface.name), value: readableProperties(of: interface, failing: false) ?? .vardict([:]))
        })
    }

    // MARK: Dispatch

    private func replyError(to message: Message, _ error: DBusError) {
        guard message.expectsReply, let reply = try? message.makeError(error) else { return }
        _ = try? send(reply)
    }

    /// Answers one incoming method call, exactly once (none when no reply is expected).
    func dispatchMethodCall(_ message: Message) {
        guard let path = message.path, let member = message.member else {
            replyError(to: message, DBusError(name: DBusError.Names.unknownMethod, message: "method call without path or member"))
            return
        }
        let tree = router.objects
        let object = tree.objects[path]
        let signature = message.signature.rawValue

        func notFound(_ name: String, _ text: String) {
            replyError(to: message, DBusError(name: name, message: text))
        }

        if let interfaceName = message.interface, StandardInterfaces.names.contains(interfaceName) {
            // Peer answers on every path (as libdbus did); the others need an object or node there.
            guard interfaceName == StandardInterfaces.peer || tree.nodeExists(path) else {
                return notFound(DBusError.Names.unknownObject, "no object at path \(path)")
            }
            guard let standard = StandardMethod.find(interface: interfaceName, member: member) else {
                return notFound(DBusError.Names.unknownMethod, "no method \(member) in interface \(interfaceName)")
            }
            guard standard.applies(tree, path) else {
                return notFound(DBusError.Names.unknownInterface, "object \(path) does not implement \(interfaceName)")
            }
            return runStandard(standard, message: message, path: path)
        }

        var found: (Interface, Method)?
        if let interfaceName = message.interface {
            guard let object else {
                let name = tree.nodeExists(path) ? DBusError.Names.unknownInterface : DBusError.Names.unknownObject
                return notFound(name, tree.nodeExists(path)
                    ? "object \(path) does not implement \(interfaceName)" : "no object at path \(path)")
            }
            guard let interface = object.interface(named: interfaceName) else {
                return notFound(DBusError.Names.unknownInterface, "object \(path) does not implement \(interfaceName)")
            }
            guard let method = interface.method(named: member) else {
                return notFound(DBusError.Names.unknownMethod,
                                "no method \(member) in interface \(interfaceName) at \(path) (signature '\(signature)')")
            }
            found = (interface, method)
        } else if let object {
            for interface in object.interfaces {
                if let method = interface.method(named: member) {
                    found = (interface, method)
                    break
                }
            }
        }

        guard let (interface, method) = found else {
            if let standard = StandardMethod.find(interface: nil, member: member), standard.applies(tree, path) {
                return runStandard(standard, message: message, path: path)
            }
            if object == nil && !tree.nodeExists(path) {
                return notFound(DBusError.Names.unknownObject, "no object at path \(path)")
            }
            return notFound(DBusError.Names.unknownMethod, "no method \(member) at \(path) (signature '\(signature)')")
        }

        guard signature == method.inSignature else {
            return replyError(to: message, .invalidArgs(
                "\(interface.name).\(method.name) takes '\(method.inSignature)', got '\(signature)'"))
        }
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments()
        } catch {
            return replyError(to: message, DBusError(from: error))
        }
        let call = MethodCall(
            message: message, path: path, interface: interface.name, member: method.name,
            arguments: arguments, connection: self)
        let reply = MethodReply(connection: self, call: message, outSignature: method.outSignature)
        switch method.body {
        case .immediate(let handler):
            do {
                reply.succeed(try handler(call))
            } catch {
                reply.fail(error)
            }
        case .deferred(let handler):
            handler(call, reply)
        }
    }

    private func runStandard(_ standard: StandardMethod, message: Message, path: ObjectPath) {
        let signature = message.signature.rawValue
        guard signature == standard.inSignature else {
            return replyError(to: message, .invalidArgs(
                "\(standard.interface).\(standard.member) takes '\(standard.inSignature)', got '\(signature)'"))
        }
        let reply = MethodReply(connection: self, call: message, outSignature: standard.outSignature)
        do {
            let arguments = try message.arguments()
            reply.succeed(try standard.handler(self, path, arguments))
        } catch {
            reply.fail(error)
        }
    }
}

/// One method of a standard interface, as the dispatcher sees it.
struct StandardMethod: Sendable {
    let interface: String
    let member: String
    let inSignature: String
    let outSignature: String
    let applies: @Sendable (ObjectTree, ObjectPath) -> Bool
    let handler: @Sendable (Connection, ObjectPath, [DBusValue]) throws -> [DBusValue]

    static func find(interface: String?, member: String) -> StandardMethod? {
        all.first { ($0.interface == interface || interface == nil) && $0.member == member }
    }

    private static let anyNode: @Sendable (ObjectTree, ObjectPath) -> Bool = { tree, path in tree.nodeExists(path) }
    private static let anyPath: @Sendable (ObjectTree, ObjectPath) -> Bool = { _, _ in true }
    private static let anyObject: @Sendable (ObjectTree, ObjectPath) -> Bool = { tree, path in tree.objects[path] != nil }

    static let all: [StandardMethod] = [
        StandardMethod(
            interface: StandardInterfaces.introspectable, member: "Introspect", inSignature: "", outSignature: "s",
            applies: anyNode,
            handler: { connection, path, _ in [.string(Introspection.document(for: path, in: connection.router.objects))] }),
        StandardMethod(
            interface: StandardInterfaces.peer, member: "Ping", inSignature: "", outSignature: "",
            applies: anyPath, handler: { _, _, _ in [] }),
        StandardMethod(
            interface: StandardInterfaces.peer, member: "GetMachineId", inSignature: "", outSignature: "s",
            applies: anyPath,
            handler: { _, _, _ in
                let (id, error) = withLibdbusError { dbus_try_get_local_machine_id($0) }
                guard let id else { throw error ?? DBusError.failed("no machine id") }
                defer { dbus_free(id) }
                return [.string(String(cString: id))]
            }),
        StandardMethod(
            interface: StandardInterfaces.properties, member: "Get", inSignature: "ss", outSignature: "v",
            applies: anyObject, handler: { connection, path, arguments in try connection.propertiesGet(path, arguments) }),
        StandardMethod(
            interface: StandardInterfaces.properties, member: "GetAll", inSignature: "s", outSignature: "a{sv}",
            applies: anyObject, handler: { connection, path, arguments in try connection.propertiesGetAll(path, arguments) }),
        StandardMethod(
            interface: StandardInterfaces.properties, member: "Set", inSignature: "ssv", outSignature: "",
            applies: anyObject, handler: { connection, path, arguments in try connection.propertiesSet(path, arguments) }),
        StandardMethod(
            interface: StandardInterfaces.objectManager, member: "GetManagedObjects", inSignature: "",
            outSignature: "a{oa{sa{sv}}}",
            applies: { tree, path in tree.managers.contains(path) },
            handler: { connection, path, _ in [connection.managedObjects(below: path)] }),
    ]
}

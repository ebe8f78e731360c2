/// A named, typed argument of a method or signal.
public struct Argument: Hashable, Sendable {
    /// The name shown in introspection.
    public var name: String
    /// The argument's type.
    public var type: DBusType

    /// An argument `name` of `type`.
    public init(_ name: String, _ type: DBusType) {
        self.name = name
        self.type = type
    }
}

/// An introspection annotation such as `org.freedesktop.DBus.Deprecated` = `true`.
public struct Annotation: Hashable, Sendable {
    /// The annotation name.
    public var name: String
    /// Its value.
    public var value: String

    /// Annotation `name` with `value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation of a property.
public enum EmitsChangedSignal: String, Hashable, Sendable {
    /// Changes are announced with their value in `PropertiesChanged`.
    case `true`
    /// Changes are announced by name only (`invalidated_properties`).
    case invalidates
    /// The value never changes for the object's lifetime.
    case const
    /// Changes are never announced (e.g. a value computed on read).
    case `false`
}

/// Whether a property can be read, written or both.
public enum PropertyAccess: String, Hashable, Sendable {
    /// Get only.
    case read
    /// Set only.
    case write
    /// Get and Set.
    case readwrite
}

/// Answers a method call synchronously: the return values (in the out-signature) or a thrown
/// error (a ``DBusError``, a ``DBusErrorConvertible``, or anything else as `…Error.Failed`).
public typealias MethodHandler = (MethodCall) throws -> [DBusValue]

/// Answers a method call later through its ``MethodReply`` (exactly once).
public typealias DeferredMethodHandler = (MethodCall, MethodReply) -> Void

/// A method of an ``Interface``.
public struct Method {
    enum Body {
        case immediate(MethodHandler)
        case deferred(DeferredMethodHandler)
    }

    /// The method name.
    public let name: String
    /// Its in-arguments, in order.
    public let inArguments: [Argument]
    /// Its out-arguments, in order.
    public let outArguments: [Argument]
    /// Introspection annotations.
    public let annotations: [Annotation]
    let body: Body

    /// A method answered synchronously by `handler` (the common case). Calls whose arguments do not
    /// match `in` are refused with `InvalidArgs` before `handler` runs.
    public init(
        _ name: String, in inArguments: [Argument] = [], out outArguments: [Argument] = [],
        annotations: [Annotation] = [], handler: @escaping MethodHandler
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.annotations = annotations
        body = .immediate(handler)
    }

    /// A method whose `handler` replies later through the ``MethodReply`` it is given.
    public init(
        _ name: String, in inArguments: [Argument] = [], out outArguments: [Argument] = [],
        annotations: [Annotation] = [], deferred handler: @escaping DeferredMethodHandler
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.annotations = annotations
        body = .deferred(handler)
    }

    /// The in-signature text.
    public var inSignature: String { inArguments.map(\.type.signature).joined() }
    /// The out-signature text.
    public var outSignature: String { outArguments.map(\.type.signature).joined() }
}

/// A property of an ``Interface``: its type, its change announcement, a getter and an optional
/// setter (a property without a setter is read-only; `Set` answers `PropertyReadOnly`).
public struct Property {
    /// The property name.
    public let name: String
    /// Its type.
    public let type: DBusType
    /// How changes are announced (also written into introspection).
    public let emitsChangedSignal: EmitsChangedSignal
    /// Further introspection annotations.
    public let annotations: [Annotation]
    let getter: (() throws -> DBusValue)?
    let setter: ((DBusValue) throws -> Void)?

    /// A property read by `get` (nil: write-only) and written by `set` (nil: read-only). `set`
    /// receives a value already checked to be of `type`; it may throw to refuse it.
    public init(
        _ name: String, type: DBusType, emitsChangedSignal: EmitsChangedSignal = .true,
        annotations: [Annotation] = [], get: (() throws -> DBusValue)?, set: ((DBusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.type = type
        self.emitsChangedSignal = emitsChangedSignal
        self.annotations = annotations
        getter = get
        setter = set
    }

    /// A read-only `a{sv}` property whose entries `vardict` writes, in the order they should
    /// appear; `Get`, `GetAll` and `PropertiesChanged` see them as a
    /// ``DBusValue/dictionary(key:value:_:)``.
    public init(
        _ name: String, emitsChangedSignal: EmitsChangedSignal = .true, annotations: [Annotation] = [],
        vardict: @escaping (inout VardictWriter) throws -> Void
    ) {
        self.name = name
        self.type = .vardict
        self.emitsChangedSignal = emitsChangedSignal
        self.annotations = annotations
        getter = {
            var writer = VardictWriter()
            try vardict(&writer)
            return .dictionary(key: .string, value: .variant, writer.entries)
        }
        setter = nil
    }

    /// Read, write or both, from the getter and setter present.
    public var access: PropertyAccess {
        switch (getter != nil, setter != nil) {
        case (true, true): return .readwrite
        case (false, true): return .write
        default: return .read
        }
    }

    /// The current value, checked against the declared type.
    func value() throws -> DBusValue {
        guard let getter else {
            throw DBusError(name: DBusError.Names.accessDenied, message: "property \(name) is write-only")
        }
        let value = try getter()
        guard value.type == type else {
            throw DBusError.failed("property \(name) produced a '\(value.type)' but is declared '\(type)'")
        }
        return value
    }
}

/// A signal of an ``Interface``.
public struct SignalDescription: Hashable, Sendable {
    /// The signal name.
    public let name: String
    /// Its arguments, in order.
    public let arguments: [Argument]
    /// Introspection annotations.
    public let annotations: [Annotation]

    /// A signal `name` carrying `arguments`.
    public init(_ name: String, arguments: [Argument] = [], annotations: [Annotation] = []) {
        self.name = name
        self.arguments = arguments
        self.annotations = annotations
    }
}

/// A D-Bus interface described declaratively: methods with handlers, properties with getters and
/// setters, signals. Export it with ``Connection/export(_:at:)``.
public struct Interface {
    /// The interface name, e.g. `io.github.tickerd.Ticker1.Manager`.
    public let name: String
    /// Its methods.
    public let methods: [Method]
    /// Its properties.
    public let properties: [Property]
    /// Its signals.
    public let signals: [SignalDescription]
    /// Introspection annotations of the interface.
    public let annotations: [Annotation]

    /// An interface `name` with its members.
    public init(
        _ name: String, methods: [Method] = [], properties: [Property] = [],
        signals: [SignalDescription] = [], annotations: [Annotation] = []
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.annotations = annotations
    }

    /// The method named `name`.
    public func method(named name: String) -> Method? { methods.first { $0.name == name } }
    /// The property named `name`.
    public func property(named name: String) -> Property? { properties.first { $0.name == name } }

    /// Throws `InvalidArgs` for invalid or repeated names and for argument lists whose signature
    /// breaks the specification's limits.
    func validate() throws {
        try NameValidation.checkInterfaceName(name)
        guard !StandardInterfaces.names.contains(name) else {
            throw DBusError.invalidArgs("interface \(name) is provided by the library")
        }
        var seen = Set<String>()
        for method in methods {
            try NameValidation.checkMemberName(method.name)
            guard seen.insert("m" + method.name).inserted else {
                throw DBusError.invalidArgs("method \(name).\(method.name) declared twice")
            }
            _ = try Signature(method.inSignature)
            _ = try Signature(method.outSignature)
        }
        for property in properties {
            try NameValidation.checkMemberName(property.name)
            guard seen.insert("p" + property.name).inserted else {
                throw DBusError.invalidArgs("property \(name).\(property.name) declared twice")
            }
            _ = try Signature(property.type.signature)
        }
        for signal in signals {
            try NameValidation.checkMemberName(signal.name)
            guard seen.insert("s" + signal.name).inserted else {
                throw DBusError.invalidArgs("signal \(name).\(signal.name) declared twice")
            }
            _ = try Signature(signal.arguments.map(\.type.signature).joined())
        }
    }
}

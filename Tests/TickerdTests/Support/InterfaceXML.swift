import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport

/// One D-Bus interface as introspection XML describes it: what two descriptions must agree on
/// (members, argument names, types and directions, property access, annotations).
struct InterfaceDescription: Equatable, Sendable {
    /// A method or signal argument.
    struct Argument: Equatable, Sendable, CustomStringConvertible {
        /// The name ("" when unnamed).
        var name: String
        /// The signature.
        var type: String
        /// `in` or `out` (signal arguments are always `out`).
        var direction: String
        var description: String { "\(direction) \(type) \(name)" }
    }

    /// A method or a signal.
    struct Member: Equatable, Sendable {
        /// The arguments in order.
        var arguments: [Argument]
        /// Annotations by name.
        var annotations: [String: String]
    }

    /// A property.
    struct Property: Equatable, Sendable {
        /// The signature.
        var type: String
        /// `read`, `write` or `readwrite`.
        var access: String
        /// Annotations by name; `org.freedesktop.DBus.Property.EmitsChangedSignal` is always
        /// present, resolved from the property, else the interface, else "true".
        var annotations: [String: String]
    }

    /// The interface name.
    var name: String
    /// Methods by name.
    var methods: [String: Member] = [:]
    /// Signals by name.
    var signals: [String: Member] = [:]
    /// Properties by name.
    var properties: [String: Property] = [:]
    /// The interface's own annotations.
    var annotations: [String: String] = [:]

    static let emitsChangedSignal = "org.freedesktop.DBus.Property.EmitsChangedSignal"

    /// The interfaces of an introspection document (`<node>`), by name.
    static func parse(_ xml: String) throws -> [String: InterfaceDescription] {
        let document = try XMLDocument(xmlString: xml, options: [])
        guard let root = document.rootElement(), root.name == "node" else {
            throw TestSupportError("introspection XML without a <node> root")
        }
        var interfaces: [String: InterfaceDescription] = [:]
        for element in root.elements(forName: "interface") {
            let interface = try InterfaceDescription(element)
            guard interfaces[interface.name] == nil else {
                throw TestSupportError("interface \(interface.name) described twice")
            }
            interfaces[interface.name] = interface
        }
        return interfaces
    }

    private init(_ element: XMLElement) throws {
        name = try Self.attribute("name", of: element)
        annotations = try Self.annotations(of: element)
        for method in element.elements(forName: "method") {
            methods[try Self.attribute("name", of: method)] = try Self.member(method, defaultDirection: "in")
        }
        for signal in element.elements(forName: "signal") {
            signals[try Self.attribute("name", of: signal)] = try Self.member(signal, defaultDirection: "out")
        }
        for property in element.elements(forName: "property") {
            var own = try Self.annotations(of: property)
            own[Self.emitsChangedSignal] = own[Self.emitsChangedSignal] ?? annotations[Self.emitsChangedSignal] ?? "true"
            properties[try Self.attribute("name", of: property)] = Property(
                type: try Self.attribute("type", of: property),
                access: try Self.attribute("access", of: property),
                annotations: own)
        }
    }

    private static func member(_ element: XMLElement, defaultDirection: String) throws -> Member {
        let arguments = try element.elements(forName: "arg").map { arg in
            Argument(name: arg.attribute(forName: "name")?.stringValue ?? "",
                     type: try attribute("type", of: arg),
                     direction: defaultDirection == "out" ? "out" : (arg.attribute(forName: "direction")?.stringValue ?? "in"))
        }
        return Member(arguments: arguments, annotations: try annotations(of: element))
    }

    private static func annotations(of element: XMLElement) throws -> [String: String] {
        var result: [String: String] = [:]
        for annotation in element.elements(forName: "annotation") {
            result[try attribute("name", of: annotation)] = try attribute("value", of: annotation)
        }
        return result
    }

    private static func attribute(_ name: String, of element: XMLElement) throws -> String {
        guard let value = element.attribute(forName: name)?.stringValue else {
            throw TestSupportError("<\(element.name ?? "?")> without \(name)=")
        }
        return value
    }

    /// What differs between this description (`actual`) and `expected`, one line each, naming the
    /// member; empty when they agree.
    func differences(from expected: InterfaceDescription) -> [String] {
        var found: [String] = []
        let prefix = expected.name
        if name != expected.name { found.append("interface is \(name), expected \(expected.name)") }
        if annotations != expected.annotations {
            found.append("\(prefix): annotations \(annotations), expected \(expected.annotations)")
        }
        found += Self.compare(methods, expected.methods, kind: "method", prefix: prefix)
        found += Self.compare(signals, expected.signals, kind: "signal", prefix: prefix)
        for key in Set(properties.keys).union(expected.properties.keys).sorted() {
            switch (properties[key], expected.properties[key]) {
            case (nil, _): found.append("\(prefix): property \(key) is missing")
            case (_, nil): found.append("\(prefix): property \(key) is not in the contract")
            case let (actual?, wanted?) where actual != wanted:
                found.append("\(prefix).\(key): property \(actual.type) \(actual.access) \(actual.annotations), "
                    + "expected \(wanted.type) \(wanted.access) \(wanted.annotations)")
            default: break
            }
        }
        return found
    }

    private static func compare(_ actual: [String: Member], _ expected: [String: Member], kind: String,
                                prefix: String) -> [String] {
        var found: [String] = []
        for key in Set(actual.keys).union(expected.keys).sorted() {
            switch (actual[key], expected[key]) {
            case (nil, _): found.append("\(prefix): \(kind) \(key) is missing")
            case (_, nil): found.append("\(prefix): \(kind) \(key) is not in the contract")
            case let (mine?, wanted?):
                if mine.arguments != wanted.arguments {
                    found.append("\(prefix).\(key): \(kind) arguments \(mine.arguments), expected \(wanted.arguments)")
                }
                if mine.annotations != wanted.annotations {
                    found.append("\(prefix).\(key): \(kind) annotations \(mine.annotations), expected \(wanted.annotations)")
                }
            }
        }
        return found
    }
}

/// The contract's interface XML (`dbus-policy/interfaces/`), and comparing a live object's
/// introspection with it.
enum InterfaceXML {
    /// The folder of the interface files.
    static let folder = Repository.path("dbus-policy/interfaces")

    /// Every interface of every file in ``folder``, by name.
    static func contract() throws -> [String: InterfaceDescription] {
        var all: [String: InterfaceDescription] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".xml") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for (name, interface) in try InterfaceDescription.parse(text) { all[name] = interface }
        }
        return all
    }

    /// The differences between the contract and `introspection` (a live object's XML), for the
    /// contract interfaces named in `interfaces`; an interface missing from the object is one.
    static func differences(introspection: String, interfaces: [String]) throws -> [String] {
        let live = try InterfaceDescription.parse(introspection)
        let contract = try contract()
        var found: [String] = []
        for name in interfaces {
            guard let wanted = contract[name] else { found.append("\(name) is not in the contract"); continue }
            guard let actual = live[name] else { found.append("the object has no \(name)"); continue }
            found += actual.differences(from: wanted)
        }
        return found
    }
}

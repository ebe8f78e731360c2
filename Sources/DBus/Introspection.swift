/// Generates `org.freedesktop.DBus.Introspectable.Introspect` XML from the declarations.
enum Introspection {
    static let header = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    private static func annotations(_ list: [Annotation], indent: String) -> String {
        list.map { "\(indent)<annotation name=\"\(escape($0.name))\" value=\"\(escape($0.value))\"/>\n" }.joined()
    }

    private static func arguments(_ list: [Argument], direction: String?, indent: String) -> String {
        list.map { argument in
            let directionText = direction.map { " direction=\"\($0)\"" } ?? ""
            return "\(indent)<arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.type.signature))\"\(directionText)/>\n"
        }.joined()
    }

    static func xml(for interface: Interface) -> String {
        var text = "  <interface name=\"\(escape(interface.name))\">\n"
        text += annotations(interface.annotations, indent: "    ")
        for method in interface.methods {
            text += "    <method name=\"\(escape(method.name))\">\n"
            text += arguments(method.inArguments, direction: "in", indent: "      ")
            text += arguments(method.outArguments, direction: "out", indent: "      ")
            text += annotations(method.annotations, indent: "      ")
            text += "    </method>\n"
        }
        for signal in interface.signals {
            text += "    <signal name=\"\(escape(signal.name))\">\n"
            text += arguments(signal.arguments, direction: nil, indent: "      ")
            text += annotations(signal.annotations, indent: "      ")
            text += "    </signal>\n"
        }
        for property in interface.properties {
            text += "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.type.signature))\" access=\"\(property.access.rawValue)\">\n"
            let emits = Annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", property.emitsChangedSignal.rawValue)
            text += annotations([emits] + property.annotations, indent: "      ")
            text += "    </property>\n"
        }
        text += "  </interface>\n"
        return text
    }

    /// The document for `path`: the standard interfaces, the object's own interfaces (when it is
    /// exported) and one `<node name=…/>` per child node.
    static func document(for path: ObjectPath, in tree: ObjectTree) -> String {
        var text = header + "<node>\n"
        text += StandardInterfaces.introspectableXML
        text += StandardInterfaces.peerXML
        if let object = tree.objects[path] {
            text += StandardInterfaces.propertiesXML
            for interface in object.interfaces { text += xml(for: interface) }
        }
        if tree.managers.contains(path) { text += StandardInterfaces.objectManagerXML }
        for child in tree.childNames(of: path) {
            text += "  <node name=\"\(escape(child))\"/>\n"
        }
        text += "</node>\n"
        return text
    }
}

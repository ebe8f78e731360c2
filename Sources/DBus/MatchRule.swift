/// A D-Bus match rule (the bus's `AddMatch` syntax), also checked locally on each message.
///
/// Locally, `sender` is compared only when it is a unique name or `org.freedesktop.DBus`
/// (a well-known sender name is resolved by the bus, which only routes the owner's signals).
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    /// The message kind; signals by default.
    public var kind: MessageKind
    /// The sender's name.
    public var sender: String?
    /// The interface.
    public var interface: String?
    /// The member (signal name).
    public var member: String?
    /// The exact object path.
    public var path: ObjectPath?
    /// The path or any path below it.
    public var pathNamespace: ObjectPath?
    /// The destination (a unique name, for unicast signals).
    public var destination: String?
    /// String arguments that must match exactly, by index (`arg0='…'`).
    public var stringArguments: [Int: String]

    /// A rule; leave a field `nil` to match anything.
    public init(
        kind: MessageKind = .signal, sender: String? = nil, interface: String? = nil,
        member: String? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        destination: String? = nil, stringArguments: [Int: String] = [:]
    ) {
        self.kind = kind
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.destination = destination
        self.stringArguments = stringArguments
    }

    /// Throws `InvalidArgs` when a field breaks the naming rules.
    public func validate() throws {
        if let sender { try NameValidation.checkBusName(sender) }
        if let destination { try NameValidation.checkBusName(destination) }
        if let interface { try NameValidation.checkInterfaceName(interface) }
        if let member { try NameValidation.checkMemberName(member) }
        for (index, value) in stringArguments {
            guard (0...63).contains(index) else { throw DBusError.invalidArgs("match argument index \(index) not in 0...63") }
            try NameValidation.checkString(value)
        }
        if kind == .invalid { throw DBusError.invalidArgs("match rule of an invalid message kind") }
    }

    private static func quoted(_ value: String) -> String {
        "'" + value.replacingApostrophes() + "'"
    }

    /// The rule text for `AddMatch`, e.g. `type='signal',interface='org.example.I'`.
    public var text: String {
        var parts: [String] = []
        switch kind {
        case .signal: parts.append("type='signal'")
        case .methodCall: parts.append("type='method_call'")
        case .methodReturn: parts.append("type='method_return'")
        case .error: parts.append("type='error'")
        case .invalid: break
        }
        if let sender { parts.append("sender=" + MatchRule.quoted(sender)) }
        if let interface { parts.append("interface=" + MatchRule.quoted(interface)) }
        if let member { parts.append("member=" + MatchRule.quoted(member)) }
        if let path { parts.append("path=" + MatchRule.quoted(path.rawValue)) }
        if let pathNamespace { parts.append("path_namespace=" + MatchRule.quoted(pathNamespace.rawValue)) }
        if let destination { parts.append("destination=" + MatchRule.quoted(destination)) }
        for index in stringArguments.keys.sorted() {
            if let value = stringArguments[index] { parts.append("arg\(index)=" + MatchRule.quoted(value)) }
        }
        return parts.joined(separator: ",")
    }

    /// The rule text.
    public var description: String { text }

    /// Whether `message` satisfies the rule (arguments are read at most once, into `arguments`).
    func matches(_ message: Message, arguments: inout [DBusValue]?) -> Bool {
        if message.kind != kind { return false }
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", message.sender != sender {
            return false
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let messagePath = message.path,
                  messagePath == pathNamespace || pathNamespace.isAncestor(of: messagePath) else { return false }
        }
        if let destination, message.destination != destination { return false }
        if !stringArguments.isEmpty {
            if arguments == nil { arguments = (try? message.arguments()) ?? [] }
            let values = arguments ?? []
            for (index, expected) in stringArguments {
                guard index < values.count, values[index].stringValue == expected else { return false }
            }
        }
        return true
    }
}

extension String {
    /// Escapes `'` for a quoted match-rule value: close the quote, `\'`, reopen.
    fileprivate func replacingApostrophes() -> String {
        var result = ""
        for character in self {
            if character == "'" { result += "'\\''" } else { result.append(character) }
        }
        return result
    }
}

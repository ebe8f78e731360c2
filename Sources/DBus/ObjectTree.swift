/// An exported object: a path and its interfaces, in export order.
final class ExportedObject {
    let path: ObjectPath
    let interfaces: [Interface]

    init(path: ObjectPath, interfaces: [Interface]) {
        self.path = path
        self.interfaces = interfaces
    }

    func interface(named name: String) -> Interface? {
        interfaces.first { $0.name == name }
    }
}

/// The objects a connection exports and the paths that carry an ObjectManager.
final class ObjectTree {
    var objects: [ObjectPath: ExportedObject] = [:]
    var managers: Set<ObjectPath> = []

    /// Whether `path` is a node of the tree: the root, an object, a manager, or an ancestor of one.
    func nodeExists(_ path: ObjectPath) -> Bool {
        if path == .root || objects[path] != nil || managers.contains(path) { return true }
        return objects.keys.contains { path.isAncestor(of: $0) } || managers.contains { path.isAncestor(of: $0) }
    }

    /// The names of the nodes directly below `path`, sorted.
    func childNames(of path: ObjectPath) -> [String] {
        let depth = path.elements.count
        var names = Set<String>()
        for candidate in Array(objects.keys) + Array(managers) where path.isAncestor(of: candidate) {
            let elements = candidate.elements
            if elements.count > depth { names.insert(String(elements[depth])) }
        }
        return names.sorted()
    }

    /// The objects strictly below `manager`, sorted by path.
    func objects(below manager: ObjectPath) -> [ExportedObject] {
        objects.values.filter { manager.isAncestor(of: $0.path) }.sorted { $0.path < $1.path }
    }

    /// The closest manager strictly above `path`.
    func nearestManager(above path: ObjectPath) -> ObjectPath? {
        managers.filter { $0.isAncestor(of: path) }.max { $0.rawValue.count < $1.rawValue.count }
    }
}

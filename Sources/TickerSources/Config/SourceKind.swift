import TOMLConfig

/// One type of source (`type = "mpris"` …): what its templates may name and how it is made
/// from its `[[source]]` table.
///
/// Guarantees: ``make`` reads only the kind's own keys (the common ones are read and checked by
/// ``SourcesConfigLoader``) and reports every mistake as a ``ConfigError`` with file, line and key.
public struct SourceKind: Sendable {
    /// The value of `type` that selects this kind.
    public let name: String
    /// The fields its items carry (the templates may name these and no others).
    public let fields: Set<String>
    /// Keys holding alternative templates, by the form name the items use (e.g. `"paused"`).
    public let formKeys: Set<String>
    /// The kind's own keys besides the common ones.
    public let keys: Set<String>
    /// Whether a source of this kind with this table needs the network (e.g. an http(s) URL).
    public let needsNetwork: @Sendable (ConfigTable) throws(ConfigError) -> Bool
    /// Makes the source from its table (the common keys already checked).
    public let make: @Sendable (ConfigTable) throws(ConfigError) -> any ItemSource

    /// A kind called `name`.
    public init(
        name: String, fields: Set<String>, formKeys: Set<String> = [], keys: Set<String>,
        needsNetwork: @escaping @Sendable (ConfigTable) throws(ConfigError) -> Bool = { _ in false },
        make: @escaping @Sendable (ConfigTable) throws(ConfigError) -> any ItemSource
    ) {
        self.name = name
        self.fields = fields
        self.formKeys = formKeys
        self.keys = keys
        self.needsNetwork = needsNetwork
        self.make = make
    }
}

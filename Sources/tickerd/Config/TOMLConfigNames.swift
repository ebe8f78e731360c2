import TOMLConfig

// The daemon reads tickerd.toml with the strict TOML reading it shares with tickerd-sources
// (the TOMLConfig library); these names keep its own code and tests reading as before.

/// A configuration mistake with file, line and key (``TOMLConfig/ConfigError``).
typealias ConfigError = TOMLConfig.ConfigError
/// A strict, located view of a TOML table (``TOMLConfig/ConfigTable``).
typealias ConfigTable = TOMLConfig.ConfigTable
/// A parsed TOML document (``TOMLConfig/TOMLDocument``).
typealias TOMLDocument = TOMLConfig.TOMLDocument
/// The line finder for keys (``TOMLConfig/TOMLKeyLocator``).
typealias TOMLKeyLocator = TOMLConfig.TOMLKeyLocator
/// The guard against headers toml++ asserts on (``TOMLConfig/TOMLHeaderGuard``).
typealias TOMLHeaderGuard = TOMLConfig.TOMLHeaderGuard
/// The mistakes of a file read section by section (``TOMLConfig/ConfigProblems``).
typealias ConfigProblems = TOMLConfig.ConfigProblems

// swift-tools-version: 6.2
import PackageDescription

/// Every target is compiled in Swift 6 language mode with strict concurrency and warnings as errors,
/// so "zero warnings" is enforced by the build rather than by review.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .treatAllWarnings(as: .error),
]

/// Release executables are linked by lld with packed relative relocations (DT_RELR, glibc ≥ 2.36):
/// still position-independent (ASLR), with a small relocation table. Symbols are bound at start
/// (`-z now`), so the whole GOT is read-only once running (full RELRO, Debian's `bindnow`
/// hardening). Debug and sanitizer builds keep the default linker.
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags([
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "-z", "-Xlinker", "now",
    ], .when(configuration: .release)),
]

/// The daemon's release link exports no symbols (`linker/tickerd.exports`): nothing loads the
/// daemon as a library.
let daemonLinkerSettings: [LinkerSetting] = releaseLinkerSettings + [
    .unsafeFlags([
        "-Xlinker", "--version-script=\(Context.packageDirectory)/linker/tickerd.exports",
    ], .when(configuration: .release)),
]

let package = Package(
    name: "tickerd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tickerd", targets: ["tickerd"]),
        .executable(name: "tickerctl", targets: ["tickerctl"]),
        .executable(name: "tickerd-bench", targets: ["tickerd-bench"]),
        .library(name: "TickerModel", targets: ["TickerModel"]),
        .library(name: "DBus", targets: ["DBus"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // C libraries from Debian, found by pkg-config.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // glibc's <malloc.h> (malloc_trim), part of libc itself.
        .systemLibrary(name: "CMalloc"),

        // The names of the D-Bus API and the channel-name rule, written once.
        .target(
            name: "TickerNames",
            swiftSettings: strictSettings
        ),

        // Swift layer over libdbus: connection, event loop, messages, objects, signals.
        .target(
            name: "DBus",
            dependencies: ["CDBus"],
            swiftSettings: strictSettings
        ),

        // The pure model: no I/O, no clocks, value types and functions.
        .target(
            name: "TickerModel",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),

        // What the executables read from the host for the model: time zones (zoneinfo).
        .target(
            name: "TickerHost",
            dependencies: ["TickerModel"],
            swiftSettings: strictSettings
        ),

        // The daemon.
        .executableTarget(
            name: "tickerd",
            dependencies: [
                "DBus", "TickerModel", "TickerHost", "TickerNames", "CSystemd", "CMalloc", "TOMLConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: daemonLinkerSettings
        ),

        // The client CLI.
        .executableTarget(
            name: "tickerctl",
            dependencies: [
                "DBus", "TickerModel", "TickerHost", "TickerNames",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: releaseLinkerSettings
        ),

        // The daemon-level benchmark harness (make bench): the real tickerd on a private bus
        // (TestSupport's, as the tests use).
        .executableTarget(
            name: "tickerd-bench",
            dependencies: ["DBus", "TickerNames", "TestSupport"],
            swiftSettings: strictSettings
        ),

        // toml++ (Debian's libtomlplusplus-dev, header-only) behind a small C view for Swift.
        .target(name: "CTOMLPlusPlus"),
        // Strict, located reading of TOML files (file, line and key in every error), shared by
        // tickerd.toml and the sources service's sources.toml.
        .target(
            name: "TOMLConfig",
            dependencies: ["CTOMLPlusPlus"],
            swiftSettings: strictSettings
        ),
        // The sources service (docs/sources.md): sources publish items, the lease manager keeps
        // tickerd's messages in line with them through the public D-Bus API.
        .target(
            name: "TickerSources",
            dependencies: [
                "DBus", "TOMLConfig", "TickerModel", "TickerNames", "Calendars", "Feeds", "SourceFetch", "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "tickerd-sources",
            dependencies: [
                "DBus", "TOMLConfig", "TickerSources",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: releaseLinkerSettings
        ),
        .testTarget(
            name: "TickerSourcesTests",
            dependencies: ["TickerSources", "TickerModel", "TOMLConfig", "tickerd-sources", "tickerd", "TestSupport", "DBus"],
            swiftSettings: strictSettings
        ),

        // Shared test helpers: private dbus-daemon, child processes, temp dirs.
        .target(
            name: "TestSupport",
            dependencies: ["DBus"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DBusTests",
            dependencies: ["DBus", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TickerdTests",
            dependencies: ["tickerd", "tickerd-bench", "TestSupport", "TickerNames"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TickerctlTests",
            dependencies: ["tickerctl", "TestSupport", "TickerModel", "DBus", "TickerNames"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TickerModelTests",
            dependencies: ["TickerModel", "TestSupport"],
            swiftSettings: strictSettings
        ),

        // Calendar and feed sources (issue 21, items 3 and 4): libical for iCalendar, the parsers
        // and their conditional-GET fetcher, each a library the sources service builds on.
        .systemLibrary(
            name: "CICal",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        // libxml2 for the feed parser (Feeds reads XML with its SAX interface).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libmosquitto for the sources service's MQTT source (fleets, docs/fleet.md).
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .target(
            name: "Calendars",
            dependencies: ["CICal", "TickerModel"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Feeds",
            dependencies: ["TickerModel", "SourceFetch", "CLibXML2"],
            swiftSettings: strictSettings
        ),
        // libcurl (Debian's libcurl4-openssl-dev) for SourceFetch: typed wrappers over its
        // variadic setopt/getinfo, which Swift cannot call.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .target(
            name: "SourceFetch",
            dependencies: ["CCurl"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CalendarsTests",
            dependencies: ["Calendars", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FeedsTests",
            dependencies: ["Feeds", "SourceFetch", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    cxxLanguageStandard: .cxx17
)

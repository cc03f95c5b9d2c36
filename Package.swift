// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ObjectGraph",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "ObjectGraphTesting", targets: ["ObjectGraphTesting"]),
        // The PostgreSQL driver (and later store) over the system libpq: a product of its own, so that
        // the core library links nothing but the toolchain. Docs/PostgreSQL.md says why libpq.
        .library(name: "ObjectGraphPostgres", targets: ["ObjectGraphPostgres"]),
        .executable(name: "objectgraph", targets: ["ObjectGraphTool"]),
        .executable(name: "fruits", targets: ["Fruits"]),
        .executable(name: "todo", targets: ["Todo"]),
        .executable(name: "objectgraph-benchmarks", targets: ["ObjectGraphBenchmarks"]),
        // libFuzzer targets for the store loaders; see scripts/fuzz.sh. Without -DFUZZING each
        // builds as a command that replays the inputs it is given.
        .executable(name: "FuzzJSONStore", targets: ["FuzzJSONStore"]),
        .executable(name: "FuzzBinaryHeader", targets: ["FuzzBinaryHeader"]),
        .executable(name: "FuzzBinaryFrames", targets: ["FuzzBinaryFrames"]),
        .executable(name: "FuzzPredicateFormat", targets: ["FuzzPredicateFormat"]),
        .executable(name: "FuzzFixture", targets: ["FuzzFixture"]),
    ],
    targets: [
        // The system SQLite (`libsqlite3-dev` on Linux; Apple platforms use the SDK's SQLite3 module).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "ObjectGraph",
            dependencies: [
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi]))
            ]),
        .target(name: "ObjectGraphTesting", dependencies: ["ObjectGraph"]),
        // The system libpq (`libpq-dev` on Debian and Ubuntu, Homebrew's keg-only `libpq` on macOS).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(name: "ObjectGraphPostgres", dependencies: ["ObjectGraph", "CLibPQ"]),
        // The command-line tool: its commands live in a module of their own so that tests can run them;
        // the executable is a one-line main. (Not `Sources/objectgraph`: on a case-insensitive file
        // system that folder is `Sources/ObjectGraph`.)
        .target(name: "ObjectGraphCLI", dependencies: ["ObjectGraph"]),
        .executableTarget(name: "ObjectGraphTool", dependencies: ["ObjectGraphCLI"]),
        .executableTarget(name: "Fruits", dependencies: ["ObjectGraph"], path: "Sources/Examples/Fruits"),
        // The to-do example: the app's model, logic and command line in a library that tests use,
        // and a one-line executable.
        .target(name: "TodoKit", dependencies: ["ObjectGraph"], path: "Sources/Examples/TodoKit"),
        .executableTarget(name: "Todo", dependencies: ["TodoKit"], path: "Sources/Examples/Todo"),
        .executableTarget(name: "ObjectGraphBenchmarks", dependencies: ["ObjectGraph", "ObjectGraphTesting"]),
        .executableTarget(name: "CrashWriter", dependencies: ["ObjectGraph"]),
        .target(
            name: "FuzzSupport", dependencies: ["ObjectGraph", "ObjectGraphTesting"], path: "Sources/Fuzz/Support"),
        .executableTarget(name: "FuzzJSONStore", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/JSONStore"),
        .executableTarget(name: "FuzzBinaryHeader", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/BinaryHeader"),
        .executableTarget(name: "FuzzBinaryFrames", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/BinaryFrames"),
        .executableTarget(
            name: "FuzzPredicateFormat", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/PredicateFormat"),
        .executableTarget(name: "FuzzFixture", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/Fixture"),
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: ["ObjectGraph", "ObjectGraphTesting", "CrashWriter", "FuzzSupport", "ObjectGraphPostgres"]),
        .testTarget(name: "ObjectGraphCLITests", dependencies: ["ObjectGraphCLI", "ObjectGraph"]),
        .testTarget(name: "ObjectGraphPostgresTests", dependencies: ["ObjectGraphPostgres", "ObjectGraph"]),
        .testTarget(
            name: "ObjectGraphTestingTests", dependencies: ["ObjectGraphTesting", "ObjectGraph"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "TodoKitTests", dependencies: ["TodoKit", "ObjectGraphTesting", "ObjectGraph"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)

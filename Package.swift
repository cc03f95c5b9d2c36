// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ObjectGraph",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "fruits", targets: ["Fruits"]),
        .executable(name: "objectgraph-benchmarks", targets: ["ObjectGraphBenchmarks"]),
        // libFuzzer targets for the store loaders; see scripts/fuzz.sh. Without -DFUZZING each
        // builds as a command that replays the inputs it is given.
        .executable(name: "FuzzJSONStore", targets: ["FuzzJSONStore"]),
        .executable(name: "FuzzBinaryHeader", targets: ["FuzzBinaryHeader"]),
        .executable(name: "FuzzBinaryFrames", targets: ["FuzzBinaryFrames"]),
    ],
    targets: [
        .target(name: "ObjectGraph"),
        .executableTarget(name: "Fruits", dependencies: ["ObjectGraph"], path: "Sources/Examples/Fruits"),
        .executableTarget(name: "ObjectGraphBenchmarks", dependencies: ["ObjectGraph"]),
        .target(name: "FuzzSupport", dependencies: ["ObjectGraph"], path: "Sources/Fuzz/Support"),
        .executableTarget(name: "FuzzJSONStore", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/JSONStore"),
        .executableTarget(name: "FuzzBinaryHeader", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/BinaryHeader"),
        .executableTarget(name: "FuzzBinaryFrames", dependencies: ["FuzzSupport"], path: "Sources/Fuzz/BinaryFrames"),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ObjectGraph",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "fruits", targets: ["Fruits"]),
        .executable(name: "objectgraph-benchmarks", targets: ["ObjectGraphBenchmarks"]),
    ],
    targets: [
        .target(name: "ObjectGraph"),
        .executableTarget(name: "Fruits", dependencies: ["ObjectGraph"], path: "Sources/Examples/Fruits"),
        .executableTarget(name: "ObjectGraphBenchmarks", dependencies: ["ObjectGraph"]),
        .executableTarget(name: "CrashWriter", dependencies: ["ObjectGraph"]),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "CrashWriter"]),
    ],
    swiftLanguageModes: [.v6]
)

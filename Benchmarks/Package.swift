// swift-tools-version: 6.2
// ObjectGraph side by side with GRDB/SQLite (issue 8). A package of its own, so that the library
// stays dependency-free: the root package never builds this folder. Run in release mode:
//     cd Benchmarks && swift build -c release && .build/release/objectgraph-vs-grdb
import PackageDescription

let package = Package(
    name: "ObjectGraphComparisons",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "objectgraph-vs-grdb", targets: ["ObjectGraphVsGRDB"])
    ],
    dependencies: [
        .package(name: "ObjectGraph", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "ObjectGraphVsGRDB",
            dependencies: [
                .product(name: "ObjectGraph", package: "ObjectGraph"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ])
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
import PackageDescription

// An app-side package that uses ContextKit the way any other package would:
// by version, from a git repository. `scripts/check-consumer` points
// CONTEXTKIT_PACKAGE_URL at a tagged clone of this repository; in your own
// package, use the repository's URL and `from:` the release you want.
let contextKit = Context.environment["CONTEXTKIT_PACKAGE_URL"] ?? "file://\(Context.packageDirectory)/../.."

let package = Package(
    name: "consumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(url: contextKit, from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [
                .product(name: "TokenKit", package: "ContextKit"),
                .product(name: "ContextKit", package: "ContextKit"),
                .product(name: "Summariser", package: "ContextKit"),
                // Only for an app that talks to a model server; Summariser alone links no HTTP.
                .product(name: "SummariserServing", package: "ContextKit")
            ])
    ]
)

// swift-tools-version: 6.0
import PackageDescription

// The short-lived command-line tools link the Swift runtime and Foundation
// statically in release builds on Linux: binding their symbols across a dozen
// shared libraries was about a third of a short `tokcount` run's instructions.
// Linking alone with -static-stdlib misses the libraries that the static
// Foundation depends on (a build with --static-swift-stdlib finds them
// itself), so they are named; libcurl stays shared, as the toolchain ships no
// static one.
// Under ThreadSanitizer the static Foundation frees, in ProcessInfo.environment,
// memory the sanitizer's allocator did not hand out, and the sanitizer aborts
// the tool (sanitizer_allocator_secondary.h: IsAligned); `scripts/test
// --sanitize thread` sets CONTEXTKIT_SHARED_RUNTIME for the shared runtime.
let staticRuntime: [LinkerSetting] = Context.environment["CONTEXTKIT_SHARED_RUNTIME"] != nil ? [] : [.unsafeFlags([
    "-static-stdlib",
    "-lFoundationEssentials", "-lFoundationInternationalization", "-lFoundationNetworking",
    "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
    "-l_CFURLSessionInterface", "-lswiftSynchronization", "-Xlinker", "-l:libcurl.so.4",
], .when(platforms: [.linux], configuration: .release))]

let package = Package(
    name: "ContextKit",
    products: [
        .library(name: "TokenKit", targets: ["TokenKit"]),
        .library(name: "ContextKit", targets: ["ContextKit"]),
        .library(name: "Summariser", targets: ["Summariser"]),
        .executable(name: "tokcount", targets: ["tokcount"]),
        .executable(name: "schema-cost", targets: ["schema-cost"]),
        .executable(name: "ctxkit", targets: ["ctxkit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CUTF8Proc",
            pkgConfig: "libutf8proc",
            providers: [.apt(["libutf8proc-dev"])]
        ),
        .target(
            name: "TokenKit",
            dependencies: ["CUTF8Proc"],
            resources: [.copy("Resources")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .target(name: "ContextKit", dependencies: ["TokenKit", "CUTF8Proc"], resources: [.copy("Resources")]),
        .target(name: "Summariser", dependencies: ["ContextKit"], exclude: ["README.md"]),
        .target(name: "ToolSupport", dependencies: ["TokenKit", "ContextKit"]),
        .executableTarget(name: "tokcount", dependencies: ["TokenKit", "ContextKit", "ToolSupport"], linkerSettings: staticRuntime),
        .executableTarget(name: "schema-cost", dependencies: ["TokenKit", "ContextKit", "ToolSupport"], linkerSettings: staticRuntime),
        .executableTarget(name: "ctxkit", dependencies: ["TokenKit", "ContextKit", "ToolSupport", "Summariser"]),
        .executableTarget(name: "tokbench", dependencies: ["TokenKit"], path: "bench/tokbench"),
        .testTarget(name: "TokenKitTests", dependencies: ["TokenKit"]),
        // Shared by the test targets: the repository's paths and the real llama-server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ContextKitTests", dependencies: ["ContextKit", "TokenKit", "TestSupport"]),
        .testTarget(name: "SummariserTests", dependencies: ["Summariser", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TokenKit", "TestSupport"]),
    ]
)

// swift-tools-version: 6.0
import PackageDescription

// ContextKit is a library first: nothing here may use unsafe flags, since
// SwiftPM refuses a package that does as a versioned dependency. The tools'
// static runtime is a build option instead (`scripts/setup` passes
// --static-swift-stdlib), so a plain `swift build` works for anyone.
//
// Unicode data (character classes, normalisation, grapheme breaks): on Linux
// Debian's libutf8proc through CUTF8Proc; on every other platform, and on
// Linux with CONTEXTKIT_UNICODE=stdlib, what Swift's standard library and
// Foundation carry. Both give the same token ids (CI proves it on Linux).
let stdlibUnicode = Context.environment["CONTEXTKIT_UNICODE"] == "stdlib"
let unicodeDependency: [Target.Dependency] = stdlibUnicode ? [] : [.target(name: "CUTF8Proc", condition: .when(platforms: [.linux]))]
let unicodeSettings: [SwiftSetting] = stdlibUnicode ? [] : [.define("CONTEXTKIT_UTF8PROC", .when(platforms: [.linux]))]

let package = Package(
    name: "ContextKit",
    // ContinuousClock, Duration and Swift Regex: macOS 13, iOS 16 and their peers.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        // A product because ContextKit's and Summariser's public API takes and
        // returns its values (schemas, parse errors).
        .library(name: "ContextKitJSON", targets: ["ContextKitJSON"]),
        // A product for the same reason: profiles and the probe take and
        // return templates and their messages.
        .library(name: "ChatTemplates", targets: ["ChatTemplates"]),
        .library(name: "TokenKit", targets: ["TokenKit"]),
        .library(name: "ContextKit", targets: ["ContextKit"]),
        .library(name: "Summariser", targets: ["Summariser"]),
        // Summariser's backend for an OpenAI-compatible server, for apps that
        // talk to one (a local llama-server); the rest of Summariser links no HTTP.
        .library(name: "SummariserServing", targets: ["SummariserServing"]),
        .executable(name: "tokcount", targets: ["tokcount"]),
        .executable(name: "schema-cost", targets: ["schema-cost"]),
        .executable(name: "ctxkit", targets: ["ctxkit"])
    ],
    targets: [
        .systemLibrary(
            name: "CUTF8Proc",
            pkgConfig: "libutf8proc",
            providers: [.apt(["libutf8proc-dev"])]
        ),
        // JSON read with key order and positions, and written back: a leaf, so
        // every layer above shares one reader and one writer.
        .target(name: "ContextKitJSON"),
        // The Jinja subset chat templates are written in: a leaf over JSON.
        .target(name: "ChatTemplates", dependencies: ["ContextKitJSON"]),
        // HTTP over a plain socket (chunked bodies, server-sent events,
        // time-outs, retries): a leaf, so the probe, the live transcript and
        // the summariser's backend share one client. No product: only
        // `package` symbols, which no public API of ContextKit, Summariser or SummariserServing exposes.
        .target(name: "ContextKitHTTP", dependencies: ["Render"]),
        // The count kernel of the OpenAI-style patterns (cl100k, o200k, Llama 3, Qwen 2, tekken):
        // piece cutting, key and probe compiled as one loop, which Swift
        // spilled (PieceCache's notes). SSE2 on x86-64, NEON on arm64, plain
        // C elsewhere: no compiler flag, no run-time dispatch.
        .target(name: "CPieceKernel"),
        .target(
            name: "TokenKit", dependencies: ["ContextKitJSON", "CPieceKernel"] + unicodeDependency, exclude: ["README.md"], resources: [.copy("Resources")],
            swiftSettings: unicodeSettings),
        // Rendering with no domain in it: number formatting, word wrapping,
        // plain-text and Markdown tables, CSV and SVG. A leaf, so ContextKit,
        // the reports and the tools print numbers and wrap text one way.
        .target(name: "Render"),
        // Byte scans that need vector compares and mask extraction, which
        // Swift's SIMD types do not lower to: SSE2 on x86-64 and NEON on
        // arm64 (present in every such CPU, so no compiler flag and no
        // run-time dispatch), plain C elsewhere.
        .target(name: "CByteScan"),
        // Guarded read-only mappings of large input files: a SIGBUS on a page
        // that a truncation took becomes that input's error. C, because the
        // signal handler must run no Swift.
        .target(name: "CMappedFile"),
        .target(
            name: "ContextKit", dependencies: ["ContextKitJSON", "ChatTemplates", "TokenKit", "Render", "CByteScan", "CMappedFile"],
            exclude: ["README.md"], resources: [.copy("Resources")]),
        // What talks to a running model server: the OpenAI-compatible client
        // and the overflow probe. Apart from ContextKit
        // because HTTPS means URLSession, and on Linux FoundationNetworking
        // brings libcurl and 29 more shared libraries into every process that
        // links it: 6.5 ms of start-up (a static-stdlib program that links it
        // starts in 8.9–9.8 ms, one without in 2.4–3.2 ms), which tokcount
        // and schema-cost, counting on this machine, must not pay. No
        // product: only `package` symbols.
        .target(name: "ContextKitServing", dependencies: ["ContextKitJSON", "ContextKitHTTP", "ContextKit", "Render"]),
        // The repository's published measurements (`reports/`: density by
        // language, transcript growth, schema overhead) and what `ctxkit`
        // measures with: the corpora and UDHR layout, the tokenizers compared,
        // the live transcript against a server. Only ctxkit and the tests
        // link it, so an app that imports ContextKit carries none of it. No
        // product: only `package` symbols.
        .target(name: "ContextKitReports", dependencies: ["ContextKitJSON", "ContextKit", "ContextKitServing", "Render"]),
        .target(name: "Summariser", dependencies: ["ContextKitJSON", "ContextKit"], exclude: ["README.md"]),
        // The summariser's backend for an OpenAI-compatible server (a local
        // llama-server, vLLM, Ollama, OpenAI). Apart from Summariser so an
        // app that summarises offline or on the device links no HTTP stack
        // (on Linux, FoundationNetworking: see ContextKitServing).
        .target(name: "SummariserServing", dependencies: ["ContextKitJSON", "ContextKitHTTP", "ContextKit", "ContextKitServing", "Render", "Summariser"]),
        .target(name: "ToolSupport", dependencies: ["ContextKitJSON", "Render"]),
        .executableTarget(name: "tokcount", dependencies: ["ContextKitJSON", "TokenKit", "ContextKit", "Render", "ToolSupport"]),
        .executableTarget(name: "schema-cost", dependencies: ["ContextKitJSON", "TokenKit", "ContextKit", "Render", "ToolSupport"]),
        .executableTarget(
            name: "ctxkit",
            dependencies: ["ContextKitJSON", "TokenKit", "ContextKit", "ContextKitServing", "ContextKitReports", "Render", "ToolSupport", "Summariser", "SummariserServing"]),
        .executableTarget(name: "tokbench", dependencies: ["TokenKit"], path: "bench/tokbench"),
        .testTarget(name: "ContextKitJSONTests", dependencies: ["ContextKitJSON", "TestSupport"]),
        .testTarget(name: "ContextKitHTTPTests", dependencies: ["ContextKitHTTP", "TestSupport"]),
        .testTarget(name: "ChatTemplatesTests", dependencies: ["ChatTemplates", "TokenKit", "TestSupport"]),
        .testTarget(name: "TokenKitTests", dependencies: ["ContextKitJSON", "TokenKit", "CPieceKernel", "TestSupport"]),
        // Shared by the test targets: the repository's paths and the real llama-server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ContextKitTests", dependencies: ["ContextKitJSON", "ContextKit", "TokenKit", "CByteScan", "TestSupport"]),
        .testTarget(name: "ContextKitReportsTests", dependencies: ["ContextKit", "ContextKitReports", "TestSupport"]),
        .testTarget(name: "ContextKitServingTests", dependencies: ["ContextKitJSON", "ContextKit", "ContextKitServing", "TestSupport"]),
        .testTarget(name: "SummariserTests", dependencies: ["Summariser", "SummariserServing", "ContextKitServing", "TestSupport"]),
        .testTarget(name: "RenderTests", dependencies: ["Render"]),
        .testTarget(name: "ToolSupportTests", dependencies: ["ToolSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TokenKit", "ContextKitServing", "Summariser", "TestSupport"])
    ]
)

#if os(Linux)
    import Foundation
    import TestSupport
    import Testing

    /// The counting tools link no HTTPS stack. On Linux, URLSession is
    /// FoundationNetworking over libcurl, which brings about thirty more shared
    /// libraries and their initialisers into a process: 6.5 ms of every start-up.
    /// Only ContextKitServing talks to servers, and only ctxkit (and
    /// SummariserServing, ContextKitReports) depend on it; this keeps a stray
    /// dependency from bringing it back.
    @Suite struct LinkageTests {
        /// The shared libraries the dynamic linker loads for a built tool, from `ldd`.
        func libraries(of tool: String) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
            process.arguments = [ToolRunner.productsDirectory.appendingPathComponent(tool).path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "ldd \(tool) exited \(process.terminationStatus)")
            return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
                $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) }
            }
        }

        func linksHTTPS(_ libraries: [String]) -> Bool {
            libraries.contains { $0.hasPrefix("libFoundationNetworking") || $0.hasPrefix("libcurl") }
        }

        @Test(arguments: ["tokcount", "schema-cost"])
        func aCountingToolLinksNoHTTPSStack(tool: String) throws {
            let libraries = try libraries(of: tool)
            #expect(!libraries.isEmpty)
            #expect(!linksHTTPS(libraries), "\(tool) loads \(libraries.joined(separator: ", "))")
        }

        /// The control: the check sees the stack where it is meant to be.
        @Test func ctxkitWhichTalksToServersDoesLinkIt() throws {
            #expect(linksHTTPS(try libraries(of: "ctxkit")))
        }
    }
#endif

#if os(Linux)
    import Foundation
    import TestSupport
    import Testing

    /// `scripts/install` gives tools that run from any folder, for any user, with
    /// the build folder out of reach: the resource bundles (tiktoken vocabularies,
    /// built-in profiles) are found where the script puts them, and a missing one
    /// is a message, not SwiftPM's "could not load resource bundle" crash.
    ///
    /// Each run happens in a mount namespace of its own where a tmpfs hides the
    /// build folder, as the user `nobody` when the tests run as root, so neither
    /// the bundles beside the build products nor the checkout's `.build` can be
    /// read. Without that mechanism the test is skipped, or fails under `CI=true`.
    @Suite(.serialized) struct InstallTests {
        /// The build folders a tool could fall back on: the products folder and the checkout's `.build`.
        static var buildFolders: [String] {
            let checkout = TestRepository.root.appendingPathComponent(".build").path
            let products = ToolRunner.productsDirectory.resolvingSymlinksInPath().path
            return products.hasPrefix(checkout + "/") ? [checkout] : [checkout, products]
        }

        /// Why the build folder cannot be hidden here, or nil when it can.
        static let unavailable: String? = {
            guard getuid() == 0 else { return "the test hides the build folder as root (unshare --mount, then setpriv to nobody); it runs as uid \(getuid())" }
            for tool in ["/usr/bin/unshare", "/usr/bin/setpriv"] where !FileManager.default.isExecutableFile(atPath: tool) {
                return "\(tool) is missing (util-linux)"
            }
            guard let probe = try? ChildProcess.run("/usr/bin/unshare", ["--mount", "sh", "-c", "mount -t tmpfs none /mnt"]), probe.status == 0 else {
                return "this system refuses a private mount namespace (unshare --mount)"
            }
            return nil
        }()

        /// Skips when the mechanism is missing; under CI that is a failure, so the check cannot quietly vanish.
        func mechanismAvailable() -> Bool {
            guard let reason = Self.unavailable else { return true }
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("cannot run the install test: \(reason)")
            }
            return false
        }

        /// Installs the built tools into a fresh world-readable prefix.
        func install() throws -> TempDir {
            let prefix = try TempDir()
            let result = try ChildProcess.run(
                "/bin/bash",
                [
                    TestRepository.path("scripts/install").path,
                    "--from", ToolRunner.productsDirectory.path, prefix.url.path
                ])
            #expect(result.status == 0, "scripts/install: \(result.output)")
            return prefix
        }

        /// A folder of inputs anyone can read, away from the checkout.
        func inputs() throws -> TempDir {
            let folder = try TempDir()
            try folder.write("a.txt", "The rain had stopped by the time Mira reached the pier.\n")
            try folder.write("schema.json", #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#)
            _ = try ChildProcess.run("/bin/chmod", ["-R", "a+rX", folder.url.path])
            return folder
        }

        /// Runs `executable` as nobody in `folder`, with every build folder hidden.
        func runElsewhere(_ executable: String, _ arguments: [String], in folder: TempDir) throws -> (status: Int32, output: String) {
            let hide = Self.buildFolders.map { "mount -t tmpfs none '\($0)' && " }.joined()
            // nobody cannot write the test runner's cache folder: one of its own in the inputs folder.
            let cache = folder.url.appendingPathComponent("cache").path
            let script =
                hide + "mkdir -p -m 777 '\(cache)' && cd '\(folder.url.path)' && "
                + "exec setpriv --reuid=nobody --regid=nogroup --clear-groups env CONTEXTKIT_CACHE='\(cache)' \"$@\""
            return try ChildProcess.run("/usr/bin/unshare", ["--mount", "sh", "-c", script, "sh", executable] + arguments)
        }

        @Test func installedToolsRunForAnotherUserWithTheBuildFolderOutOfReach() throws {
            guard mechanismAvailable() else { return }
            let prefix = try install(), folder = try inputs()
            let bin = prefix.url.appendingPathComponent("bin").path
            // The control: the build folder really is out of reach in that namespace.
            let hidden = try runElsewhere("/bin/ls", [ToolRunner.productsDirectory.appendingPathComponent("tokcount").path], in: folder)
            #expect(hidden.status != 0, "the build products are still visible: \(hidden.output)")

            let tokcount = try runElsewhere("\(bin)/tokcount", ["a.txt"], in: folder)
            #expect(tokcount.status == 0, "\(tokcount.output)")
            #expect(tokcount.output.contains("o200k_base"), "\(tokcount.output)")
            let cl100k = try runElsewhere("\(bin)/tokcount", ["-e", "cl100k_base", "--ids", "a.txt"], in: folder)
            #expect(cl100k.status == 0, "\(cl100k.output)")
            let schemaCost = try runElsewhere("\(bin)/schema-cost", ["schema.json"], in: folder)
            #expect(schemaCost.status == 0, "\(schemaCost.output)")
            let plan = try runElsewhere("\(bin)/ctxkit", ["plan", "a.txt", "-m", "apple-on-device"], in: folder)
            #expect(plan.status == 0, "\(plan.output)")
            for output in [tokcount, cl100k, schemaCost, plan].map(\.output) {
                #expect(!output.contains("Fatal error"), "\(output)")
            }
        }

        @Test func aToolLinkedIntoAnotherFolderFindsItsResourcesThroughTheLink() throws {
            guard mechanismAvailable() else { return }
            let prefix = try install(), folder = try inputs()
            let link = folder.url.appendingPathComponent("tokcount").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: prefix.url.appendingPathComponent("bin/tokcount").path)
            let result = try runElsewhere(link, ["a.txt"], in: folder)
            #expect(result.status == 0, "\(result.output)")
        }

        @Test func aMissingResourceFolderIsAMessageNamingWhereItLookedNotACrash() throws {
            guard mechanismAvailable() else { return }
            let prefix = try install(), folder = try inputs()
            let lib = prefix.url.appendingPathComponent("lib/contextkit")
            try FileManager.default.removeItem(at: lib.appendingPathComponent("ContextKit_TokenKit.resources"))
            let bin = prefix.url.appendingPathComponent("bin").path
            let result = try runElsewhere("\(bin)/tokcount", ["a.txt"], in: folder)
            #expect(result.status == 2, "\(result.output)")
            #expect(!result.output.contains("Fatal error"), "\(result.output)")
            #expect(result.output.contains("o200k_base.tiktoken"), "\(result.output)")
            #expect(result.output.contains("ContextKit_TokenKit.resources is in none of \(bin), \(lib.path)"), "\(result.output)")
            #expect(result.output.contains("scripts/install"), "\(result.output)")

            try FileManager.default.removeItem(at: lib.appendingPathComponent("ContextKit_ContextKit.resources"))
            let plan = try runElsewhere("\(bin)/ctxkit", ["plan", "a.txt"], in: folder)
            #expect(plan.status == 1, "\(plan.output)")
            #expect(plan.output.contains("profiles.json"), "\(plan.output)")
            #expect(plan.output.contains("ContextKit_ContextKit.resources is in none of"), "\(plan.output)")
        }

        @Test func installRefusesABuildFolderWithoutTheTools() throws {
            let prefix = try TempDir(), empty = try TempDir()
            let result = try ChildProcess.run("/bin/bash", [TestRepository.path("scripts/install").path, "--from", empty.url.path, prefix.url.path])
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains("tokcount is missing"), "\(result.output)")
            #expect(!FileManager.default.fileExists(atPath: prefix.url.appendingPathComponent("bin").path))
        }
    }
#endif

import Foundation

/// Finds a file shipped in one of the package's resource bundles without
/// SwiftPM's generated `Bundle.module`, which on Linux ends the process
/// ("could not load resource bundle") when the bundle is neither beside the
/// executable nor in the build folder it was built in: an installed tool,
/// run by another user or on another machine, died that way.
///
/// On Linux (and any platform without Apple's bundles) the bundle folder
/// `<Package>_<Target>.resources` is looked for, in order:
/// 1. beside the executable, symlinks resolved (`swift build` puts it there);
/// 2. in `../lib/contextkit` from the executable's folder, where
///    `scripts/install PREFIX` puts it (tools in `PREFIX/bin`);
/// 3. in the build folder of the checkout the code was built from.
///
/// A missing bundle is a `ResourceBundle.Missing` that says where it looked and
/// how to install. On Apple platforms `Bundle.module` stays: apps embed it.
package struct ResourceBundle: @unchecked Sendable {
    #if canImport(Darwin)
        private let bundle: Bundle
    #else
        /// The bundle's folder name without `.resources`, `ContextKit_TokenKit`.
        private let name: String
    #endif

    /// Where `scripts/install` puts the bundles, relative to the tools' folder.
    static let installedFolder = "../lib/contextkit"

    /// A missing resource: what, where it was looked for, and what to do.
    package struct Missing: Error, CustomStringConvertible, Sendable {
        /// The file asked for, `cl100k_base.tiktoken`.
        package let file: String
        /// The bundle's folder name, `ContextKit_TokenKit.resources`.
        package let bundle: String
        /// The folders searched, in order.
        package let searched: [String]

        /// Where it was looked for and what to do, for a message that names the file itself.
        package var reason: String {
            "the folder \(bundle) is in none of " + searched.joined(separator: ", ")
                + "; install the tools with `scripts/install [PREFIX]` from a ContextKit checkout "
                + "(it puts the tools in PREFIX/bin and their resource folders in PREFIX/lib/contextkit), "
                + "or copy the *.resources folders of the build (.build/release) beside the executable"
        }

        package var description: String { "ContextKit's resource \(file) is missing: \(reason)" }
    }

    #if canImport(Darwin)
        /// A target's `Bundle.module`.
        package init(module: Bundle) {
            self.bundle = module
        }
    #else
        /// The bundle of a target of this package, `ContextKit_<target>`.
        package init(target: String) {
            self.name = "ContextKit_\(target)"
        }
    #endif

    /// The file `resource` (a path inside the bundle, `Resources/profiles.json`).
    ///
    /// - Throws: `Missing` when no bundle folder holds it.
    package func url(for resource: String) throws(Missing) -> URL {
        #if canImport(Darwin)
            if let url = bundle.resourceURL?.appendingPathComponent(resource), FileManager.default.fileExists(atPath: url.path) {
                return url
            }
            throw Missing(file: (resource as NSString).lastPathComponent, bundle: bundle.bundlePath, searched: [bundle.bundlePath])
        #else
            let folders = Self.searchFolders()
            for folder in folders {
                let url = folder.appendingPathComponent("\(name).resources").appendingPathComponent(resource)
                if FileManager.default.isReadableFile(atPath: url.path) { return url }
            }
            throw Missing(file: (resource as NSString).lastPathComponent, bundle: "\(name).resources", searched: folders.map(\.path))
        #endif
    }

    #if !canImport(Darwin)
        /// The folders a bundle folder may be in, in the order they are tried.
        static func searchFolders() -> [URL] {
            var folders: [URL] = []
            if let executable = executableURL() {
                let bin = executable.deletingLastPathComponent()
                folders.append(bin)
                folders.append(bin.appendingPathComponent(installedFolder).standardizedFileURL)
            }
            // This file is Sources/TokenKit/Platform/ResourceBundle.swift in the
            // checkout; the build puts its bundles in .build/<configuration>.
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<4 { root.deleteLastPathComponent() }
            #if DEBUG
                let configuration = "debug"
            #else
                let configuration = "release"
            #endif
            let build = root.appendingPathComponent(".build").appendingPathComponent(configuration)
            if !folders.contains(build) { folders.append(build) }
            return folders
        }

        /// The running executable with every symlink resolved, so a tool linked
        /// into a folder on the PATH finds the bundles installed beside the real file.
        private static func executableURL() -> URL? {
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path)
            }
            return Bundle.main.executableURL?.resolvingSymlinksInPath()
        }
    #endif
}

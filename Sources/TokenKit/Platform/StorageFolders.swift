import Foundation

/// Where ContextKit keeps files between runs, in each platform's own place.
///
/// On Linux and other Unix systems the XDG base directories
/// (`$XDG_CACHE_HOME`, `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME`, each falling
/// back under `$HOME`); on Apple platforms the app's own caches and
/// Application Support folders from `FileManager` (inside the sandbox for an
/// iOS app). `CONTEXTKIT_CACHE` overrides the cache folder everywhere, so
/// tests and CI can point it at a scratch folder. The environment is a
/// parameter so tests can give their own.
package enum StorageFolders {
    /// Prepared vocabularies and Unicode tables: safe to delete, rebuilt on use.
    package static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["CONTEXTKIT_CACHE"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        #if canImport(Darwin)
            return appleFolder(.cachesDirectory)
        #else
            return xdg("XDG_CACHE_HOME", fallback: ".cache", environment)
        #endif
    }

    /// Settings the user writes, such as `profiles.json`.
    package static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        #if canImport(Darwin)
            return appleFolder(.applicationSupportDirectory)
        #else
            return xdg("XDG_CONFIG_HOME", fallback: ".config", environment)
        #endif
    }

    /// What the tools learn and keep, such as measured latencies.
    package static func state(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        #if canImport(Darwin)
            return appleFolder(.applicationSupportDirectory)?.appendingPathComponent("state", isDirectory: true)
        #else
            return xdg("XDG_STATE_HOME", fallback: ".local/state", environment)
        #endif
    }

    #if canImport(Darwin)
        private static func appleFolder(_ folder: FileManager.SearchPathDirectory) -> URL? {
            FileManager.default.urls(for: folder, in: .userDomainMask).first?.appendingPathComponent("contextkit", isDirectory: true)
        }
    #else
        /// `$variable/contextkit`, or `$HOME/fallback/contextkit`; nil when neither is set.
        private static func xdg(_ variable: String, fallback: String, _ environment: [String: String]) -> URL? {
            if let base = environment[variable], !base.isEmpty {
                return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("contextkit", isDirectory: true)
            }
            guard let home = environment["HOME"], !home.isEmpty else { return nil }
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(fallback, isDirectory: true).appendingPathComponent("contextkit", isDirectory: true)
        }
    #endif
}

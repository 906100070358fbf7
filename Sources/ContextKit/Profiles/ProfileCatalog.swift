import ContextKitJSON
import Foundation
import Render
import TokenKit

/// The model profiles a tool can use: the built-in set, then the user's
/// (`${XDG_CONFIG_HOME:-~/.config}/contextkit/profiles.json`), then any given
/// on the command line. A later profile with the same name replaces an
/// earlier one, so users can correct a built-in window.
///
/// File format (the built-in file is an example):
///
///     { "default": "apple-on-device",
///       "profiles": [ { "name": "my-llama", "contextWindow": 8192,
///                       "tokenizer": { "file": "llama3.tiktoken" } } ] }
public struct ProfileCatalog: Sendable {
    /// Every profile, in the order first added (a replaced profile keeps its place).
    public private(set) var profiles: [ModelProfile]
    /// The profile used when none is named.
    public private(set) var defaultName: String

    /// A catalog of the given profiles, without reading any file.
    public init(profiles: [ModelProfile], defaultName: String) {
        self.profiles = profiles
        self.defaultName = defaultName
    }

    /// ContextKit's resource bundle, which holds `profiles.json`.
    #if canImport(Darwin)
        private static let resources = ResourceBundle(module: .module)
    #else
        private static let resources = ResourceBundle(target: "ContextKit")
    #endif

    /// The profiles shipped with ContextKit.
    ///
    /// - Throws: `ProfileError` when the bundled file is missing or damaged.
    public static func builtIn() throws -> ProfileCatalog {
        let url: URL
        do throws(ResourceBundle.Missing) {
            url = try resources.url(for: "Resources/profiles.json")
        } catch {
            throw ProfileError.unreadable(path: error.file, reason: error.reason)
        }
        var catalog = ProfileCatalog(profiles: [], defaultName: "")
        try catalog.merge(contentsOf: url)
        return catalog
    }

    /// Built-ins, the user's config file if it exists, then `extraFiles` (which must exist).
    ///
    /// - Parameters:
    ///   - extraFiles: profile files merged last, in order.
    ///   - environment: where `XDG_CONFIG_HOME` and `HOME` are looked up.
    /// - Throws: `ProfileError.unreadable` or `.malformed` naming the file at fault.
    public static func standard(extraFiles: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ProfileCatalog {
        var catalog = try builtIn()
        if let config = userConfigPath(environment: environment), FileManager.default.fileExists(atPath: config) {
            try catalog.merge(contentsOf: URL(fileURLWithPath: config))
        }
        for path in extraFiles {
            try catalog.merge(contentsOf: URL(fileURLWithPath: path))
        }
        return catalog
    }

    /// The user's profiles file: `profiles.json` in the platform's config
    /// folder (on Linux `${XDG_CONFIG_HOME:-~/.config}/contextkit/profiles.json`),
    /// or nil when the platform gives none. The file need not exist.
    public static func userConfigPath(environment: [String: String]) -> String? {
        StorageFolders.config(environment: environment)?.appendingPathComponent("profiles.json").path
    }

    /// Adds the profiles of a file; relative tokenizer paths are taken relative
    /// to it, and a profile with a known name replaces the one before.
    ///
    /// - Throws: `ProfileError.unreadable` when the file cannot be read,
    ///   `.malformed` (with the path of the bad value) when it is not a valid profiles file.
    public mutating func merge(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ProfileError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        let file: ProfileFile
        do {
            // Profiles are `Codable` (apps store them); the one JSON reader reads the file first.
            file = try JSONParser.decode(ProfileFile.self, from: [UInt8](data))
        } catch let error as DecodingError {
            throw ProfileError.malformed(path: url.path, reason: Self.explain(error))
        } catch {
            throw ProfileError.malformed(path: url.path, reason: "\(error)")
        }
        let directory = url.deletingLastPathComponent()
        for var profile in file.profiles {
            if case .file(let path) = profile.tokenizer, !path.hasPrefix("/") {
                profile.tokenizer = .file(directory.appendingPathComponent(path).path)
            }
            if let index = profiles.firstIndex(where: { $0.name == profile.name }) {
                profiles[index] = profile
            } else {
                profiles.append(profile)
            }
        }
        if let name = file.defaultName { defaultName = name }
    }

    /// The profile called `name` (an exact match first, then ignoring case),
    /// or, when `name` is an existing GGUF file (known by its content, not its
    /// name), the profile the file itself gives (`ModelProfile(gguf:)`); a
    /// Hugging Face model folder, or its `tokenizer.json` or `tokenizer_config.json`, gives
    /// `ModelProfile(huggingFace:)`; for any other OpenAI model name tiktoken
    /// knows, a profile derived from it (`openAIProfile(named:contextWindow:)`).
    ///
    /// - Parameters:
    ///   - name: a profile's name, a GGUF file, a Hugging Face model folder or
    ///     an OpenAI model name.
    ///   - contextWindow: the window for a model file or model name
    ///     that gives none.
    /// - Throws: `ProfileError.unknownProfile`, listing the known names;
    ///   `.modelFile` for a file that is not a usable GGUF model or model folder;
    ///   `.unknownWindow` for an OpenAI model known only by its encoding.
    public func profile(named name: String, contextWindow: Int? = nil) throws -> ModelProfile {
        if let p = profiles.first(where: { $0.name == name }) { return p }
        if let p = profiles.first(where: { $0.name.lowercased() == name.lowercased() }) { return p }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) {
            let url = URL(fileURLWithPath: name)
            if HuggingFaceModelFolder.isModel(url) { return try ModelProfile(huggingFace: url, contextWindow: contextWindow) }
            return try ModelProfile(gguf: url, contextWindow: contextWindow)
        }
        if let p = try openAIProfile(named: name, contextWindow: contextWindow) { return p }
        throw ProfileError.unknownProfile(name: name, known: profiles.map(\.name))
    }

    /// A profile for an OpenAI model name no profile lists, from tiktoken's
    /// model table (`OpenAIModels`), or nil when tiktoken does not know the name.
    ///
    /// A dated snapshot (`gpt-4o-2024-08-06`, `gpt-4-0613`) or a fine-tuned
    /// model (`ft:gpt-4o-mini:acme::x1`) of a listed model that counts with the
    /// same encoding gets that profile's window and overheads; any other name
    /// gets its encoding and `contextWindow`. `provenance` says which.
    ///
    /// - Throws: `ProfileError.unknownWindow` when the name has no such
    ///   profile and `contextWindow` is nil.
    public func openAIProfile(named name: String, contextWindow: Int?) throws -> ModelProfile? {
        guard let tableEncoding = OpenAIModels.encodingName(forModel: name) else { return nil }
        let encoding = OpenAIEncoding(name: tableEncoding)?.rawValue ?? tableEncoding
        let table = "encoding \(tableEncoding) from tiktoken's model table"
        // A fine-tuned model's base may itself be a dated snapshot: look two steps down.
        let firstStep = Self.baseModel(of: name)
        let bases = [firstStep?.0, firstStep.flatMap { Self.baseModel(of: $0.0)?.0 }].compactMap { $0 }
        if let how = firstStep?.1,
            let p = bases.lazy.compactMap({ base in self.profiles.first { $0.name == base && $0.tokenizer == .encoding(encoding) } }).first
        {
            var derived = p
            derived.name = name
            derived.provenance = ["window and overheads of the profile \(p.name) (\(name) is \(how) of it)", table]
            return derived
        }
        guard let window = contextWindow else { throw ProfileError.unknownWindow(name: name, encoding: tableEncoding) }
        var derived = ModelProfile(name: name, summary: "OpenAI \(name), known by its encoding only", contextWindow: window, tokenizer: .encoding(encoding))
        derived.provenance = ["window from --window", "\(table); no profile lists \(name), so no overheads"]
        return derived
    }

    /// The model a dated snapshot (`NAME-2024-08-06`, `NAME-0613`) or a
    /// fine-tuned model (`ft:NAME:org::id`) is made from, and which of the two it is.
    static func baseModel(of name: String) -> (String, String)? {
        if name.hasPrefix("ft:") {
            let base = name.dropFirst(3).prefix { $0 != ":" }
            return base.isEmpty ? nil : (String(base), "a fine-tuned model")
        }
        for suffix in [#"-\d{4}-\d{2}-\d{2}$"#, #"-\d{4}$"#] {
            if let range = name.range(of: suffix, options: .regularExpression), range.lowerBound > name.startIndex {
                return (String(name[..<range.lowerBound]), "a dated snapshot")
            }
        }
        return nil
    }

    /// The profile used when none is named.
    ///
    /// - Throws: `ProfileError.unknownProfile` when `defaultName` names no profile.
    public func defaultProfile() throws -> ModelProfile { try profile(named: defaultName) }

    private struct ProfileFile: Decodable {
        let defaultName: String?
        let profiles: [ModelProfile]

        private enum CodingKeys: String, CodingKey { case defaultName = "default", profiles }

        init(from decoder: Decoder) throws {
            if let list = try? decoder.singleValueContainer().decode([ModelProfile].self) {
                defaultName = nil
                profiles = list
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            defaultName = try c.decodeIfPresent(String.self, forKey: .defaultName)
            profiles = try c.decodeIfPresent([ModelProfile].self, forKey: .profiles) ?? []
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(context.debugDescription)\(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
        @unknown default: return "\(error)"
        }
    }
}

/// Why a profile could not be used, with what to do about it.
public enum ProfileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// No profile has this name; `known` lists the names there are.
    case unknownProfile(name: String, known: [String])
    /// A profiles file could not be read.
    case unreadable(path: String, reason: String)
    /// A profiles file is not valid JSON or lacks a required field.
    case malformed(path: String, reason: String)
    /// A model file given as a profile cannot give one (not GGUF, or no window).
    case modelFile(path: String, reason: String)
    /// An OpenAI model name tiktoken maps to an encoding, but no profile gives its window.
    case unknownWindow(name: String, encoding: String)

    /// A message for the user that says what to do.
    public var description: String {
        switch self {
        case let .unknownProfile(name, known):
            let near = EditDistance.nearest(to: name, in: known + OpenAIModels.modelNames, limit: 6, maximum: max(2, name.count / 3))
            if near.isEmpty {
                return "unknown model profile '\(name)'; known profiles: \(known.joined(separator: ", ")) (add your own with --profiles FILE)"
            }
            return "unknown model profile '\(name)'; nearest: \(near.joined(separator: ", ")) (--list-models lists the profiles; add your own with --profiles FILE)"
        case let .unknownWindow(name, encoding):
            return "ContextKit has no profile for '\(name)': tiktoken's model table gives its encoding, \(encoding), but not its context window; give the window with --window N"
        case let .unreadable(path, reason):
            return "cannot read the profiles file \(path): \(reason)"
        case let .malformed(path, reason):
            return "the profiles file \(path) is not valid: \(reason); each profile needs \"name\", \"contextWindow\" and \"tokenizer\": {\"encoding\": NAME} or {\"file\": PATH}"
        case let .modelFile(path, reason):
            return "cannot take a profile from the model file \(path): \(reason)"
        }
    }
}

import Foundation
import Testing
@testable import TokenKit

extension OpenModels {
    /// The cache of prepared merge-list tables (`ModelFileCache`): what it
    /// serves must be what building from the file gives, for exactly the file
    /// version it was made from.
    @Suite struct ModelFileCacheTests {
        /// A fresh cache folder of its own for each test.
        static func scratchCache() throws -> ModelFileCache {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelcache-\(UUID().uuidString)", isDirectory: true)
            return ModelFileCache(directory: folder)
        }

        static let off = ModelFileCache(directory: nil)

        /// Every llama.cpp test case of every vocabulary: the texts each tokenizer is compared on.
        static func texts() throws -> [[UInt8]] {
            try OpenModelFixtures.vocabularies().flatMap { try $0.inputs() }
        }

        static func modelFiles() -> [URL] {
            OpenModelFixtures.vocabularies().map(\.gguf) + [HuggingFaceTokenizerTests.qwen3, HuggingFaceTokenizerTests.claude]
        }

        static func isMergeList(_ tokenizer: Tokenizer) -> Bool {
            if case .openModel(let pipeline) = tokenizer.model, case .mergeList = pipeline.model { return true }
            return false
        }

        @Test("a tokenizer loaded from the cache gives the ids, counts and decodings of one built from the file", arguments: modelFiles())
        func cacheHitGivesIdenticalIDs(_ url: URL) throws {
            let texts = try Self.texts()
            try #require(!texts.isEmpty, "no llama.cpp test vectors in \(OpenModelFixtures.ggufFolder.path)")
            let cache = try Self.scratchCache()
            defer { try? FileManager.default.removeItem(at: cache.directory!) }
            let built = try Tokenizer.load(contentsOf: url, cache: Self.off)
            _ = try Tokenizer.load(contentsOf: url, cache: cache)
            guard Self.isMergeList(built) else {
                // SentencePiece and WordPiece models are not cached: nothing may be stored for them.
                let file = try MappedFile(path: url.path)
                #expect(cache.load(for: file) == nil)
                return
            }
            try #require(cache.load(for: try MappedFile(path: url.path)) != nil, "\(url.lastPathComponent): nothing was cached")
            let cached = try Tokenizer.load(contentsOf: url, cache: cache)
            #expect(cached.specialTokens == built.specialTokens)
            #expect(cached.modelDescription == built.modelDescription)
            var mismatches = 0
            for text in texts {
                let expected = OpenModelFixtures.encode(built, text)
                let ids = OpenModelFixtures.encode(cached, text)
                if ids != expected {
                    mismatches += 1
                    Issue.record("\(url.lastPathComponent): \(String(decoding: text, as: UTF8.self).debugDescription)\n  built  \(expected)\n  cached \(ids)")
                }
                #expect(try cached.decode(ids) == built.decode(expected))
            }
            print("model cache \(url.lastPathComponent): \(texts.count - mismatches)/\(texts.count) texts identical")
        }

        /// A byte-level BPE tokenizer.json whose "a" and "b" have the ids given:
        /// the same size whichever way round.
        static func tinyTokenizer(a: Int, b: Int) -> String {
            #"{"added_tokens": [{"id": 3, "content": "<s>", "special": true}], "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false}, "#
                + #""model": {"type": "BPE", "vocab": {"a": \#(a), "b": \#(b), "ab": 2}, "merges": ["a b"]}, "decoder": null}"#
        }

        static func ids(_ tokenizer: Tokenizer, _ text: String) -> [Int] {
            OpenModelFixtures.encode(tokenizer, Array(text.utf8))
        }

        @Test("a model file rewritten in place to the same size is never served from the cache")
        func staleFileNeverServed() throws {
            let cache = try Self.scratchCache()
            let url = cache.directory!.appendingPathExtension("tokenizer.json")
            defer { try? FileManager.default.removeItem(at: cache.directory!); try? FileManager.default.removeItem(at: url) }
            try Data(Self.tinyTokenizer(a: 0, b: 1).utf8).write(to: url)
            #expect(Self.ids(try Tokenizer.load(contentsOf: url, cache: cache), "ba ab") == [1, 0, 2])
            #expect(Self.ids(try Tokenizer.load(contentsOf: url, cache: cache), "ba ab") == [1, 0, 2])
            let inode = try MappedFile(path: url.path).identity.inode

            // Same inode, same size, new content and a new modification time.
            let handle = try FileHandle(forWritingTo: url)
            try handle.write(contentsOf: Data(Self.tinyTokenizer(a: 1, b: 0).utf8))
            try handle.close()
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: url.path)
            let rewritten = try MappedFile(path: url.path).identity
            #expect(rewritten.inode == inode)
            #expect(rewritten.size == UInt64(Self.tinyTokenizer(a: 0, b: 1).utf8.count))

            #expect(cache.load(for: try MappedFile(path: url.path)) == nil)
            #expect(Self.ids(try Tokenizer.load(contentsOf: url, cache: cache), "ba ab") == [0, 1, 2])
            // ... and the new version is what is cached now.
            #expect(cache.load(for: try MappedFile(path: url.path)) != nil)
            #expect(Self.ids(try Tokenizer.load(contentsOf: url, cache: cache), "ba ab") == [0, 1, 2])
        }

        @Test("a damaged or truncated cache file is ignored and rebuilt", arguments: ["flip", "truncate", "empty"])
        func damagedCacheRebuilt(_ damage: String) throws {
            let url = try #require(Self.modelFiles().first { $0.lastPathComponent == "ggml-vocab-llama-bpe.gguf" })
            let cache = try Self.scratchCache()
            defer { try? FileManager.default.removeItem(at: cache.directory!) }
            let built = try Tokenizer.load(contentsOf: url, cache: Self.off)
            _ = try Tokenizer.load(contentsOf: url, cache: cache)
            let model = try MappedFile(path: url.path)
            let cacheURL = try #require(cache.url(for: model))
            var bytes = try Data(contentsOf: cacheURL)
            switch damage {
            case "flip": bytes[bytes.count / 2] ^= 0x5A
            case "truncate": bytes = bytes.prefix(bytes.count - 8)
            default: bytes = Data()
            }
            try bytes.write(to: cacheURL)
            #expect(cache.load(for: model) == nil)

            let rebuilt = try Tokenizer.load(contentsOf: url, cache: cache)
            for text in try Self.texts() {
                #expect(OpenModelFixtures.encode(rebuilt, text) == OpenModelFixtures.encode(built, text))
            }
            #expect(cache.load(for: model) != nil, "the damaged file was not replaced")
        }

        @Test("a cache folder that cannot be made still gives the tokenizer")
        func unwritableCacheFolderStillWorks() throws {
            let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("modelcache-file-\(UUID().uuidString)")
            try Data("not a folder".utf8).write(to: blocker)
            defer { try? FileManager.default.removeItem(at: blocker) }
            let cache = ModelFileCache(directory: blocker.appendingPathComponent("models", isDirectory: true))
            let url = HuggingFaceTokenizerTests.qwen3
            let tokenizer = try Tokenizer.load(contentsOf: url, cache: cache)
            let built = try Tokenizer.load(contentsOf: url, cache: Self.off)
            #expect(Self.ids(tokenizer, "Hello, world! 你好") == Self.ids(built, "Hello, world! 你好"))
            #expect(cache.load(for: try MappedFile(path: url.path)) == nil)
        }
    }
}

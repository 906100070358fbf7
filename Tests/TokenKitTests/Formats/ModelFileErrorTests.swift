import Foundation
import Testing
@testable import TokenKit

extension OpenModels {
    /// Bad model files give a clear error, never a crash or a silent wrong count.
    @Suite struct ModelFileErrorTests {
        /// Writes a GGUF file from metadata only.
        struct GGUFWriter {
            enum Value {
                case u32(UInt32), bool(Bool), string(String), strings([String]), int32s([Int32])
            }
            var version: UInt32 = 3
            var entries: [(String, Value)] = []

            func bytes() -> [UInt8] {
                var out = Array("GGUF".utf8)
                func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
                func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
                func string(_ s: String) { u64(UInt64(s.utf8.count)); out += Array(s.utf8) }
                u32(version)
                u64(0)
                u64(UInt64(entries.count))
                for (key, value) in entries {
                    string(key)
                    switch value {
                    case .u32(let v): u32(4); u32(v)
                    case .bool(let v): u32(7); out.append(v ? 1 : 0)
                    case .string(let s): u32(8); string(s)
                    case .strings(let list): u32(9); u32(8); u64(UInt64(list.count)); list.forEach(string)
                    case .int32s(let list): u32(9); u32(5); u64(UInt64(list.count)); list.forEach { u32(UInt32(bitPattern: $0)) }
                    }
                }
                return out
            }

            /// A tiny byte-level vocabulary: every byte, plus "ab".
            static func byteLevel(model: String = "gpt2", pre: String? = "gpt-2") -> GGUFWriter {
                let alphabet = ByteLevelAlphabet.characters.map { String(Character(Unicode.Scalar($0)!)) }
                var w = GGUFWriter()
                w.entries = [
                    ("general.architecture", .string("gpt2")), ("gpt2.context_length", .u32(1024)),
                    ("tokenizer.ggml.model", .string(model)),
                    ("tokenizer.ggml.tokens", .strings(alphabet + ["ab"])),
                    ("tokenizer.ggml.merges", .strings(["a b"]))
                ]
                if let pre { w.entries.append(("tokenizer.ggml.pre", .string(pre))) }
                return w
            }
        }

        static func write(_ bytes: [UInt8], name: String = "model.gguf") throws -> URL {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("openmodels-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url
        }

        static func error(loading url: URL) -> String? {
            do {
                _ = try Tokenizer.load(contentsOf: url)
                return nil
            } catch {
                return "\(error)"
            }
        }

        @Test func smallWrittenVocabularyWorks() throws {
            let url = try Self.write(GGUFWriter.byteLevel().bytes())
            let tokenizer = try Tokenizer.load(contentsOf: url)
            #expect(tokenizer.encodeOrdinary("ab") == [256])
            #expect(tokenizer.encodeOrdinary("ba") == [98, 97])
            #expect(try GGUFFile(contentsOf: url).contextLength == 1024)
        }

        /// Every prefix of a real GGUF header: an error that says "truncated", never a crash.
        @Test func truncatedGGUF() throws {
            let full = [UInt8](try Data(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf")))
            var cuts = [4, 5, 8, 12, 20, 23, 24, 30, 40, 100, 1000, 10_000, 100_000, 1_000_000, full.count - 1]
            var random = RandomText(seed: 3)
            for _ in 0..<20 { cuts.append(8 + random.int(full.count - 9)) }
            for cut in cuts {
                let url = try Self.write(Array(full[..<cut]))
                let message = Self.error(loading: url)
                #expect(message?.contains("truncated") == true, "cut at \(cut): \(message ?? "loaded")")
            }
        }

        @Test func notAModelFile() throws {
            for (name, bytes) in [
                ("empty", [UInt8]()), ("text", Array("hello world\n".utf8)), ("binary", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]),
                ("json array", Array("[1, 2]".utf8)), ("ggu", Array("GGU".utf8))
            ] {
                let url = try Self.write(bytes, name: name)
                let message = Self.error(loading: url) ?? "loaded"
                #expect(message.contains("not a tokenizer file") || message.contains("truncated") || message.contains("not a JSON object"), "\(name): \(message)")
            }
            let broken = try Self.write(Array("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0".utf8), name: "tokenizer.json")
            #expect(Self.error(loading: broken)?.contains("invalid JSON") == true)
        }

        @Test func unsupportedGGUFVersions() throws {
            for (version, expected) in [(UInt32(1), "version 1"), (99, "version 99"), (UInt32(3).byteSwapped, "big-endian")] {
                var w = GGUFWriter.byteLevel()
                w.version = version
                let message = Self.error(loading: try Self.write(w.bytes())) ?? "loaded"
                #expect(message.contains(expected), "\(message)")
            }
        }

        /// Tokenizers ContextKit does not implement are named.
        @Test func unsupportedTokenizerKinds() throws {
            for (model, name) in [("t5", "Unigram"), ("rwkv", "RWKV"), ("mystery", "'mystery'")] {
                let message = Self.error(loading: try Self.write(GGUFWriter.byteLevel(model: model).bytes())) ?? "loaded"
                #expect(message.contains(name) && message.contains("does not implement"), "\(message)")
            }
            // Unigram is read now: a vocabulary that is not a list of [piece, score] is refused as such.
            let unigram = #"{"model": {"type": "Unigram", "vocab": {"a": 0}}}"#
            let unigramMessage = Self.error(loading: try Self.write(Array(unigram.utf8), name: "tokenizer.json")) ?? "loaded"
            #expect(unigramMessage.contains("model.vocab"), "\(unigramMessage)")
            for (type, name) in [("WordLevel", "WordLevel")] {
                let json = #"{"model": {"type": "\#(type)", "vocab": {"a": 0}}}"#
                let message = Self.error(loading: try Self.write(Array(json.utf8), name: "tokenizer.json")) ?? "loaded"
                #expect(message.contains(name) && message.contains("does not implement"), "\(message)")
            }
            let nmt = #"{"normalizer": {"type": "Nmt"}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}"#
            let message = Self.error(loading: try Self.write(Array(nmt.utf8), name: "tokenizer.json")) ?? "loaded"
            #expect(message.contains("Nmt") && message.contains("BertNormalizer"), "\(message)")
        }

        @Test func unknownPreType() throws {
            let message = Self.error(loading: try Self.write(GGUFWriter.byteLevel(pre: "brand-new-model").bytes())) ?? "loaded"
            #expect(message.contains("'brand-new-model'") && message.contains("llama-bpe") && message.contains("qwen2"), "\(message)")
            let custom = Self.error(loading: try Self.write(GGUFWriter.byteLevel(pre: "kimi-k2").bytes())) ?? "loaded"
            #expect(custom.contains("kimi-k2") && custom.contains("custom code"), "\(custom)")
        }

        @Test func missingPieces() throws {
            var noMerges = GGUFWriter.byteLevel()
            noMerges.entries.removeAll { $0.0 == "tokenizer.ggml.merges" }
            #expect(Self.error(loading: try Self.write(noMerges.bytes()))?.contains("tokenizer.ggml.merges") == true)
            var noModel = GGUFWriter.byteLevel()
            noModel.entries.removeAll { $0.0 == "tokenizer.ggml.model" }
            #expect(Self.error(loading: try Self.write(noModel.bytes()))?.contains("tokenizer.ggml.model") == true)
            var badTypes = GGUFWriter.byteLevel()
            badTypes.entries.append(("tokenizer.ggml.token_type", .int32s([1, 1])))
            #expect(Self.error(loading: try Self.write(badTypes.bytes()))?.contains("token_type") == true)
        }

        /// `file` (a GGUF with `tokenizer.ggml.merges`) with the space dropped
        /// from each of its merges: the damage that once loaded and counted wrong.
        static func droppingMergeSeparators(_ file: [UInt8]) throws -> [UInt8] {
            let key = Array("tokenizer.ggml.merges".utf8)
            let keyStart = try #require((0...(file.count - key.count)).first { file[$0..<($0 + key.count)].elementsEqual(key) })
            func u64(at offset: Int) -> Int { file[offset..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) } }
            var offset = keyStart + key.count + 8  // array type, element type (9, 8)
            let count = u64(at: offset)
            offset += 8
            var out = Array(file[..<offset])
            for _ in 0..<count {
                let length = u64(at: offset)
                var merge = Array(file[(offset + 8)..<(offset + 8 + length)])
                merge.removeAll { $0 == 0x20 }
                withUnsafeBytes(of: UInt64(merge.count).littleEndian) { out += $0 }
                out += merge
                offset += 8 + length
            }
            return out + file[offset...]  // the metadata after the merges, unchanged
        }

        /// gpt-2's vocabulary with its merges' spaces gone counted 2,898 tokens
        /// where it counts 801; it is refused now, in the words a tokenizer.json
        /// with the same damage is refused in.
        @Test func mergesWithoutTheirSpaceAreRefusedInAGGUFAsInATokenizerJSON() throws {
            let intact = [UInt8](try Data(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-gpt-2.gguf")))
            #expect(Self.error(loading: try Self.write(intact)) == nil)
            let damaged = try Self.write(try Self.droppingMergeSeparators(intact))
            defer { try? FileManager.default.removeItem(at: damaged.deletingLastPathComponent()) }
            let message = try #require(Self.error(loading: damaged))
            #expect(message.contains(#"merge 1 "Ġt" is not two tokens separated by a space"#), "\(message)")

            var written = GGUFWriter.byteLevel()
            written.entries[written.entries.firstIndex { $0.0 == "tokenizer.ggml.merges" }!].1 = .strings(["a b", "ab"])
            let gguf = try #require(Self.error(loading: try Self.write(written.bytes())))
            #expect(gguf.contains(#"merge 2 "ab" is not two tokens separated by a space"#), "\(gguf)")
            let json = #"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b", "ab"]}}"#
            let tokenizerJSON = try #require(Self.error(loading: try Self.write(Array(json.utf8), name: "tokenizer.json")))
            #expect(tokenizerJSON.contains(#"merge 2 "ab" is not two tokens separated by a space"#), "\(tokenizerJSON)")
            #expect(gguf.split(separator: ":").dropFirst() == tokenizerJSON.split(separator: ":").dropFirst(), "one message for both formats")
            // A merge whose second token is missing is the same damage.
            written.entries[written.entries.firstIndex { $0.0 == "tokenizer.ggml.merges" }!].1 = .strings(["a "])
            #expect(Self.error(loading: try Self.write(written.bytes()))?.contains("merge 1 \"a \" is not two tokens") == true)
        }

        /// A `pre_tokenizer` or `normalizer` beyond 64 components is refused
        /// by name: 3,000 Split steps ended the process with SIGSEGV (a level
        /// of recursion per step when text was split).
        @Test func pipelinesOfMoreThanSixtyFourComponentsAreRefused() throws {
            func load(_ section: String, _ value: String) throws -> (message: String?, tokenizer: Tokenizer?) {
                let json = #"{"\#(section)": \#(value), "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "1": 3}, "merges": ["a b"]}}"#
                let url = try Self.write(Array(json.utf8), name: "tokenizer.json")
                defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
                do { return (nil, try Tokenizer.load(contentsOf: url)) } catch { return ("\(error)", nil) }
            }
            func sequence(_ count: Int, of step: String, key: String = "pretokenizers") -> String {
                #"{"type": "Sequence", "\#(key)": ["# + Array(repeating: step, count: count).joined(separator: ", ") + "]}"
            }
            let split = #"{"type": "Split", "pattern": {"String": "1"}, "behavior": "Isolated"}"#
            let atTheLimit = try load("pre_tokenizer", sequence(63, of: split))
            #expect(atTheLimit.message == nil, "\(atTheLimit.message ?? "")")
            #expect(atTheLimit.tokenizer?.encodeOrdinary("ab1ab") == [2, 3, 2])
            let flat = try load("pre_tokenizer", sequence(3_000, of: split)).message
            #expect(flat?.contains("its pre_tokenizer has more than 64 components (Sequence entries, nested ones counted)") == true, "\(flat ?? "loaded")")
            var nested = split
            for _ in 0..<200 { nested = sequence(1, of: nested) }
            let deep = try load("pre_tokenizer", nested).message
            #expect(deep?.contains("its pre_tokenizer has more than 64 components") == true, "\(deep ?? "loaded")")
            var normalizer = #"{"type": "NFC"}"#
            for _ in 0..<200 { normalizer = sequence(1, of: normalizer, key: "normalizers") }
            let normalizers = try load("normalizer", normalizer).message
            #expect(normalizers?.contains("its normalizer has more than 64 components") == true, "\(normalizers ?? "loaded")")
            #expect(try load("normalizer", sequence(3_000, of: #"{"type": "NFC"}"#, key: "normalizers")).message?.contains("more than 64") == true)
        }

        /// Ids are positions in the token list; one past the tables' limit is
        /// refused by name, where it used to be dropped without a word.
        @Test func tooManyTokensAreRefused() throws {
            let limit = VocabularyBuilder.maximumID + 1
            for (count, refused) in [(limit, false), (limit + 1, true)] {
                var writer = GGUFWriter.byteLevel()
                let index = writer.entries.firstIndex { $0.0 == "tokenizer.ggml.tokens" }!
                guard case .strings(let tokens) = writer.entries[index].1 else { Issue.record("no token list"); return }
                writer.entries[index].1 = .strings(tokens + Array(repeating: "", count: count - tokens.count))
                let url = try Self.write(writer.bytes())
                defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
                let message = Self.error(loading: url)
                if refused {
                    #expect(message?.contains("has \(limit + 1) tokens; at most \(limit) are supported") == true, "\(message ?? "loaded")")
                } else {
                    #expect(message == nil, "\(message ?? "")")
                }
            }
        }
    }
}

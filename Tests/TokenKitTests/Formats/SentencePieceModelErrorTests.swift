import Foundation
import Testing
import TestSupport
@testable import TokenKit

extension OpenModels {
    /// Bad and unusual `.model` files: refused with the file, the offset and
    /// what is wrong, or read in bounded time however many pieces they hold.
    @Suite struct SentencePieceModelErrorTests {
        /// Writes a `ModelProto` in the protobuf wire format.
        struct ModelWriter {
            var pieces: [(String, Float, Int)] = [("<unk>", 0, 2), ("<s>", 0, 3), ("</s>", 0, 3)]
            var modelType = 1
            var byteFallback = false
            var charsmap: [UInt8]? = nil

            static func varint(_ v: UInt64) -> [UInt8] {
                var v = v, out: [UInt8] = []
                repeat { out.append(UInt8(v & 0x7F) | (v >= 0x80 ? 0x80 : 0)); v >>= 7 } while v > 0
                return out
            }
            static func field(_ n: Int, _ payload: [UInt8]) -> [UInt8] { varint(UInt64(n << 3 | 2)) + varint(UInt64(payload.count)) + payload }
            static func field(_ n: Int, int v: Int) -> [UInt8] { varint(UInt64(n << 3)) + varint(UInt64(v)) }

            func bytes() -> [UInt8] {
                var out: [UInt8] = []
                out.reserveCapacity(pieces.count * 16)
                for (text, score, type) in pieces {
                    var p = Self.field(1, Array(text.utf8)) + [0x15]
                    withUnsafeBytes(of: score.bitPattern.littleEndian) { p += $0 }
                    if type != 1 { p += Self.field(3, int: type) }
                    out += Self.field(1, p)
                }
                out += Self.field(2, Self.field(3, int: modelType) + (byteFallback ? Self.field(35, int: 1) : []))
                out += Self.field(3, Self.field(1, Array("identity".utf8)) + (charsmap.map { Self.field(2, $0) } ?? []))
                return out
            }

            func load() throws -> Tokenizer {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("spm-\(UUID().uuidString).bin")
                try Data(bytes()).write(to: url)
                defer { try? FileManager.default.removeItem(at: url) }
                return try Tokenizer.load(contentsOf: url)
            }
        }

        static func message(_ body: () throws -> Tokenizer) -> String {
            do { _ = try body(); return "loaded" } catch { return "\(error)" }
        }

        @Test func truncatedFileNamesTheOffset() throws {
            let source = SentencePieceModelTests.fixtures.appendingPathComponent("botchan_en_unigram_1000.model")
            let data = try Data(contentsOf: source)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).model")
            try data.prefix(data.count / 2).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let error = Self.message { try Tokenizer.load(contentsOf: url) }
            #expect(error.contains(url.path) && error.contains("is truncated") && error.contains("at byte "), "\(error)")
        }

        @Test func unsupportedModelTypesAreNamed() throws {
            for (type, name) in [(3, "WORD"), (4, "CHAR")] {
                var w = ModelWriter(); w.modelType = type
                w.pieces += [("▁a", -1, 1)]
                let error = Self.message { try w.load() }
                #expect(error.contains("SentencePiece \(name) model") && error.contains("SentencePiece Unigram") && error.contains("SentencePiece BPE"), "\(error)")
            }
            var w = ModelWriter(); w.modelType = 9
            #expect(Self.message { try w.load() }.contains("model_type is 9"))
        }

        @Test func inconsistentModelsAreRefused() throws {
            var noUnknown = ModelWriter(); noUnknown.pieces = [("a", -1, 1)]
            #expect(Self.message { try noUnknown.load() }.contains("an unknown piece"))
            var repeated = ModelWriter(); repeated.pieces += [("ab", -1, 1), ("ab", -2, 1)]
            #expect(Self.message { try repeated.load() }.contains("repeats an earlier piece"))
            var bytesOff = ModelWriter(); bytesOff.pieces += [("<0x41>", 0, 6)]
            #expect(Self.message { try bytesOff.load() }.contains("byte_fallback is off"))
            var fewBytes = ModelWriter(); fewBytes.byteFallback = true; fewBytes.pieces += [("<0x41>", 0, 6)]
            #expect(Self.message { try fewBytes.load() }.contains("no byte piece <0x00>"))
            var badCharsmap = ModelWriter(); badCharsmap.pieces += [("a", -1, 1)]; badCharsmap.charsmap = [0, 4, 0, 0, 1, 2, 3]
            #expect(Self.message { try badCharsmap.load() }.contains("precompiled_charsmap"))
            var nan = ModelWriter(); nan.pieces += [("a", .nan, 1)]
            #expect(Self.message { try nan.load() }.contains("score"))
        }

        /// A hand-made Unigram and BPE model: unknowns merge into one token
        /// without byte fallback, user-defined symbols stay whole.
        @Test func unknownsAndUserDefinedSymbols() throws {
            var w = ModelWriter()
            w.pieces += [("▁", -2, 1), ("a", -3, 1), ("b", -3, 1), ("▁ab", -1, 1), ("<user>", 0, 4), ("ab", -2.5, 1)]
            for type in [1, 2] {
                w.modelType = type
                let t = try w.load()
                #expect(t.encodeOrdinary("ab") == [6], "type \(type)")
                #expect(t.encodeOrdinary("ab☃☃b") == [6, 0, 5], "type \(type)")
                #expect(t.encodeOrdinary("a<user>b") == [3, 4, 7, 5], "type \(type)")
            }
        }

        /// Two million pieces load, and encode through the hashed lookup (too
        /// many ids for the trie). No timing is asserted; the load is linear.
        static let millions = Int(ProcessInfo.processInfo.environment["SPM_PIECES"] ?? "") ?? 2_000_000

        @Test func millionsOfPieces() throws {
            var w = ModelWriter()
            w.pieces.reserveCapacity(2_000_010)
            for i in 0..<Self.millions { w.pieces.append(("▁p\(i)", -Float(i % 1000) / 100 - 1, 1)) }
            w.pieces += [("▁", -20, 1), ("x", -20, 1)]
            let t = try w.load()
            let n = Self.millions
            #expect(t.encodeOrdinary("p\(n - 1) p17 x") == [n + 2, 20, n + 3, n + 4])
        }
    }
}

import ContextKitJSON
import Foundation

/// The `Unigram` model of a Hugging Face `tokenizer.json` (T5, XLM-R, mBART,
/// anything converted from a SentencePiece Unigram model), with the ids
/// `tokenizers` gives: Viterbi over the vocabulary's scores summed in
/// `Double`, unknown characters `min score − 10`, a run of them one
/// `unk_id` token, or their bytes' `<0xNN>` tokens under `byte_fallback`.
extension HuggingFaceTokenizerFile.Reader {
    func unigramTokenizer(_ model: OrderedJSON, name: String) throws -> Tokenizer {
        var normalizers: [Normalizer] = []
        if let n = root["normalizer"], n != .null { normalizers.append(try normalizer(n)) }
        var pre = PreTokenizerParts()
        if let p = root["pre_tokenizer"], p != .null { try preTokenizer(p, into: &pre) }
        guard !pre.byteLevel else {
            throw ModelFileError.unsupportedComponent(
                path: path, component: "a ByteLevel pre-tokenizer with a Unigram model", supported: ["Metaspace and the splitting pre-tokenizers"])
        }
        normalizers += pre.normalizers
        let escapesSpaces = normalizers.contains(where: \.escapesSpaces)
        guard let vocab = model["vocab"]?.elements else { throw ModelFileError.missing(path: path, key: "model.vocab") }
        guard vocab.count - 1 <= VocabularyBuilder.maximumID else {
            throw ModelFileError.malformed(path: path, reason: "model.vocab has \(vocab.count) entries; at most \(VocabularyBuilder.maximumID + 1) are supported")
        }
        var builder = VocabularyBuilder(path: path, capacity: vocab.count)
        var scores = [Double](repeating: 0, count: vocab.count)
        var byteIDs = [UInt32](repeating: .max, count: 256)
        var minimumScore = Double.infinity
        for (id, entry) in vocab.enumerated() {
            guard let pair = entry.elements, pair.count == 2, let text = pair[0].stringValue, let score = pair[1].doubleValue, score.isFinite else {
                throw ModelFileError.malformed(path: path, reason: "model.vocab entry \(id) is not [\"piece\", score]")
            }
            scores[id] = score
            minimumScore = min(minimumScore, score)
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                if let b = GGUFFile.byteTokenValue(raw) {
                    byteIDs[Int(b)] = UInt32(id)
                    builder.addMergeable(id, bytes: bytes, decodesTo: [b])
                } else {
                    builder.addMergeable(id, bytes: bytes, decodesTo: escapesSpaces ? GGUFFile.unescapingSpaces(raw) : nil)
                }
            }
        }
        try HuggingFaceTokenizerFile.addAddedTokens(root, path: path, into: &builder)
        let vocabulary = try builder.vocabulary()
        var unknownID = UInt32.max
        if let unk = model["unk_id"], unk != .null {
            guard let id = unk.intValue, id >= 0, id < vocab.count else { throw ModelFileError.malformed(path: path, reason: "model.unk_id is not the id of a vocabulary entry") }
            unknownID = UInt32(id)
        }
        // tokenizers falls back to bytes only when every byte of the character has its token.
        let byteFallback = (model["byte_fallback"]?.boolValue ?? false) && !byteIDs.contains(.max)
        guard unknownID != .max || byteFallback else {
            throw ModelFileError.missing(path: path, key: "model.unk_id (a Unigram model without byte fallback needs one)")
        }
        let encoder = UnigramEncoder(
            pieces: vocabulary, scores: scores, unknownScore: minimumScore - Double(UnigramEncoder.unknownPenalty),
            unknownID: unknownID, byteIDs: byteFallback ? byteIDs : nil, singlePrecision: false)
        let normalizer: Normalizer? = normalizers.isEmpty ? nil : normalizers.count == 1 ? normalizers[0] : .sequence(normalizers)
        let pipeline = OpenModelPipeline(
            model: .unigram(encoder), normalizer: normalizer, steps: pre.steps,
            addedTokens: AddedTokenMatcher(builder.addedTokens),
            decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: normalizers.contains(where: \.prependsMetaSpace)),
            summary: "Hugging Face Unigram" + (byteFallback ? " with byte fallback" : ""))
        return Tokenizer(
            name: name, vocabulary: vocabulary, preTokenizer: try informationalPreTokenizer(pre.steps),
            specialTokens: builder.specialTokens, pipeline: pipeline, inputSpecials: InputSpecials(postProcessor: root["post_processor"]))
    }

    /// `Replace` with a regex: only `X{n,}` of one ASCII character that is no
    /// regex operator (the `" {2,}"` SentencePiece converters write).
    func regexReplace(_ n: OrderedJSON) throws -> Normalizer {
        let pattern = n["pattern"]?["Regex"]?.stringValue ?? ""
        let content = Array((n["content"]?.stringValue ?? "").utf8)
        let bytes = Array(pattern.utf8)
        if bytes.count >= 5, bytes[1] == UInt8(ascii: "{"), bytes.suffix(2).elementsEqual(",}".utf8),
            bytes[0] < 0x80, !Array("\\.^$|?*+()[]{}".utf8).contains(bytes[0]),
            let minimum = Int(String(decoding: bytes[2..<(bytes.count - 2)], as: UTF8.self)), minimum >= 1
        {
            return .collapseRuns(byte: bytes[0], minimum: minimum, content: content)
        }
        throw ModelFileError.unsupportedComponent(path: path, component: "the Replace normalizer with the regex \(pattern.debugDescription)", supported: Normalizer.supportedNames)
    }

    /// `Precompiled`: the base64 charsmap of a SentencePiece model.
    func precompiled(_ n: OrderedJSON) throws -> Normalizer {
        guard let text = n["precompiled_charsmap"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw ModelFileError.malformed(path: path, reason: "the Precompiled normalizer's precompiled_charsmap is not base64")
        }
        do {
            return .precompiled(try data.withUnsafeBytes { try PrecompiledCharsmap($0) })
        } catch let error as PrecompiledCharsmap.Failure {
            throw ModelFileError.malformed(path: path, reason: "the Precompiled normalizer's charsmap is broken at byte \(error.offset) of its bytes: \(error.reason)")
        }
    }
}

/// Reads a SentencePiece `.model` file (a serialized `ModelProto`: Llama 2,
/// Mistral v1–v7, Gemma, T5 and everything converted from them) and builds
/// its tokenizer, with the ids `SentencePieceProcessor.encode(text)` gives
/// (default options: no sampling, no BOS/EOS).
///
/// What encoding reads from the file: the pieces (text, score, type), the
/// trainer spec's `model_type` (BPE or Unigram), `byte_fallback` and
/// `treat_whitespace_as_suffix`, and the normalizer spec (the precompiled
/// charsmap, `add_dummy_prefix`, `remove_extra_whitespaces`,
/// `escape_whitespaces`). The normalizer's `name` is informational: like
/// sentencepiece, only the compiled charsmap is applied.
struct SentencePieceModelFile {
    /// `ModelProto.SentencePiece.Type`.
    enum PieceType: UInt8 {
        case normal = 1, unknown = 2, control = 3, userDefined = 4, unused = 5, byte = 6
    }

    /// `TrainerSpec.ModelType`.
    enum ModelType: Int32 {
        case unigram = 1, bpe = 2, word = 3, character = 4
    }

    /// One piece: its text (a range of the file), score and type.
    struct Piece {
        let text: Range<Int>
        let score: Float
        let type: PieceType
    }

    let path: String
    let pieces: [Piece]
    var modelType: ModelType = .unigram
    var byteFallback = false
    var treatWhitespaceAsSuffix = false
    var normalizerName = ""
    var charsmap: Range<Int>? = nil
    var addDummyPrefix = true
    var removeExtraWhitespaces = true
    var escapeWhitespaces = true

    /// The algorithms this reader implements, for error messages.
    static let supportedModels = ["SentencePiece BPE (model_type BPE)", "SentencePiece Unigram (model_type UNIGRAM)"]

    /// Whether `bytes` start like a `ModelProto`: field 1 (a piece), whose
    /// own first field is field 1 (the piece's text).
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 3, bytes[0] == 0x0A else { return false }
        var i = 1
        while i < min(bytes.count, 6) && bytes[i] & 0x80 != 0 { i += 1 }
        return i + 1 < bytes.count && bytes[i + 1] == 0x0A
    }

    /// Parses the message in `bytes` (which must stay alive while the pieces are read).
    init(bytes: UnsafeRawBufferPointer, path: String) throws {
        self.path = path
        do {
            var pieces: [Piece] = []
            var reader = ProtobufReader(bytes)
            var trainer: ProtobufReader.Field? = nil
            var normalizer: ProtobufReader.Field? = nil
            while let field = try reader.next() {
                switch field.number {
                case 1: pieces.append(try Self.piece(field, bytes, index: pieces.count))
                case 2: trainer = try Self.expect(field, .lengthDelimited, "trainer_spec")
                case 3: normalizer = try Self.expect(field, .lengthDelimited, "normalizer_spec")
                default: break
                }
            }
            self.pieces = pieces
            if let trainer {
                var r = ProtobufReader(bytes, range: trainer.range)
                while let f = try r.next() {
                    switch f.number {
                    case 3:
                        let raw = try Self.expect(f, .varint, "trainer_spec.model_type").int32
                        guard let type = ModelType(rawValue: raw) else {
                            throw ProtobufReader.Failure(offset: f.offset, reason: "trainer_spec.model_type is \(raw), which is no SentencePiece model type")
                        }
                        modelType = type
                    case 24: treatWhitespaceAsSuffix = try Self.expect(f, .varint, "trainer_spec.treat_whitespace_as_suffix").bool
                    case 35: byteFallback = try Self.expect(f, .varint, "trainer_spec.byte_fallback").bool
                    default: break
                    }
                }
            }
            if let normalizer {
                var r = ProtobufReader(bytes, range: normalizer.range)
                while let f = try r.next() {
                    switch f.number {
                    case 1: normalizerName = String(decoding: bytes[try Self.expect(f, .lengthDelimited, "normalizer_spec.name").range], as: UTF8.self)
                    case 2: charsmap = try Self.expect(f, .lengthDelimited, "normalizer_spec.precompiled_charsmap").range
                    case 3: addDummyPrefix = try Self.expect(f, .varint, "normalizer_spec.add_dummy_prefix").bool
                    case 4: removeExtraWhitespaces = try Self.expect(f, .varint, "normalizer_spec.remove_extra_whitespaces").bool
                    case 5: escapeWhitespaces = try Self.expect(f, .varint, "normalizer_spec.escape_whitespaces").bool
                    default: break
                    }
                }
            }
        } catch let failure as ProtobufReader.Failure {
            if failure.reason.contains("cut off") || failure.reason.contains("declares") {
                throw ModelFileError.truncated(path: path, reason: "at byte \(failure.offset): \(failure.reason)")
            }
            throw ModelFileError.malformed(path: path, reason: "at byte \(failure.offset): \(failure.reason)")
        }
        guard !pieces.isEmpty else { throw ModelFileError.missing(path: path, key: "pieces (ModelProto field 1)") }
    }

    private static func expect(_ field: ProtobufReader.Field, _ type: ProtobufReader.WireType, _ name: String) throws(ProtobufReader.Failure) -> ProtobufReader.Field {
        guard field.wireType == type else {
            throw ProtobufReader.Failure(offset: field.offset, reason: "\(name) has wire type \(field.wireType.rawValue), not \(type.rawValue)")
        }
        return field
    }

    private static func piece(_ field: ProtobufReader.Field, _ bytes: UnsafeRawBufferPointer, index: Int) throws(ProtobufReader.Failure) -> Piece {
        var r = ProtobufReader(bytes, range: try expect(field, .lengthDelimited, "piece \(index)").range)
        var text: Range<Int>? = nil
        var score: Float = 0
        var type = PieceType.normal
        while let f = try r.next() {
            switch f.number {
            case 1: text = try expect(f, .lengthDelimited, "the text of piece \(index)").range
            case 2: score = try expect(f, .fixed32, "the score of piece \(index)").float
            case 3:
                let raw = try expect(f, .varint, "the type of piece \(index)").int32
                guard raw > 0, raw < 256, let t = PieceType(rawValue: UInt8(raw)) else {
                    throw ProtobufReader.Failure(offset: f.offset, reason: "piece \(index) has the unknown type \(raw)")
                }
                type = t
            default: break
            }
        }
        guard let text, !text.isEmpty else { throw ProtobufReader.Failure(offset: field.offset, reason: "piece \(index) has no text") }
        return Piece(text: text, score: score, type: type)
    }
}

extension SentencePieceModelFile {
    private var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The model's tokenizer.
    ///
    /// - Throws: `ModelFileError.unsupportedTokenizer` for a WORD or CHAR
    ///   model; `.malformed` for what sentencepiece itself refuses to load
    ///   (a repeated piece, two unknown pieces, byte pieces without
    ///   `byte_fallback` or not all 256 of them, no unknown piece without
    ///   byte fallback, a score that is not finite, a broken charsmap).
    func tokenizer(bytes: UnsafeRawBufferPointer) throws -> Tokenizer {
        switch modelType {
        case .unigram, .bpe: break
        case .word: throw ModelFileError.unsupportedTokenizer(path: path, name: "SentencePiece WORD model (model_type WORD)", supported: Self.supportedModels)
        case .character: throw ModelFileError.unsupportedTokenizer(path: path, name: "SentencePiece CHAR model (model_type CHAR)", supported: Self.supportedModels)
        }
        guard pieces.count - 1 <= VocabularyBuilder.maximumID else {
            throw ModelFileError.malformed(path: path, reason: "it has \(pieces.count) pieces; at most \(VocabularyBuilder.maximumID + 1) are supported")
        }
        let unigram = modelType == .unigram
        var builder = VocabularyBuilder(path: path, capacity: pieces.count)
        var byteIDs = [UInt32](repeating: .max, count: 256)
        var scores = [Float](repeating: 0, count: pieces.count)
        var unknownID = UInt32.max
        var minimumScore = Float.greatestFiniteMagnitude
        var userDefined: [Int] = []
        for (id, piece) in pieces.enumerated() {
            let text = UnsafeRawBufferPointer(rebasing: bytes[piece.text])
            guard piece.score.isFinite else { throw ModelFileError.malformed(path: path, reason: "piece \(id) has the score \(piece.score)") }
            guard piece.text.count < 8000 else {
                throw ModelFileError.malformed(path: path, reason: "piece \(id) is \(piece.text.count) bytes long; sentencepiece refuses pieces of 8,000 bytes or more")
            }
            // sentencepiece's fix for converted models: a NUL piece beside byte fallback is unused.
            let type = byteFallback && text.count == 1 && text[0] == 0 ? PieceType.unused : piece.type
            if type != .unused, text.contains(0) { throw ModelFileError.malformed(path: path, reason: "piece \(id) contains a NUL byte") }
            scores[id] = piece.score
            switch type {
            case .normal:
                minimumScore = min(minimumScore, piece.score)
                builder.addMergeable(id, bytes: text, decodesTo: GGUFFile.unescapingSpaces(text))
            case .userDefined:
                userDefined.append(id)
                if unigram { scores[id] = Float(0.1 * Double(text.count - 1)) }
                builder.addMergeable(id, bytes: text, decodesTo: GGUFFile.unescapingSpaces(text))
            case .unused:
                // Unused pieces are never produced (Unigram skips them, BPE
                // splits them again); they only decode.
                builder.addDecodeOnly(id, bytes: Array(text))
            case .unknown:
                guard unknownID == .max else { throw ModelFileError.malformed(path: path, reason: "pieces \(unknownID) and \(id) are both the unknown piece") }
                unknownID = UInt32(id)
                builder.addSpecial(id, text: String(decoding: text, as: UTF8.self))
            case .control:
                builder.addSpecial(id, text: String(decoding: text, as: UTF8.self))
            case .byte:
                guard byteFallback else {
                    throw ModelFileError.malformed(path: path, reason: "piece \(id) \(String(decoding: text, as: UTF8.self)) is a byte piece but byte_fallback is off")
                }
                guard let b = GGUFFile.byteTokenValue(text) else {
                    throw ModelFileError.malformed(path: path, reason: "byte piece \(id) \(String(decoding: text, as: UTF8.self).debugDescription) is not <0xNN>")
                }
                byteIDs[Int(b)] = UInt32(id)
                builder.addDecodeOnly(id, bytes: [b])
            }
        }
        if byteFallback, let missing = byteIDs.firstIndex(of: .max) {
            throw ModelFileError.malformed(path: path, reason: String(format: "byte_fallback is on but there is no byte piece <0x%02X>", missing))
        }
        if unknownID == .max && !byteFallback {
            throw ModelFileError.missing(path: path, key: "an unknown piece (type UNKNOWN), which a model without byte_fallback needs")
        }
        let vocabulary = try builder.vocabulary()
        // The table keeps the first of two equal pieces; sentencepiece refuses the file.
        for (id, piece) in pieces.enumerated() where piece.type == .normal || piece.type == .userDefined {
            let text = UnsafeRawBufferPointer(rebasing: bytes[piece.text]).bindMemory(to: UInt8.self)
            guard vocabulary.id(of: text.baseAddress!, count: text.count) == UInt32(id) else {
                throw ModelFileError.malformed(path: path, reason: "piece \(id) \(String(decoding: text, as: UTF8.self).debugDescription) repeats an earlier piece")
            }
        }
        var charsmapTable: PrecompiledCharsmap? = nil
        if let range = charsmap, !range.isEmpty {
            do {
                charsmapTable = try PrecompiledCharsmap(UnsafeRawBufferPointer(rebasing: bytes[range]))
            } catch {
                throw ModelFileError.malformed(path: path, reason: "the normalizer's precompiled_charsmap (at byte \(range.lowerBound + error.offset)) is broken: \(error.reason)")
            }
        }
        let symbols = UserDefinedSymbols(pieces: vocabulary, ids: userDefined)
        let normalizer = SentencePieceNormalizer(
            charsmap: charsmapTable, addDummyPrefix: addDummyPrefix, removeExtraWhitespaces: removeExtraWhitespaces,
            escapeWhitespaces: escapeWhitespaces, treatWhitespaceAsSuffix: treatWhitespaceAsSuffix, userDefined: symbols)
        let model: OpenModelPipeline.Model
        if unigram {
            model = .unigram(
                UnigramEncoder(
                    pieces: vocabulary, scores: scores.map(Double.init),
                    unknownScore: Double(minimumScore - UnigramEncoder.unknownPenalty),
                    unknownID: unknownID, byteIDs: byteFallback ? byteIDs : nil, singlePrecision: true))
        } else {
            var encoder = SentencePieceEncoder(pieces: vocabulary, scores: scores, byteIDs: byteIDs)
            if !byteFallback { encoder.unknownID = unknownID }
            encoder.userDefined = symbols
            model = .sentencePiece(encoder)
        }
        let normalizerSummary = charsmapTable == nil ? "no charsmap" : "charsmap \(normalizerName.isEmpty ? "custom" : normalizerName)"
        let pipeline = OpenModelPipeline(
            model: model, normalizer: .sentencePiece(normalizer), steps: [],
            addedTokens: AddedTokenMatcher([]),
            decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: addDummyPrefix && !treatWhitespaceAsSuffix),
            summary: "SentencePiece \(unigram ? "Unigram" : "BPE")\(byteFallback ? " with byte fallback" : ""), \(normalizerSummary)")
        return Tokenizer(
            name: fileName, vocabulary: vocabulary, preTokenizer: try informationalPreTokenizer([]),
            specialTokens: builder.specialTokens, pipeline: pipeline)
    }
}

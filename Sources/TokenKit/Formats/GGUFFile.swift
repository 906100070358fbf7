import Foundation

/// The key/value header of a GGUF model file (versions 2 and 3), read from a
/// memory map: the tensors are never touched, so a model of several gigabytes
/// opens as fast as a vocabulary-only file.
///
/// ```swift
/// let model = try GGUFFile(contentsOf: url)
/// model.contextLength      // 8192
/// model.chatTemplate       // "{% for message in messages %}..."
/// let tokenizer = try model.tokenizer()
/// ```
public final class GGUFFile: @unchecked Sendable {
    // @unchecked Sendable: every property is a constant read from the file in init, and the mapping under it is read-only.
    /// The file's path, as given.
    public let path: String
    /// The GGUF format version (2 or 3).
    public let version: Int
    /// How many tensors the file declares (0 for a vocabulary-only file).
    public let tensorCount: Int
    /// Every metadata key, in file order.
    public let keys: [String]
    /// The file's size in bytes.
    public var fileSize: Int { file.count }

    let file: MappedFile
    private let entries: [String: Entry]

    /// Where a value lives in the file.
    struct Entry {
        let type: GGUFValueType
        let offset: Int  // the value (for arrays: the first element)
        let elementType: GGUFValueType?
        let count: Int  // array elements; 1 for scalars
    }

    /// The four bytes every GGUF file starts with.
    static let magic: [UInt8] = Array("GGUF".utf8)

    /// Whether bytes look like the start of a GGUF file.
    static func hasMagic(_ prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.count >= 4 && prefix.prefix(4).elementsEqual(magic)
    }

    /// Maps the file and reads its header (the metadata keys and values; the
    /// tensors are not read).
    ///
    /// - Throws: `ModelFileError.unrecognizedFormat` when the file is not
    ///   GGUF, `.truncated`, `.unsupportedGGUFVersion` or `.malformed` when
    ///   its header cannot be read; `TokenKitError.unreadableFile` when the
    ///   file cannot be opened.
    public convenience init(contentsOf url: URL) throws {
        try self.init(file: MappedFile(path: url.path))
    }

    init(file: MappedFile) throws {
        self.file = file
        self.path = file.path
        var reader = Reader(file: file)
        guard file.count >= 4 else {
            throw file.count == 0
                ? ModelFileError.unrecognizedFormat(path: path)
                : ModelFileError.truncated(path: path, reason: "the file has only \(file.count) bytes")
        }
        guard Self.hasMagic(file.prefix(4)) else { throw ModelFileError.unrecognizedFormat(path: path) }
        reader.offset = 4
        let version = try reader.u32()
        guard version == 2 || version == 3 else {
            throw ModelFileError.unsupportedGGUFVersion(path: path, version: version)
        }
        self.version = Int(version)
        let tensors = try reader.u64()
        let kvCount = try reader.u64()
        // Real files have tens of keys and at most thousands of tensors; counts
        // this large are damage, not a big model (a short file is reported as truncated below).
        guard tensors < 1 << 32, kvCount < 1 << 24 else {
            throw ModelFileError.malformed(path: path, reason: "the header declares \(tensors) tensors and \(kvCount) metadata keys")
        }
        tensorCount = Int(tensors)
        var keys: [String] = []
        var entries: [String: Entry] = [:]
        keys.reserveCapacity(Int(kvCount))
        for index in 0..<Int(kvCount) {
            let key = try reader.string(what: "key \(index + 1) of \(kvCount)")
            let rawType = try reader.u32()
            guard let type = GGUFValueType(rawValue: rawType) else {
                throw ModelFileError.malformed(path: path, reason: "metadata key \(key) has the unknown value type \(rawType)")
            }
            let entry: Entry
            if type == .array {
                let rawElement = try reader.u32()
                guard let element = GGUFValueType(rawValue: rawElement), element != .array else {
                    throw ModelFileError.malformed(path: path, reason: "the array \(key) has the unsupported element type \(rawElement)")
                }
                let count = try reader.u64()
                guard count <= UInt64(file.count) else {
                    throw ModelFileError.truncated(path: path, reason: "the array \(key) declares \(count) elements")
                }
                entry = Entry(type: type, offset: reader.offset, elementType: element, count: Int(count))
                if element == .string {
                    for _ in 0..<Int(count) { try reader.skip(.string, in: key) }
                } else {
                    try reader.skip(bytes: Int(count) * element.size, in: key)
                }
            } else {
                entry = Entry(type: type, offset: reader.offset, elementType: nil, count: 1)
                try reader.skip(type, in: key)
            }
            if entries.updateValue(entry, forKey: key) != nil {
                throw ModelFileError.malformed(path: path, reason: "the metadata key \(key) appears twice")
            }
            keys.append(key)
        }
        self.keys = keys
        self.entries = entries
    }

    // MARK: Values

    /// The value of a metadata key; arrays are described, not read (the
    /// vocabulary's arrays are read where they are needed, without copying).
    public func value(forKey key: String) -> GGUFValue? {
        guard let e = entries[key] else { return nil }
        let b = file.base + e.offset
        switch e.type {
        case .uint8: return .unsignedInteger(UInt64(b.load(as: UInt8.self)))
        case .int8: return .integer(Int64(b.load(as: Int8.self)))
        case .uint16: return .unsignedInteger(UInt64(UInt16(littleEndian: b.loadUnaligned(as: UInt16.self))))
        case .int16: return .integer(Int64(Int16(littleEndian: b.loadUnaligned(as: Int16.self))))
        case .uint32: return .unsignedInteger(UInt64(UInt32(littleEndian: b.loadUnaligned(as: UInt32.self))))
        case .int32: return .integer(Int64(Int32(littleEndian: b.loadUnaligned(as: Int32.self))))
        case .uint64: return .unsignedInteger(UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)))
        case .int64: return .integer(Int64(littleEndian: b.loadUnaligned(as: Int64.self)))
        case .float32: return .float(Double(Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(as: UInt32.self)))))
        case .float64: return .float(Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(as: UInt64.self))))
        case .bool: return .bool(b.load(as: UInt8.self) != 0)
        case .string:
            let n = Int(UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)))
            return .string(String(decoding: UnsafeRawBufferPointer(start: b + 8, count: n), as: UTF8.self))
        case .array: return .array(elementType: e.elementType!, count: e.count)
        }
    }

    /// A string value, or `nil` if the key is absent or not a string.
    public func string(forKey key: String) -> String? {
        if case .string(let s)? = value(forKey: key) { return s }
        return nil
    }

    /// An integer value of any width, or `nil` if absent, not an integer, or out of range.
    public func integer(forKey key: String) -> Int? {
        switch value(forKey: key) {
        case .integer(let v)?: return Int(exactly: v)
        case .unsignedInteger(let v)?: return Int(exactly: v)
        default: return nil
        }
    }

    /// A boolean value, or `nil` if absent or not a boolean.
    public func bool(forKey key: String) -> Bool? {
        if case .bool(let v)? = value(forKey: key) { return v }
        return nil
    }

    // MARK: What a model needs

    /// `general.architecture`, e.g. `llama`, `qwen2`.
    public var architecture: String? { string(forKey: "general.architecture") }
    /// `general.name`.
    public var name: String? { string(forKey: "general.name") }
    /// The context length the model was trained with (`<architecture>.context_length`).
    public var contextLength: Int? { architecture.flatMap { integer(forKey: "\($0).context_length") } }
    /// The default chat template (`tokenizer.chat_template`, Jinja).
    public var chatTemplate: String? { string(forKey: "tokenizer.chat_template") }
    /// `tokenizer.ggml.model`: `gpt2` (byte-level BPE), `llama` (SentencePiece), ...
    public var tokenizerModel: String? { string(forKey: "tokenizer.ggml.model") }
    /// `tokenizer.ggml.pre`: llama.cpp's name for the pre-tokenizer, e.g. `llama-bpe`.
    public var preTokenizerName: String? { string(forKey: "tokenizer.ggml.pre") }
    /// How many tokens the vocabulary has (`tokenizer.ggml.tokens`), or `nil`
    /// when the file has no vocabulary.
    public var vocabularySize: Int? { entries["tokenizer.ggml.tokens"]?.count }
    /// The beginning-of-sequence token id, as the file or llama.cpp's default for the model sets it.
    public var bosTokenID: Int? { specialTokenID("tokenizer.ggml.bos_token_id", default: defaultBOS) }
    /// The end-of-sequence token id, as the file or llama.cpp's default for the model sets it.
    public var eosTokenID: Int? { specialTokenID("tokenizer.ggml.eos_token_id", default: defaultEOS) }

    /// The text of a token id, as stored (special tokens are their literal
    /// text; SentencePiece pieces keep their `▁`), or `nil` for an id outside
    /// the vocabulary.
    public func tokenText(_ id: Int) -> String? {
        guard let e = entries["tokenizer.ggml.tokens"], e.elementType == .string, id >= 0, id < e.count else { return nil }
        var found: String?
        var index = 0
        forEachString(e) { bytes in
            if index == id { found = String(decoding: bytes, as: UTF8.self) }
            index += 1
        }
        return found
    }

    /// Whether llama.cpp puts the BOS token before a prompt: the file's
    /// `tokenizer.ggml.add_bos_token`, else llama.cpp's default for the tokenizer
    /// (true for SentencePiece and Llama 3-style vocabularies).
    public var addBOSToken: Bool {
        if let explicit = bool(forKey: "tokenizer.ggml.add_bos_token") { return explicit }
        switch tokenizerModel {
        case "llama", "bert": return true
        case "gpt2": return preTokenizerName.flatMap(LlamaPreType.init(name:))?.addsBOSByDefault ?? false
        default: return false
        }
    }

    private var defaultBOS: Int? {
        switch tokenizerModel {
        case "llama": return 1
        case "gpt2": return 11
        case "bert": return 101
        default: return nil
        }
    }

    private var defaultEOS: Int? {
        switch tokenizerModel {
        case "llama": return 2
        case "gpt2": return 11
        case "t5": return 1
        default: return nil
        }
    }

    private func specialTokenID(_ key: String, default fallback: Int?) -> Int? {
        let n = vocabularySize ?? 0
        if let id = integer(forKey: key), id >= 0, id < n { return id }
        if let fallback, fallback < n { return fallback }
        return nil
    }

    // MARK: Raw access for the tokenizer loader

    func entry(_ key: String) -> Entry? { entries[key] }

    /// Calls `body` with each element of a string array, in order (bounds were checked when the header was read).
    func forEachString(_ e: Entry, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var offset = e.offset
        for _ in 0..<e.count {
            let n = Int(UInt64(littleEndian: (file.base + offset).loadUnaligned(as: UInt64.self)))
            try body(UnsafeRawBufferPointer(start: file.base + offset + 8, count: n))
            offset += 8 + n
        }
    }

    /// Element `i` of a numeric array as a `Double` (int32 and float32 arrays).
    func number(_ e: Entry, at i: Int) -> Double {
        let p = file.base + e.offset
        switch e.elementType {
        case .int32?: return Double(Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))
        case .float32?: return Double(Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))))
        case .uint32?: return Double(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
        default: return 0
        }
    }

    /// A bounds-checked cursor over the header.
    private struct Reader {
        let file: MappedFile
        var offset = 0

        private func need(_ n: Int, _ what: @autoclosure () -> String) throws {
            guard n >= 0, offset <= file.count - n else {
                throw ModelFileError.truncated(path: file.path, reason: "it ends inside \(what()) at byte \(file.count)")
            }
        }

        mutating func u32() throws -> UInt32 {
            try need(4, "the header")
            defer { offset += 4 }
            return UInt32(littleEndian: (file.base + offset).loadUnaligned(as: UInt32.self))
        }

        mutating func u64() throws -> UInt64 {
            try need(8, "the header")
            defer { offset += 8 }
            return UInt64(littleEndian: (file.base + offset).loadUnaligned(as: UInt64.self))
        }

        /// The byte length of the string at the cursor, checked against the file's end.
        private func stringLength(_ what: @autoclosure () -> String) throws -> Int {
            try need(8, what())
            let n = UInt64(littleEndian: (file.base + offset).loadUnaligned(as: UInt64.self))
            try need(n < UInt64(file.count) ? 8 + Int(n) : -1, what())
            return Int(n)
        }

        mutating func string(what: String) throws -> String {
            let n = try stringLength(what)
            defer { offset += 8 + n }
            return String(decoding: UnsafeRawBufferPointer(start: file.base + offset + 8, count: n), as: UTF8.self)
        }

        mutating func skip(_ type: GGUFValueType, in key: String) throws {
            if type == .string {
                offset += 8 + (try stringLength("the value of \(key)"))
            } else {
                try skip(bytes: type.size, in: key)
            }
        }

        mutating func skip(bytes n: Int, in key: String) throws {
            try need(n, "the value of \(key)")
            offset += n
        }
    }
}

/// The value types of GGUF metadata.
public enum GGUFValueType: UInt32, Sendable {
    /// The format's type codes 0–12, in the order GGUF numbers them.
    case uint8 = 0, int8, uint16, int16, uint32, int32, float32, bool, string, array, uint64, int64, float64

    /// Bytes of a fixed-size value (strings and arrays are variable).
    var size: Int {
        switch self {
        case .uint8, .int8, .bool: return 1
        case .uint16, .int16: return 2
        case .uint32, .int32, .float32: return 4
        case .uint64, .int64, .float64: return 8
        case .string, .array: return 0
        }
    }
}

/// One GGUF metadata value.
public enum GGUFValue: Equatable, Sendable {
    /// A signed integer of any width (`int8` … `int64`).
    case integer(Int64)
    /// An unsigned integer of any width (`uint8` … `uint64`).
    case unsignedInteger(UInt64)
    /// A `float32` or `float64`.
    case float(Double)
    /// A `bool`.
    case bool(Bool)
    /// A `string`, decoded as UTF-8 (invalid bytes become U+FFFD).
    case string(String)
    /// An array, described by its element type and length.
    case array(elementType: GGUFValueType, count: Int)
}

/// Collects a model file's tokens as they are read: which ones merges may
/// produce (the lookup `Vocabulary`), what every id decodes to, and which are
/// special or added tokens.
struct VocabularyBuilder {
    let path: String
    private var storage: [UInt8] = []
    private var entries: [(offset: Int, length: Int, id: Int)] = []
    private(set) var decoded: [[UInt8]?] = []
    private(set) var specialTokens: [String: Int] = [:]
    private(set) var addedTokens: [AddedTokenMatcher.Entry] = []

    /// The largest id a model file may use: `Vocabulary.build` keeps id + 1 in
    /// 24 bits, and the decode table has one entry per id up to the largest.
    static let maximumID = (1 << 24) - 2

    init(path: String, capacity: Int) {
        self.path = path
        storage.reserveCapacity(capacity * 6)
        entries.reserveCapacity(capacity)
        decoded.reserveCapacity(capacity)
    }

    private mutating func setDecoded(_ id: Int, _ bytes: [UInt8]) {
        if id >= decoded.count { decoded.append(contentsOf: repeatElement(nil, count: id - decoded.count + 1)) }
        decoded[id] = bytes
    }

    /// A token merges may produce: looked up by `bytes`, decoded as `decodesTo`.
    mutating func addMergeable<C: Collection>(_ id: Int, bytes: C, decodesTo: [UInt8]? = nil) where C.Element == UInt8 {
        guard !bytes.isEmpty else { return }
        entries.append((storage.count, bytes.count, id))
        storage.append(contentsOf: bytes)
        setDecoded(id, decodesTo ?? Array(bytes))
    }

    /// A special (control) token: plain text unless the caller allows it.
    mutating func addSpecial(_ id: Int, text: String) {
        specialTokens[text] = id
        setDecoded(id, Array(text.utf8))
    }

    /// A token cut out of any text wherever it appears.
    mutating func addAdded(_ entry: AddedTokenMatcher.Entry) {
        addedTokens.append(entry)
        setDecoded(entry.id, entry.text)
    }

    /// A token that is only ever decoded (never produced by encoding).
    mutating func addDecodeOnly(_ id: Int, bytes: [UInt8]) {
        setDecoded(id, bytes)
    }

    /// The lookup table. When two tokens have the same bytes, the first one
    /// (lowest id) is the one merges produce, as in a dictionary built in id order.
    func vocabulary() throws -> Vocabulary {
        guard !entries.isEmpty else { throw ModelFileError.malformed(path: path, reason: "the vocabulary has no tokens") }
        var entries = self.entries.sorted { $0.id < $1.id }
        for _ in 0..<1000 {
            switch Vocabulary.build(storage: storage, entries: entries) {
            case .success(let v):
                return v
            case .failure(let duplicate):
                entries.remove(at: duplicate.index)
            }
        }
        throw ModelFileError.malformed(path: path, reason: "more than a thousand tokens repeat the bytes of another token")
    }
}

import ContextKitJSON
import Render

/// Where a record's text is. A conversation (a messages array counted with
/// the profile's chat template, `--chat-field`) joins as a case of its own:
/// `text(in:)` is the one place that turns a record into the text counted.
package enum RecordTextSource: Sendable, Equatable {
    /// A string field at this path.
    case field(RecordFieldPath)

    /// The text of `record`, or why it has none.
    func text(in record: OrderedJSON) -> Result<String, RecordError> {
        switch self {
        case .field(let path):
            guard let value = path.value(in: record) else {
                return .failure(RecordError("no field \"\(path)\" (choose the text's field with --field)"))
            }
            guard let text = value.stringValue else {
                return .failure(RecordError("field \"\(path)\" is \(value.kindName), not a string"))
            }
            return .success(text)
        }
    }
}

/// Counts one JSON Lines record: reads the line as a JSON object, finds its
/// text and id, and counts the text for a profile. Pure: no I/O, so workers
/// run it on many records at once.
package struct RecordCounter: Sendable {
    package let tokenizer: Tokenizer
    package let special: SpecialTokenPolicy
    package let estimate: TokenEstimate?
    /// The window arithmetic for one record sent as one message.
    package let budget: TokenBudget
    package let text: RecordTextSource
    /// The id's path; nil to pass no id through.
    package let id: RecordFieldPath?
    /// Whether to list each record's token ids.
    package let listIDs: Bool

    /// A counter of records' `text` with `tokenizer`, fitting them into `budget`.
    package init(
        tokenizer: Tokenizer, special: SpecialTokenPolicy, estimate: TokenEstimate?, budget: TokenBudget,
        text: RecordTextSource, id: RecordFieldPath?, listIDs: Bool = false
    ) {
        self.tokenizer = tokenizer
        self.special = special
        self.estimate = estimate
        self.budget = budget
        self.text = text
        self.id = id
        self.listIDs = listIDs
    }

    /// The result for `line`, whose bytes are `bytes[line.range]`.
    package func count(_ line: JSONLLine, in bytes: UnsafeBufferPointer<UInt8>, maxLineBytes: Int) -> RecordResult {
        if let skipped = line.skippedBytes {
            return RecordResult(
                line: line.number, id: nil,
                outcome: .failure(
                    RecordError(
                        "the line is \(NumberFormat.grouped(skipped)) bytes, over the limit of \(NumberFormat.grouped(maxLineBytes)) "
                            + "(at byte offset \(NumberFormat.grouped(line.byteOffset))); it was skipped. Raise --max-record-bytes to count it")))
        }
        let record: OrderedJSON
        do {
            record = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[line.range]))
        } catch {
            return RecordResult(
                line: line.number, id: nil,
                outcome: .failure(
                    RecordError(
                        "not JSON: column \(error.column) (byte offset \(NumberFormat.grouped(line.byteOffset + error.byteOffset))): \(error.reason)")))
        }
        guard case .object = record else {
            return RecordResult(line: line.number, id: nil, outcome: .failure(RecordError("the line is \(record.kindName), not a JSON object")))
        }
        let recordID = id?.value(in: record)
        return RecordResult(line: line.number, id: recordID, outcome: text.text(in: record).flatMap(count))
    }

    /// The count of `text` alone.
    package func count(_ text: String) -> Result<RecordResult.Count, RecordError> {
        var text = text
        return text.withUTF8 { utf8 in
            do {
                let (proxy, _) = try tokenizer.count(utf8: utf8, allowedSpecial: special)
                let stats = TextStats(scanning: utf8)
                let tokens = estimate?.tokens(proxyTokens: proxy, cjkCharacters: stats.cjkCharacters) ?? proxy
                let ids = listIDs ? try tokenizer.tokens(utf8: utf8, allowedSpecial: special).map(\.id) : nil
                return .success(
                    RecordResult.Count(
                        tokens: tokens, characters: stats.characters, bytes: stats.bytes,
                        fits: FitReport(textTokens: tokens, budget: budget).fits, ids: ids))
            } catch {
                return .failure(RecordError("\(error)"))
            }
        }
    }
}

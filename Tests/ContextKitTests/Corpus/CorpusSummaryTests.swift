@testable import ContextKit
import ContextKitJSON
import Foundation
import Testing

@Suite struct CorpusSummaryTests {
    let settings = CorpusSummary.Settings(profile: "gpt-4o", tokenizer: "o200k_base", estimated: false, available: 100)

    func summary(_ lengths: ArraySlice<(String, Int)>) -> CorpusSummary {
        var s = CorpusSummary(settings: settings)
        for (id, tokens) in lengths { s.add(tokens: tokens, characters: tokens * 3, bytes: tokens * 4, fits: tokens <= 100, id: .string(id)) }
        return s
    }

    @Test func histogramBucketsHaveFixedEdges() {
        #expect(TokenHistogram.edges.prefix(5) == [0, 1, 2, 4, 8])
        #expect(TokenHistogram.edges.last == 1 << 20)
        for tokens in [0, 1, 2, 3, 4, 1000, (1 << 20) - 1, 1 << 20, 1 << 30] {
            let b = TokenHistogram.bucket(of: tokens)
            #expect(TokenHistogram.edges[b] <= tokens)
            #expect(b == TokenHistogram.edges.count - 1 || tokens < TokenHistogram.edges[b + 1])
        }
    }

    /// Split N ways, in any order, merged: the same summary as one pass,
    /// ties among the longest included (many records of equal length).
    @Test(arguments: [1, 2, 3, 7, 50])
    func mergedPartsEqualTheWhole(parts: Int) throws {
        var rng = SystemRandomNumberGenerator()
        let records = (0..<500).map { ("r\($0)", [5, 17, 17, 300, 40_000][$0 % 5] + ($0 % 7 == 0 ? 1 : 0)) }
        let whole = summary(records[...])
        let size = (records.count + parts - 1) / parts
        var pieces = stride(from: 0, to: records.count, by: size).map { summary(records[$0..<min($0 + size, records.count)]) }
        pieces.shuffle(using: &rng)
        var merged = pieces[0]
        for piece in pieces.dropFirst() {
            // Through the summary line, as tokcount --merge reads it.
            let line = JSONWriter(style: .compact(escapingSlashes: false)).write(piece.json)
            try merged.merge(CorpusSummary(json: JSONParser.parse(line)))
        }
        #expect(merged == whole)
        #expect(merged.records == 500)
        #expect(merged.longest.count == CorpusSummary.longestKept)
        #expect(merged.longest.first?.tokens == 40_001)
    }

    @Test func summariesOfOtherSettingsDoNotMerge() throws {
        var a = CorpusSummary(settings: settings)
        var other = settings
        other.tokenizer = "cl100k_base"
        #expect(throws: CorpusSummaryError.self) { try a.merge(CorpusSummary(settings: other)) }
    }

    @Test func aLineThatIsNoSummaryIsRefusedSayingWhy() throws {
        let good = JSONWriter(style: .compact(escapingSlashes: false)).write(summary([("a", 3)][...]).json)
        #expect(throws: CorpusSummaryError.self) { try CorpusSummary(json: JSONParser.parse("{\"records\":1}")) }
        let negative = good.replacingOccurrences(of: "\"records\":1", with: "\"records\":-1")
        do {
            _ = try CorpusSummary(json: JSONParser.parse(negative))
            Issue.record("a negative count was read")
        } catch let error as CorpusSummaryError {
            #expect(error.message.contains("\"records\""))
        }
        let otherEdges = good.replacingOccurrences(of: "\"edges\":[0,1,2,", with: "\"edges\":[0,1,3,")
        #expect(throws: CorpusSummaryError.self) { try CorpusSummary(json: JSONParser.parse(otherEdges)) }
    }
}

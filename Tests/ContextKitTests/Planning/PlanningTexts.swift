@testable import ContextKit
import TokenKit

/// Random documents for the planner's property tests: prose in many scripts,
/// Markdown structure, long words, emoji sequences, combining marks, CRLF
/// and, on request, invalid UTF-8. Seeded, so a failure can be replayed.
struct PlanningTexts {
    static let words: [[String]] = [
        ["the", "lighthouse", "keeper", "wound", "clockwork", "every", "night", "and", "sailors", "compared", "flashes"],
        ["Straße", "über", "Fähre", "Leuchtturm", "schön", "größer", "Möwe"],
        ["маяк", "свет", "паром", "ночью", "берег", "Смотритель"],
        ["φάρος", "φως", "θάλασσα", "Νύχτα", "πλοίο"],
        ["المنارة", "الضوء", "البحر", "ليلا", "السفينة"],
        ["מגדלור", "אור", "ים", "לילה"],
        ["प्रकाशस्तंभ", "रोशनी", "समुद्र", "रात", "क्षत्रिय"],
        ["ประภาคาร", "แสงสว่าง", "ทะเล", "กลางคืน"],
        ["灯塔", "光线", "海上", "夜晚", "渡船"],
        ["灯台の", "光が", "海を", "照らす"],
        ["등대", "불빛", "바다", "밤에"],
        ["ngọn", "hải", "đăng", "ánh", "sáng"],
        ["e\u{0301}te\u{0301}", "n\u{0303}o", "a\u{0308}\u{0304}"],
        ["👨‍👩‍👧‍👦", "🇫🇷🇯🇵", "👍🏽", "❤️", "🏳️‍🌈", "1️⃣"],
        ["Pneumonoultramicroscopicsilicovolcanoconiosis" + String(repeating: "x", count: 60)]
    ]
    static let terminators = [". ", "! ", "? ", "… ", "。", "！", "？", "। ", "؟ ", ".\" ", "?» "]

    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    mutating func sentence() -> String {
        let script = Self.words[below(Self.words.count)]
        let spaced =
            !(script.first?.unicodeScalars.first.map { (0x0E00...0x0E7F).contains($0.value) || (0x4E00...0x9FFF).contains($0.value) || (0x3040...0x30FF).contains($0.value) }
            ?? false)
        var out = ""
        for k in 0..<(1 + below(14)) {
            if k > 0 && spaced { out += below(9) == 0 ? "  " : (below(15) == 0 ? "\t" : " ") }
            out += script[below(script.count)]
        }
        return out + Self.terminators[below(Self.terminators.count)]
    }

    mutating func paragraph() -> String {
        var out = ""
        for _ in 0..<(1 + below(6)) {
            out += sentence()
            if below(8) == 0 { out += below(2) == 0 ? "\n" : "\r\n" }
        }
        return out
    }

    /// A document of about `paragraphs` paragraphs.
    mutating func document(paragraphs: Int) -> String {
        var out = ""
        var inFence = false
        for _ in 0..<paragraphs {
            switch below(12) {
            case 0: out += String(repeating: "#", count: 1 + below(6)) + " " + sentence() + "\n\n"
            case 1: out += sentence() + "\n" + (below(2) == 0 ? "====" : "----") + "\n\n"
            case 2: out += inFence ? "```\n" : "```swift\n# not a heading\n"; inFence.toggle()
            case 3: out += "- " + sentence() + "\n- " + sentence() + "\n\n"
            case 4: out += String(repeating: Self.words[14][0], count: 1 + below(4)) + "\n"
            default: out += paragraph() + (below(3) == 0 ? "\n" : "\n\n")
            }
        }
        return out
    }

    /// Bytes with some invalid UTF-8 spliced in at random places.
    mutating func corrupted(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        let junk: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xE3, 0x81], [0x80, 0x80], [0xED, 0xA0, 0x80]]
        for _ in 0..<(1 + below(5)) where !bytes.isEmpty {
            var at = below(bytes.count)
            while at < bytes.count && bytes[at] & 0xC0 == 0x80 { at += 1 }
            bytes.insert(contentsOf: junk[below(junk.count)], at: at)
        }
        return bytes
    }

    /// Every grapheme cluster boundary of `bytes`, by scanning the whole text
    /// from its start with the build's Unicode source (independent of the
    /// planner's windowed scan and its anchors); invalid bytes stand alone.
    static func graphemeBoundaries(_ bytes: [UInt8]) -> Set<Int> {
        var result: Set<Int> = [0, bytes.count]
        bytes.withUnsafeBufferPointer { buffer in
            guard let t = buffer.baseAddress else { return }
            UnicodeData.forEachGraphemeBoundary(in: t, count: buffer.count, after: 0, through: buffer.count) {
                result.insert($0)
                return true
            }
        }
        return result
    }
}

import Testing
import Render

@Suite("Text wrap")
struct TextWrapTests {
    @Test("words fill a line up to the width")
    func fills() {
        #expect(TextWrap.lines("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
    }

    @Test("a word longer than the width gets a line of its own")
    func longWord() {
        #expect(TextWrap.lines("a abcdefgh b", width: 4) == ["a", "abcdefgh", "b"])
    }

    @Test("runs of spaces do not make empty words")
    func spaces() {
        #expect(TextWrap.lines("a   b", width: 10) == ["a b"])
    }

    @Test("no words give no lines")
    func empty() {
        #expect(TextWrap.lines("   ", width: 10).isEmpty)
    }
}

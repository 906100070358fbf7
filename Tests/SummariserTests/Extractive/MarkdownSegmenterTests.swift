import Foundation
import Testing
@testable import Summariser

@Suite struct MarkdownSegmenterTests {
    func blocks(_ text: String) -> [TextBlock] { MarkdownSegmenter(text).blocks }
    func texts(_ text: String) -> [String] { blocks(text).map(\.text) }

    @Test func hardWrappedParagraphsAreReflowedIntoOneLine() {
        let text = "The reader emits a line event for every\nline it finds,   and then\n  closes.\n\nA second paragraph.\n"
        #expect(
            blocks(text) == [
                TextBlock(kind: .paragraph, text: "The reader emits a line event for every line it finds, and then closes.", line: 1, isOneLine: false),
                TextBlock(kind: .paragraph, text: "A second paragraph.", line: 5, isOneLine: true)
            ])
    }

    @Test func cjkLinesAreJoinedWithoutASpace() {
        #expect(texts("雨はやんでいたが、\n木の板はまだ黒かった。\n") == ["雨はやんでいたが、木の板はまだ黒かった。"])
    }

    @Test func codeBlocksNeverReachTheProse() {
        let text = """
            Before the code.

            ```js
            const a = 1; // A sentence in code.
            ```

            ~~~~
            ``` not a closing fence of this block
            ~~~~

                indented code. It reads like a sentence.

            - An item with code:

              ```sh
              $ run it now.
              ```

                  indented code inside an item. Still code.

              A second paragraph of the item.

            After the code.
            """
        #expect(blocks(text).map(\.kind) == [.paragraph, .listItem, .listItem, .paragraph])
        #expect(texts(text) == ["Before the code.", "An item with code:", "A second paragraph of the item.", "After the code."])
    }

    @Test func indentedTextContinuingAParagraphIsNotCode() {
        #expect(texts("A paragraph that goes on\n        with an indented line.\n") == ["A paragraph that goes on with an indented line."])
    }

    @Test func tablesHTMLAndLinkReferencesAreLeftOut() {
        let text = """
            | Option | Default |
            | --- | --- |
            | `input` | none |

            Option | Default
            --- | ---
            a | b

            <table>
              <tr><td>Delete line right</td></tr>
            </table>

            <!-- YAML
            added: v2.1.0
            -->

            <pre>
            a preformatted line.

            and another.
            </pre>

            <details>

            Prose inside details is Markdown again.

            [EventEmitter]: events.md#class-eventemitter
            [`fs.open()`]: fs.md#fsopen "the open call"

            Press <kbd>Ctrl</kbd> to stop.
            """
        #expect(texts(text) == ["Prose inside details is Markdown again.", "Press <kbd>Ctrl</kbd> to stop."])
    }

    @Test func frontMatterIsLeftOutAndItsTitleKept() {
        let yaml = MarkdownSegmenter("---\ntitle: \"A post: with a colon\"\ntags: [a]\n---\n\nThe body.\n")
        #expect(yaml.frontMatterTitle == "A post: with a colon")
        #expect(yaml.blocks.map(\.text) == ["The body."])
        let toml = MarkdownSegmenter("+++\ntitle = 'Notes'\n+++\nThe body.\n")
        #expect(toml.frontMatterTitle == "Notes")
        #expect(toml.blocks.map(\.text) == ["The body."])
        // A thematic break that never closes is not front matter.
        let unclosed = MarkdownSegmenter("---\nThe body.\n")
        #expect(unclosed.frontMatterTitle == nil)
        #expect(unclosed.blocks.map(\.text) == ["The body."])
    }

    @Test func headingsListsAndQuotesLoseTheirMarks() {
        let text = """
            Title line
            ==========

            ## `createReader(options)` ##

            * `options` {Object}
              * `input` {stream.Readable} The stream to read
                lines from.
            1. First step,
            continued lazily.
            2) [x] A done task.

            > [!WARNING]
            > A restore replaces the live
            > database.

            ***

            Section
            ---
            """
        #expect(blocks(text).map(\.kind) == [.heading(1), .heading(2), .listItem, .listItem, .listItem, .listItem, .quote, .heading(2)])
        #expect(
            texts(text) == [
                "Title line", "`createReader(options)`", "`options` {Object}", "`input` {stream.Readable} The stream to read lines from.",
                "First step, continued lazily.", "A done task.", "A restore replaces the live database.", "Section"
            ])
    }

    @Test func aChunkThatStartsInsideACodeBlockSkipsToItsEnd() {
        let chunk = "  return words;\n}\n```\n\nPerformance is not the same.\n\n```js\nx()\n```\n"
        #expect(texts(chunk) == ["Performance is not the same."])
        let comment = "changes: none\n-->\n\nThe method stops the reader.\n"
        #expect(texts(comment) == ["The method stops the reader."])
    }

    @Test func sentencesAreSplitWithThePlannersRuleAndKnownAbbreviations() {
        #expect(
            SentenceSplitter.sentences(in: "It reads lines (e.g. From a file). It stops. Then `close()` runs!") == [
                "It reads lines (e.g. From a file).", "It stops.", "Then `close()` runs!"
            ])
        #expect(SentenceSplitter.sentences(in: "雨がやんだ。板は黒かった。") == ["雨がやんだ。", "板は黒かった。"])
    }

    @Test func headlinesAreShownWithoutInlineMarkup() {
        #expect(InlineMarkdown.plain("Class: `LineReader` and [**links**](a.md) {#anchor}") == "Class: LineReader and links")
        #expect(InlineMarkdown.plain("snake_case stays, _emphasis_ goes") == "snake_case stays, emphasis goes")
    }
}

import Testing
import Render

@Suite("Markdown table")
struct MarkdownTableTests {
    @Test("Markdown tables pad columns and escape pipes")
    func markdown() {
        var table = MarkdownTable(header: ["name", "n"], alignments: [.left, .right])
        table.append(["a|b", "7"])
        table.append(["longer", "1,024"])
        #expect(
            table.render() == """
                | name   |     n |
                |:-------|------:|
                | a\\|b   |     7 |
                | longer | 1,024 |

                """)
    }
}

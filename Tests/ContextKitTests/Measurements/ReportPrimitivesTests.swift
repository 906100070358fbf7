import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ContextKit

@Suite("Report primitives")
struct ReportPrimitivesTests {
    @Test("numbers are rounded half away from zero, padded and grouped")
    func numbers() {
        #expect(ReportNumber.decimal(3.75, places: 2) == "3.75")
        #expect(ReportNumber.decimal(3.745, places: 1) == "3.7")
        #expect(ReportNumber.decimal(0.125, places: 2) == "0.13")
        #expect(ReportNumber.decimal(2, places: 3) == "2.000")
        #expect(ReportNumber.decimal(-0.04, places: 1) == "0.0")
        #expect(ReportNumber.decimal(-1.5, places: 0) == "-2")
        #expect(ReportNumber.decimal(12345.5, places: 1, grouped: true) == "12,345.5")
        #expect(ReportNumber.decimal(.nan, places: 2) == "-")
        #expect(ReportNumber.grouped(4096) == "4,096")
        #expect(ReportNumber.grouped(-1234567) == "-1,234,567")
        #expect(ReportNumber.grouped(999) == "999")
    }

    @Test("CSV quotes only fields that need it")
    func csv() {
        var csv = CSVWriter(header: ["a", "b"])
        csv.append(["plain", "has, comma"])
        csv.append(["say \"hi\"", "two\nlines"])
        #expect(csv.render() == "a,b\nplain,\"has, comma\"\n\"say \"\"hi\"\"\",\"two\nlines\"\n")
    }

    @Test("Markdown tables pad columns and escape pipes")
    func markdown() {
        var table = MarkdownTable(header: ["name", "n"], alignments: [.left, .right])
        table.append(["a|b", "7"])
        table.append(["longer", "1,024"])
        #expect(table.render() == """
        | name   |     n |
        |:-------|------:|
        | a\\|b   |     7 |
        | longer | 1,024 |

        """)
    }

    static func sampleChart(kind: SVGChart.Kind) -> SVGChart {
        SVGChart(kind: kind, title: "Tokens & <things>", subtitle: "A subtitle long enough to be wrapped onto a second line when the chart is narrow, which it is here because there are few categories.",
                 categories: ["en", "ja", "zh-Hans"],
                 series: [.init(name: "o200k", values: [1, 1.7, nil]), .init(name: "cl100k", values: [1, 2.21, 1.85], dashed: true)],
                 xTitle: "language", yTitle: "tax", referenceLines: [.init(value: 2, label: "limit")])
    }

    @Test("charts are well-formed XML, escape text and are the same bytes every time", arguments: [SVGChart.Kind.groupedBars, .lines])
    func chart(kind: SVGChart.Kind) throws {
        let svg = Self.sampleChart(kind: kind).render()
        #expect(svg == Self.sampleChart(kind: kind).render())
        #expect(svg.hasPrefix("<svg ") && svg.contains(" xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("Tokens &amp; &lt;things&gt;"))
        #expect(!svg.contains("<things>"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        // A missing value draws nothing; the legend lists both series and the reference line.
        #expect(svg.contains(">o200k</text>") && svg.contains(">cl100k</text>") && svg.contains(">limit</text>"))
        if kind == .groupedBars {
            #expect(svg.components(separatedBy: "<rect height=").count - 1 == 5)
        } else {
            #expect(svg.components(separatedBy: "<circle").count - 1 == 5)
            #expect(svg.contains("fill=\"#FFFFFF\" r=\"3.5\""))  // 2.21 is past the limit: hollow
        }
    }

    @Test("the y axis ends on a round number above the data")
    func axis() {
        let scale = SVGChart.AxisScale(maximum: 8.28)
        #expect(scale.top == 10 && scale.step == 2 && scale.places == 0)
        let tokens = SVGChart.AxisScale(maximum: 10272)
        #expect(tokens.top == 12000 && tokens.step == 2000)
        let small = SVGChart.AxisScale(maximum: 0.37)
        #expect(small.top == 0.4 && small.step == 0.05 && small.places == 2)
        let exact = SVGChart.AxisScale(maximum: 4)
        #expect(exact.top > 4)
    }
}

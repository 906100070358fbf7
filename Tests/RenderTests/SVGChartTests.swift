import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
@testable import Render

@Suite("SVG chart")
struct SVGChartTests {
    static func sampleChart(kind: SVGChart.Kind) -> SVGChart {
        SVGChart(
            kind: kind, title: "Tokens & <things>",
            subtitle: "A subtitle long enough to be wrapped onto a second line when the chart is narrow, which it is here because there are few categories.",
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

    @Test("a subtitle wraps at the estimated characters per line, never below 20")
    func subtitleWrap() {
        #expect(SVGChart.wrap("one two three four five six", width: 66) == ["one two three four", "five six"])
    }
}

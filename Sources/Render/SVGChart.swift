import Foundation

/// A small chart written as plain SVG: grouped bars or lines, with axes,
/// labels, a legend and optional dashed reference lines (a context window).
///
/// Written by hand rather than by a plotting library so the reports need no
/// dependency and come out byte-identical on every run: every coordinate is
/// rounded to one decimal by `NumberFormat`, and nothing depends on the
/// machine (fonts are named, never measured; text widths are estimated).
package struct SVGChart: Sendable {
    package enum Kind: Sendable {
        /// One group of bars per category, one bar per series.
        case groupedBars
        /// One point per category, joined by a line per series.
        case lines
    }

    package struct Series: Sendable {
        package var name: String
        /// One value per category; nil leaves a gap.
        package var values: [Double?]
        /// Index into the palette; by default the series' position.
        package var colorIndex: Int?
        /// Lines only: draw dashed (to pair a variant with its series).
        package var dashed: Bool

        package init(name: String, values: [Double?], colorIndex: Int? = nil, dashed: Bool = false) {
            self.name = name
            self.values = values
            self.colorIndex = colorIndex
            self.dashed = dashed
        }
    }

    /// A horizontal line across the plot at `value`, labelled at its right end.
    package struct ReferenceLine: Sendable {
        package var value: Double
        package var label: String

        package init(value: Double, label: String) {
            self.value = value
            self.label = label
        }
    }

    package var kind: Kind
    package var title: String
    package var subtitle: String
    /// The x-axis labels; a `\n` breaks a label into lines.
    package var categories: [String]
    package var series: [Series]
    package var xTitle: String
    package var yTitle: String
    package var referenceLines: [ReferenceLine]
    /// Decimals of the values in tooltips.
    package var valuePlaces: Int

    package init(
        kind: Kind, title: String, subtitle: String = "", categories: [String], series: [Series],
        xTitle: String, yTitle: String, referenceLines: [ReferenceLine] = [], valuePlaces: Int = 2
    ) {
        self.kind = kind
        self.title = title
        self.subtitle = subtitle
        self.categories = categories
        self.series = series
        self.xTitle = xTitle
        self.yTitle = yTitle
        self.referenceLines = referenceLines
        self.valuePlaces = valuePlaces
    }

    /// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
    static let referenceColor = "#C00000"
    static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F", "#000000"]

    // Layout, in pixels.
    static let fontSize = 12.0
    static let characterWidth = 6.6  // estimated average advance of a 12 px sans-serif character
    static let lineHeight = 14.0
    static let plotHeight = 320.0
    static let marginLeft = 76.0
    static let marginRight = 28.0

    package func render() -> String {
        let layout = Layout(chart: self)
        var svg = SVGText()
        svg.open(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg", "width": n(layout.width), "height": n(layout.height),
                "viewBox": "0 0 \(n(layout.width)) \(n(layout.height))", "font-family": "Helvetica, Arial, sans-serif",
                "font-size": n(Self.fontSize)
            ])
        svg.element("title", text: title)
        if !subtitle.isEmpty { svg.element("desc", text: subtitle) }
        svg.element("rect", ["width": n(layout.width), "height": n(layout.height), "fill": "#FFFFFF"])
        svg.element("text", ["x": n(Self.marginLeft), "y": "22", "font-size": "16", "font-weight": "bold"], text: title)
        for (i, line) in layout.subtitleLines.enumerated() {
            svg.element("text", ["x": n(Self.marginLeft), "y": n(40 + Double(i) * Self.lineHeight), "fill": "#444444"], text: line)
        }
        drawLegend(&svg, layout)
        drawAxes(&svg, layout)
        switch kind {
        case .groupedBars: drawBars(&svg, layout)
        case .lines: drawLines(&svg, layout)
        }
        drawReferenceLines(&svg, layout)
        svg.close("svg")
        return svg.text
    }

    // MARK: Layout

    struct Layout {
        var width: Double
        var height: Double
        var plotLeft: Double
        var plotTop: Double
        var plotWidth: Double
        var plotHeight: Double
        var subtitleLines: [String]
        var legendTop: Double
        /// Legend items: (series index, or nil for a reference line, x, row).
        var legend: [(Int?, Double, Int)]
        var scale: AxisScale
        var labelLines: Int

        var plotBottom: Double { plotTop + plotHeight }

        init(chart: SVGChart) {
            let seriesCount = max(chart.series.count, 1)
            let categoryCount = max(chart.categories.count, 1)
            let plotWidth: Double
            switch chart.kind {
            case .groupedBars:
                let bar = SVGChart.barWidth(series: seriesCount, categories: categoryCount)
                let longestLabel = chart.categories.flatMap { $0.split(separator: "\n") }.map(\.count).max() ?? 0
                let group = max(bar * Double(seriesCount) + 12, Double(longestLabel) * SVGChart.characterWidth + 8)
                plotWidth = max(560, group * Double(categoryCount))
            case .lines:
                plotWidth = 720
            }
            width = SVGChart.marginLeft + plotWidth + SVGChart.marginRight
            self.plotWidth = plotWidth
            // Title and subtitle, then the legend rows: the series, then the reference lines.
            subtitleLines = SVGChart.wrap(chart.subtitle, width: width - SVGChart.marginLeft - SVGChart.marginRight)
            legendTop = 40 + Double(subtitleLines.count) * SVGChart.lineHeight + 4
            var items: [(Int?, Double, Int)] = []
            var x = SVGChart.marginLeft
            var row = 0
            let entries: [(Int?, String)] = chart.series.enumerated().map { ($0, $1.name) } + chart.referenceLines.map { (nil, $0.label) }
            for (i, name) in entries {
                let itemWidth = 26 + Double(name.count) * SVGChart.characterWidth + 18
                if x + itemWidth > width - SVGChart.marginRight && x > SVGChart.marginLeft {
                    row += 1
                    x = SVGChart.marginLeft
                }
                items.append((i, x, row))
                x += itemWidth
            }
            legend = items
            plotTop = legendTop + Double(row + 1) * 18 + 16
            plotLeft = SVGChart.marginLeft
            plotHeight = SVGChart.plotHeight
            labelLines = chart.categories.map { $0.split(separator: "\n").count }.max() ?? 1
            height = plotTop + plotHeight + 10 + Double(labelLines) * SVGChart.lineHeight + 30
            let values = chart.series.flatMap { $0.values.compactMap { $0 } } + chart.referenceLines.map(\.value)
            scale = AxisScale(maximum: values.max() ?? 1)
        }

        func y(_ value: Double) -> Double { plotBottom - value / scale.top * plotHeight }

        /// Centre of category `i` (bars: the group's centre; lines: the point).
        func x(category i: Int, of count: Int, kind: Kind) -> Double {
            switch kind {
            case .groupedBars:
                let band = plotWidth / Double(max(count, 1))
                return plotLeft + band * (Double(i) + 0.5)
            case .lines:
                guard count > 1 else { return plotLeft + plotWidth / 2 }
                let inset = 16.0
                return plotLeft + inset + (plotWidth - 2 * inset) * Double(i) / Double(count - 1)
            }
        }
    }

    /// A y axis from zero to a round number, with 4 to 8 round ticks.
    struct AxisScale {
        var step: Double
        var top: Double
        var places: Int

        init(maximum: Double) {
            let maximum = maximum > 0 ? maximum : 1
            var magnitude = 1.0
            while magnitude * 10 <= maximum { magnitude *= 10 }
            while magnitude > maximum { magnitude /= 10 }
            var step = magnitude
            for factor in [0.1, 0.2, 0.25, 0.5, 1, 2, 5] where maximum / (magnitude * factor) <= 8 {
                step = magnitude * factor
                break
            }
            self.step = step
            top = (maximum / step).rounded(.up) * step
            if top == maximum { top += step }
            var places = 0
            var unit = 1.0
            while step.truncatingRemainder(dividingBy: unit) > unit / 1000 && places < 4 {
                places += 1
                unit /= 10
            }
            self.places = places
        }

        var ticks: [Double] {
            let count = Int((top / step).rounded())
            return (0...count).map { Double($0) * step }
        }
    }

    // MARK: Drawing

    private func color(_ index: Int) -> String {
        let series = series[index]
        return Self.palette[(series.colorIndex ?? index) % Self.palette.count]
    }

    private func drawLegend(_ svg: inout SVGText, _ layout: Layout) {
        svg.open("g", ["font-size": n(Self.fontSize)])
        var references = referenceLines.makeIterator()
        for (index, x, row) in layout.legend {
            let y = layout.legendTop + Double(row) * 18
            guard let index else {
                let line = references.next()!
                svg.element("line", ["x1": n(x), "y1": n(y - 4), "x2": n(x + 20), "y2": n(y - 4), "stroke": Self.referenceColor, "stroke-width": "1.5", "stroke-dasharray": "8 4"])
                svg.element("text", ["x": n(x + 26), "y": n(y)], text: line.label)
                continue
            }
            switch kind {
            case .groupedBars:
                svg.element("rect", ["x": n(x), "y": n(y - 10), "width": "14", "height": "12", "fill": color(index)])
            case .lines:
                var attributes = ["x1": n(x), "y1": n(y - 4), "x2": n(x + 20), "y2": n(y - 4), "stroke": color(index), "stroke-width": "2.5"]
                if series[index].dashed { attributes["stroke-dasharray"] = "6 3" }
                svg.element("line", attributes)
            }
            svg.element("text", ["x": n(x + 26), "y": n(y)], text: series[index].name)
        }
        svg.close("g")
    }

    private func drawAxes(_ svg: inout SVGText, _ layout: Layout) {
        let left = layout.plotLeft, right = layout.plotLeft + layout.plotWidth
        svg.open("g", ["fill": "#333333"])
        for tick in layout.scale.ticks {
            let y = layout.y(tick)
            svg.element("line", ["x1": n(left), "y1": n(y), "x2": n(right), "y2": n(y), "stroke": tick == 0 ? "#333333" : "#E3E3E3", "stroke-width": "1"])
            svg.element("text", ["x": n(left - 8), "y": n(y + 4), "text-anchor": "end"], text: NumberFormat.decimal(tick, places: layout.scale.places, grouped: true))
        }
        svg.element("line", ["x1": n(left), "y1": n(layout.plotTop), "x2": n(left), "y2": n(layout.plotBottom), "stroke": "#333333", "stroke-width": "1"])
        let labelEvery = kind == .lines ? max(1, Int((Double(categories.count) / 24).rounded(.up))) : 1
        for (i, label) in categories.enumerated() where i % labelEvery == 0 || i == categories.count - 1 {
            let x = layout.x(category: i, of: categories.count, kind: kind)
            svg.element("line", ["x1": n(x), "y1": n(layout.plotBottom), "x2": n(x), "y2": n(layout.plotBottom + 4), "stroke": "#333333"])
            let lines = label.split(separator: "\n").map(String.init)
            for (k, line) in lines.enumerated() {
                svg.element("text", ["x": n(x), "y": n(layout.plotBottom + 18 + Double(k) * Self.lineHeight), "text-anchor": "middle"], text: line)
            }
        }
        let xTitleY = layout.plotBottom + 10 + Double(layout.labelLines) * Self.lineHeight + 20
        svg.element("text", ["x": n(left + layout.plotWidth / 2), "y": n(xTitleY), "text-anchor": "middle", "font-weight": "bold"], text: xTitle)
        let yMid = layout.plotTop + layout.plotHeight / 2
        svg.element("text", ["x": "18", "y": n(yMid), "text-anchor": "middle", "font-weight": "bold", "transform": "rotate(-90 18 \(n(yMid)))"], text: yTitle)
        svg.close("g")
    }

    private func drawBars(_ svg: inout SVGText, _ layout: Layout) {
        let bar = Self.barWidth(series: max(series.count, 1), categories: max(categories.count, 1))
        for (s, item) in series.enumerated() {
            svg.open("g", ["fill": color(s)])
            for (i, value) in item.values.enumerated() {
                guard let value, i < categories.count else { continue }
                let groupLeft = layout.x(category: i, of: categories.count, kind: .groupedBars) - bar * Double(series.count) / 2
                let top = layout.y(value)
                svg.open("rect", ["x": n(groupLeft + bar * Double(s)), "y": n(top), "width": n(bar), "height": n(layout.plotBottom - top)])
                svg.element("title", text: "\(categories[i].replacingOccurrences(of: "\n", with: " ")), \(item.name): \(NumberFormat.decimal(value, places: valuePlaces))")
                svg.close("rect")
            }
            svg.close("g")
        }
    }

    private func drawLines(_ svg: inout SVGText, _ layout: Layout) {
        for (s, item) in series.enumerated() {
            let points = item.values.enumerated().map { i, value in
                value.map { (layout.x(category: i, of: categories.count, kind: .lines), layout.y($0), $0, i) }
            }
            // One polyline per unbroken run of values.
            var run: [String] = []
            func flush() {
                if run.count > 1 {
                    var attributes = ["points": run.joined(separator: " "), "fill": "none", "stroke": color(s), "stroke-width": "2.5", "stroke-linejoin": "round"]
                    if item.dashed { attributes["stroke-dasharray"] = "6 3" }
                    svg.element("polyline", attributes)
                }
                run = []
            }
            for point in points {
                guard let (x, y, _, _) = point else { flush(); continue }
                run.append("\(n(x)),\(n(y))")
            }
            flush()
            let limit = referenceLines.map(\.value).max() ?? .infinity
            svg.open("g", ["fill": color(s), "stroke": color(s)])
            for case let (x, y, value, i)? in points {
                // Hollow past the limit: the request no longer fits.
                svg.open("circle", ["cx": n(x), "cy": n(y), "r": "3.5", "fill": value > limit ? "#FFFFFF" : color(s), "stroke-width": "1.5"])
                svg.element("title", text: "\(xTitle) \(categories[i]), \(item.name): \(NumberFormat.decimal(value, places: valuePlaces, grouped: true))")
                svg.close("circle")
            }
            svg.close("g")
        }
    }

    private func drawReferenceLines(_ svg: inout SVGText, _ layout: Layout) {
        for line in referenceLines {
            let y = layout.y(line.value)
            let right = layout.plotLeft + layout.plotWidth
            svg.element("line", ["x1": n(layout.plotLeft), "y1": n(y), "x2": n(right), "y2": n(y), "stroke": Self.referenceColor, "stroke-width": "1.5", "stroke-dasharray": "8 4"])
        }
    }

    /// Bars narrow as groups multiply, so a chart stays about 1,100 px wide.
    static func barWidth(series: Int, categories: Int) -> Double {
        let fitting = (1100 / Double(categories) - 12) / Double(series)
        return max(5, min(18, 96 / Double(series), fitting))
    }

    /// `text` in lines that fit `width` points, at the estimated character width
    /// (at least 20 characters a line, so a narrow chart still reads).
    static func wrap(_ text: String, width: Double) -> [String] {
        TextWrap.lines(text, width: max(20, Int(width / characterWidth)))
    }

    /// A coordinate: one decimal, without a trailing `.0`.
    private func n(_ value: Double) -> String {
        let text = NumberFormat.decimal(value, places: 1)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

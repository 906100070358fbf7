/// A plain-text table: columns padded to their widest cell, numbers right-aligned.
package struct Table {
    package let header: [String]
    package let alignRight: [Bool]
    package var separator = "  "

    package init(header: [String], alignRight: [Bool]) {
        self.header = header
        self.alignRight = alignRight
    }

    /// Renders header and rows; `styles` may decorate a cell after padding
    /// (colour codes must not count towards the width).
    package func render(_ rows: [[String]], style: (_ row: Int, _ column: Int, _ padded: String) -> String = { $2 }) -> String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (c, cell) in row.enumerated() where c < widths.count { widths[c] = max(widths[c], cell.count) }
        }
        var out = ""
        for (r, row) in all.enumerated() {
            var cells: [String] = []
            for (c, cell) in row.enumerated() where c < widths.count {
                let last = c == widths.count - 1
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                let padded = alignRight[c] ? pad + cell : (last ? cell : cell + pad)
                cells.append(r == 0 ? padded : style(r - 1, c, padded))
            }
            out += cells.joined(separator: separator) + "\n"
        }
        return out
    }
}

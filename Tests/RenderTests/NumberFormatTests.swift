import Testing
import Render

@Suite("Number format")
struct NumberFormatTests {
    @Test(
        "decimals are rounded half away from zero and padded",
        arguments: [
            (3.75, 2, "3.75"), (3.745, 1, "3.7"), (0.125, 2, "0.13"), (2, 3, "2.000"), (-0.04, 1, "0.0"), (-1.5, 0, "-2")
        ])
    func decimal(value: Double, places: Int, expected: String) {
        #expect(NumberFormat.decimal(value, places: places) == expected)
    }

    @Test(
        "durations have one format: three significant digits below a minute, then minutes and hours",
        arguments: [
            (0.05, "0.05 s"), (0.3834, "0.383 s"), (1.5, "1.5 s"), (2, "2 s"), (6.483, "6.48 s"), (12.34, "12.3 s"),
            (59.99, "1 min"), (200, "3 min 20 s"), (180, "3 min"), (3600, "1 h"), (3900, "1 h 5 min"), (-1, "-")
        ])
    func duration(seconds: Double, expected: String) {
        #expect(NumberFormat.duration(seconds: seconds) == expected)
    }

    @Test("decimals keep two places unless told")
    func decimalDefault() {
        #expect(NumberFormat.decimal(1.0 / 3) == "0.33")
    }

    @Test("a grouped decimal groups its whole part")
    func groupedDecimal() {
        #expect(NumberFormat.decimal(12345.5, places: 1, grouped: true) == "12,345.5")
    }

    @Test("a value that is not finite is a dash")
    func notFinite() {
        #expect(NumberFormat.decimal(.nan, places: 2) == "-")
    }

    @Test("whole numbers are grouped by thousands", arguments: [(4096, "4,096"), (-1234567, "-1,234,567"), (999, "999")])
    func grouped(value: Int, expected: String) {
        #expect(NumberFormat.grouped(value) == expected)
    }

    @Test("a share above 0 but below 1% shows as <1%")
    func smallPercent() {
        #expect(NumberFormat.percent(1, of: 1000) == "<1%")
    }

    @Test("a share is a whole percentage")
    func percent() {
        #expect(NumberFormat.percent(78, of: 100) == "78%")
    }

    @Test("bytes take a binary unit above 1,023", arguments: [(512, "512 B"), (1536, "1.5 KiB"), (3 * 1024 * 1024, "3.0 MiB")])
    func bytes(count: Int, expected: String) {
        #expect(NumberFormat.bytes(count) == expected)
    }
}

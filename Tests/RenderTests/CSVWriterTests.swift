import Testing
import Render

@Suite("CSV writer")
struct CSVWriterTests {
    @Test("CSV quotes only fields that need it")
    func csv() {
        var csv = CSVWriter(header: ["a", "b"])
        csv.append(["plain", "has, comma"])
        csv.append(["say \"hi\"", "two\nlines"])
        #expect(csv.render() == "a,b\nplain,\"has, comma\"\n\"say \"\"hi\"\"\",\"two\nlines\"\n")
    }
}

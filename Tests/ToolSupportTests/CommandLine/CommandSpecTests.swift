import Testing
import ToolSupport

@Suite("Command line parsing")
struct CommandSpecTests {
    @Test("a long option takes the next argument as its value")
    func longSeparate() throws {
        #expect(try SampleOptions.parse(["--model", "gpt-4o"]).model == "gpt-4o")
    }

    @Test("a long option takes its value after =")
    func longInline() throws {
        #expect(try SampleOptions.parse(["--model=gpt-4o"]).model == "gpt-4o")
    }

    @Test("a short option takes the next argument or the rest of its own")
    func short() throws {
        #expect(try SampleOptions.parse(["-m", "a"]).model == "a")
        #expect(try SampleOptions.parse(["-mb"]).model == "b")
        #expect(try SampleOptions.parse(["-m=c"]).model == "c")
    }

    @Test("short flags group, and the last letter may take a value")
    func grouped() throws {
        let options = try SampleOptions.parse(["-jvm", "x"])
        #expect(options.json)
        #expect(options.verbose)
        #expect(options.model == "x")
    }

    @Test("a later value overrides an earlier one")
    func lastWins() throws {
        #expect(try SampleOptions.parse(["-m", "a", "--model", "b"]).model == "b")
    }

    @Test("a repeatable option keeps every value in order")
    func repeated() throws {
        #expect(try SampleOptions.parse(["-p", "a", "--profiles=b", "-pc"]).profiles == ["a", "b", "c"])
    }

    @Test("-- ends the options and - is standard input")
    func positionals() throws {
        #expect(try SampleOptions.parse(["a", "-", "--", "--json", "-m"]).positionals == ["a", "-", "--json", "-m"])
    }

    @Test("a flag not given is false")
    func flagDefault() throws {
        #expect(try !SampleOptions.parse(["file"]).json)
    }

    @Test("whole numbers accept separators and k/M suffixes", arguments: [("128,000", 128_000), ("8_192", 8192), ("8k", 8000), ("2M", 2_000_000)])
    func integers(text: String, value: Int) throws {
        #expect(try SampleOptions.parse(["--window", text]).window == value)
    }

    @Test("a whole number below the minimum is refused, naming the option")
    func integerMinimum() {
        #expect(SampleOptions.usageMessage(["--window", "0"]) == "--window wants a whole number of at least 1, not '0'")
    }

    @Test("a number outside its range is refused with the range")
    func numberRange() {
        #expect(SampleOptions.usageMessage(["--rate", "2"]) == "--rate wants a number from 0.00 to 1.00, not '2'")
    }

    @Test("a seed takes the whole unsigned 64-bit range")
    func unsigned() throws {
        #expect(try SampleOptions.parse(["--seed", "18446744073709551615"]).seed == UInt64.max)
    }

    @Test("a choice is read into its case")
    func choice() throws {
        #expect(try SampleOptions.parse(["--mode", "exact"]).mode == .exact)
    }

    @Test("a value outside the choices is refused with the choices")
    func choiceRefused() {
        #expect(SampleOptions.usageMessage(["--mode", "slow"]) == "--mode must be one of fast, exact, not 'slow'")
    }

    @Test("an unknown long option suggests a near miss")
    func suggestion() {
        #expect(SampleOptions.usageMessage(["--modle", "x"]) == "unknown option '--modle' (did you mean '--model'?)")
    }

    @Test("an unknown short option in a group names the group")
    func unknownShort() {
        #expect(SampleOptions.usageMessage(["-jx"]) == "unknown option '-x' in '-jx'")
    }

    @Test("an option at the end without its value is refused")
    func missingValue() {
        #expect(SampleOptions.usageMessage(["--model"]) == "--model needs a value (PROFILE)")
    }

    @Test("a flag given a value is refused")
    func flagWithValue() {
        #expect(SampleOptions.usageMessage(["--json=yes"]) == "--json takes no value")
    }

    @Test("--help wins over a value its option would refuse")
    func helpFirst() throws {
        guard case .information(let text) = try SampleOptions.spec.parse(["--window", "zero", "--help"]) else {
            Issue.record("--help did not ask for information")
            return
        }
        #expect(text.hasPrefix("Usage: sample [OPTIONS] FILE\n"))
    }

    @Test("--version names the tool and the version")
    func version() throws {
        guard case .information(let text) = try SampleOptions.spec.parse(["--version"]) else {
            Issue.record("--version did not ask for information")
            return
        }
        #expect(text == "sample \(ToolVersion.string) (ContextKit)\n")
    }

    @Test("help lists every declared option, then --help and --version")
    func helpText() {
        #expect(
            SampleOptions.spec.helpText() == """
                Usage: sample [OPTIONS] FILE

                Does a sample thing.

                Options:
                  -m, --model PROFILE    The model.
                      --window N         The window.
                      --rate R           A rate.
                      --seed N           A seed.
                      --mode fast|exact  How to go.
                  -p, --profiles FILE    More profiles (repeatable).
                  -j, --json             Print JSON.
                  -v, --verbose          Say more.
                  -h, --help             Show this help and exit.
                      --version          Show the version and exit.

                Exit status: 0 done.

                """)
    }

    @Test("a usage error points at --help")
    func usageErrorText() {
        #expect(UsageError(tool: "sample", "bad").description == "sample: bad\nTry 'sample --help' for more information.")
    }
}

import ToolSupport

/// A command with one option of every kind, for the parser's tests.
struct SampleOptions: CommandOptions {
    enum Mode: String, CaseIterable { case fast, exact }

    var positionals: [String] = []
    var model: String?
    var window: Int?
    var rate: Double?
    var seed: UInt64?
    var mode: Mode?
    var profiles: [String] = []
    var json = false
    var verbose = false

    static var declarations: [OptionDeclaration<Self>] {
        [
            .option("model", short: "m", value: "PROFILE", help: "The model.", \.model),
            .option("window", value: "N", help: "The window.", \.window, .integer(minimum: 1)),
            .option("rate", value: "R", help: "A rate.", \.rate, .number(in: 0...1)),
            .option("seed", value: "N", help: "A seed.", \.seed, .unsigned),
            .choice("mode", value: "fast|exact", help: "How to go.", \.mode),
            .repeated("profiles", short: "p", value: "FILE", help: "More profiles (repeatable).", \.profiles),
            .flag("json", short: "j", help: "Print JSON.", \.json),
            .flag("verbose", short: "v", help: "Say more.", \.verbose)
        ]
    }

    static let spec = CommandSpec<Self>(name: "sample", usage: ["[OPTIONS] FILE"], summary: "Does a sample thing.", epilog: "Exit status: 0 done.")

    /// The options `arguments` give; fails the test when they ask for information instead.
    static func parse(_ arguments: [String]) throws -> SampleOptions {
        guard case let .run(options) = try spec.parse(arguments) else { throw Unexpected.information }
        return options
    }

    /// The message of the usage error `arguments` give, if they give one.
    static func usageMessage(_ arguments: [String]) -> String? {
        do {
            _ = try spec.parse(arguments)
            return nil
        } catch {
            return (error as? UsageError)?.message
        }
    }

    enum Unexpected: Error { case information }
}

/// One option of a command, declared once: its names, its help, how its
/// text is read, and the field of `Options` it fills.
package struct OptionDeclaration<Options> {
    /// The one-letter form, if any (`e` for `-e`).
    package let short: Character?
    /// The long form without dashes (`encoding`).
    package let long: String
    /// The value's placeholder in help (`NAME|FILE`); `nil` for a flag.
    package let value: String?
    /// The accepted values, when there is a closed set (checked while parsing).
    package let choices: [String]?
    /// The option's line in `--help`.
    package let help: String
    /// The field the option fills, so messages can name the option by its field.
    let field: PartialKeyPath<Options>
    /// Stores the values given (in order; a flag gives one empty value per use),
    /// or returns what the option wants when one of them is not a value.
    let store: (inout Options, [String]) -> (expected: String, text: String)?

    private init(
        _ short: Character?, _ long: String, value: String?, choices: [String]? = nil, help: String,
        field: PartialKeyPath<Options>, store: @escaping (inout Options, [String]) -> (expected: String, text: String)?
    ) {
        self.short = short
        self.long = long
        self.value = value
        self.choices = choices
        self.help = help
        self.field = field
        self.store = store
    }

    /// A flag, `--json`: true when given.
    package static func flag(
        _ long: String, short: Character? = nil, help: String,
        _ field: WritableKeyPath<Options, Bool>
    ) -> Self {
        Self(short, long, value: nil, help: help, field: field) { options, _ in
            options[keyPath: field] = true
            return nil
        }
    }

    /// An option with a text value, `--model NAME`; a later one overrides an earlier one.
    package static func option(
        _ long: String, short: Character? = nil, value: String, help: String,
        _ field: WritableKeyPath<Options, String?>
    ) -> Self {
        option(long, short: short, value: value, help: help, field, .text)
    }

    /// An option whose text `parser` reads, `--window N`; a later one overrides an earlier one.
    package static func option<Value>(
        _ long: String, short: Character? = nil, value: String, help: String,
        _ field: WritableKeyPath<Options, Value?>, _ parser: ValueParser<Value>
    ) -> Self {
        Self(short, long, value: value, help: help, field: field) { options, texts in
            for text in texts {
                guard let parsed = parser.parse(text) else { return (parser.expected, text) }
                options[keyPath: field] = parsed
            }
            return nil
        }
    }

    /// An option that may be given again and again, `--profiles FILE`: every value, in order.
    package static func repeated(
        _ long: String, short: Character? = nil, value: String, help: String,
        _ field: WritableKeyPath<Options, [String]>
    ) -> Self {
        Self(short, long, value: value, help: help, field: field) { options, texts in
            options[keyPath: field] = texts
            return nil
        }
    }

    /// An option with a closed set of values, the cases of `Value` in their order.
    package static func choice<Value: RawRepresentable & CaseIterable>(
        _ long: String, short: Character? = nil, value: String, help: String, _ field: WritableKeyPath<Options, Value?>
    ) -> Self where Value.RawValue == String {
        Self(short, long, value: value, choices: Value.allCases.map(\.rawValue), help: help, field: field) { options, texts in
            options[keyPath: field] = texts.last.flatMap(Value.init(rawValue:))
            return nil
        }
    }
}

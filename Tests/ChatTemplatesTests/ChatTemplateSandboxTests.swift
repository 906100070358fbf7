import Testing
import ChatTemplates

/// The renderer is a sandbox: each hostile template found against the
/// released binaries (issue 44) ends in a `ChatTemplateError` naming the
/// construct, where before it trapped (SIGILL), crashed (SIGSEGV) or took
/// the machine's memory.
@Suite("Chat template sandbox")
struct ChatTemplateSandboxTests {
    /// The message of the error rendering `source` throws (a failed expectation when it renders).
    static func failure(_ source: String, messages: [ChatTemplate.Message] = [], limits: ChatTemplateLimits? = nil) throws -> String {
        let template = try ChatTemplate(source)
        do {
            let text = try template.render(messages: messages, limits: limits)
            Issue.record("rendered \(text.utf8.count) bytes instead of failing")
            return ""
        } catch let error as ChatTemplateError {
            return error.message
        }
    }

    static func rendered(_ source: String) throws -> String { try ChatTemplate(source).render(messages: []) }

    /// The limits for an empty conversation (its 4 values: `messages`,
    /// `add_generation_prompt`, `bos_token`, `eos_token`): the floor.
    static let empty = ChatTemplateLimits.scaled(values: 4, bytes: 0)

    @Test func additionPastTheLargestIntegerIsAnError() throws {
        let message = try Self.failure("{{ 9223372036854775807 + 1 }}")
        #expect(message.hasPrefix("line 1: 9223372036854775807 + 1 overflows: template integers are 64-bit"))
        #expect(message.contains("use another chat template"))
    }

    @Test func anErrorNamesTheLineOfItsTag() throws {
        #expect(try Self.failure("{% for m in messages %}\n{{ m.content }}\n{% endfor %}\n\n{{ 1 // 0 }}").hasPrefix("line 5: 1 // 0 divides by zero"))
        #expect(try Self.failure("{% if true %}\n\n{{ range(1, 2, 0) }}{% endif %}").hasPrefix("line 3: range(1, 2, 0) has a zero step"))
        do {
            _ = try ChatTemplate("{{ 1 }}\n{% macro x() %}{% endmacro %}")
            Issue.record("a macro was accepted")
        } catch let error as ChatTemplateError {
            #expect(error.message == "line 2: the statement {% macro %} is not supported")
        }
    }

    @Test func subtractionPastTheSmallestIntegerIsAnError() throws {
        #expect(try Self.failure("{{ -9223372036854775807 - 2 }}").hasPrefix("line 1: -9223372036854775807 - 2 overflows"))
    }

    @Test func multiplicationPastTheLargestIntegerIsAnError() throws {
        #expect(try Self.failure("{{ 4611686018427387904 * 2 }}").hasPrefix("line 1: 4611686018427387904 * 2 overflows"))
    }

    @Test func negatingTheSmallestIntegerIsAnError() throws {
        #expect(try Self.failure("{{ -(-9223372036854775807 - 1) }}").hasPrefix("line 1: -(-9223372036854775808) overflows"))
    }

    @Test func flooringTheSmallestIntegerByMinusOneIsAnError() throws {
        #expect(try Self.failure("{{ (-9223372036854775807 - 1) // -1 }}").hasPrefix("line 1: -9223372036854775808 // -1 overflows"))
    }

    @Test func theSmallestIntegerModuloMinusOneIsZeroAsInPython() throws {
        #expect(try Self.rendered("{{ (-9223372036854775807 - 1) % -1 }}") == "0")
    }

    @Test func divisionByZeroIsAnErrorAsInPython() throws {
        for source in ["{{ 1 // 0 }}", "{{ 1 % 0 }}", "{{ 1 / 0 }}", "{{ 1.5 / 0 }}"] {
            #expect(try Self.failure(source).contains("divides by zero"), "\(source)")
        }
    }

    @Test func floorDivisionAndModuloFollowPythonSigns() throws {
        #expect(try Self.rendered("{{ -7 // 2 }} {{ -7 % 2 }} {{ 7 % -2 }} {{ 7 // -2 }} {{ 7.5 // 2 }}") == "-4 1 -1 -4 3.0")
    }

    @Test func aZeroRangeStepIsAnError() throws {
        #expect(try Self.failure("{% for i in range(0, 10, 0) %}{% endfor %}").hasPrefix("line 1: range(0, 10, 0) has a zero step"))
    }

    @Test func aZeroSliceStepIsAnError() throws {
        #expect(try Self.failure("{{ 'abc'[::0] }}").contains("has a zero step"))
        #expect(try Self.failure("{{ [1, 2][::0] }}").contains("has a zero step"))
    }

    @Test func extremeStepsPickTheRightItemsWithoutOverflow() throws {
        #expect(try Self.rendered("{{ 'abc'[::9223372036854775807] }}{{ 'abc'[::-9223372036854775807 - 1] }}") == "ac")
        #expect(
            try Self.rendered("{{ range(-9223372036854775807 - 1, 9223372036854775807, 9223372036854775807) }}")
                == "[-9223372036854775808, -1, 9223372036854775806]")
    }

    @Test func aRangeOfABillionIsRefusedBeforeItIsBuilt() throws {
        let message = try Self.failure("{% for i in range(1000000000) %}{% endfor %}")
        #expect(message.hasPrefix("line 1: range(1000000000) would hold 1000000000 items, more than the limit of \(Self.empty.iterations) loop iterations"))
    }

    @Test func aRangeSpanningAllIntegersIsRefusedWithoutOverflow() throws {
        #expect(try Self.failure("{{ range(-9223372036854775807 - 1, 9223372036854775807) }}").contains("would hold 18446744073709551615 items"))
    }

    @Test func nestedLoopsShareOneIterationLimit() throws {
        let message = try Self.failure("{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}")
        #expect(message.contains("would bring the loop iterations to 1001000, more than the limit of \(Self.empty.iterations) for this conversation"))
        #expect(message.hasPrefix("line 1: {% for %}"))
    }

    @Test func repeatingAStringPastTheLimitIsRefusedBeforeItIsBuilt() throws {
        let message = try Self.failure("{{ 'x' * 100000000 }}")
        #expect(message.hasPrefix("line 1: \"x\" * 100000000 would build a string of 100000000 bytes, more than the limit of \(Self.empty.outputBytes) bytes"))
    }

    @Test func doublingAStringWithReplaceStopsAtTheLimit() throws {
        // A 1 MiB limit keeps the test quick; the default (64 MiB and up) stops the same way at 2^27 bytes.
        let limits = ChatTemplateLimits(outputBytes: 1 << 20, iterations: 1000, steps: 1 << 24)
        let method = try Self.failure(
            "{% set ns = namespace(s='x') %}{% for i in range(30) %}{% set ns.s = ns.s.replace('x', 'xx') %}{% endfor %}{{ ns.s|length }}",
            limits: limits)
        #expect(
            method.hasPrefix("line 1: replace(\"x\", \"xx\") on \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" would build a string of 2097152 bytes, more than the limit of 1048576 bytes"))
        let filter = try Self.failure(
            "{% set ns = namespace(s='x') %}{% for i in range(30) %}{% set ns.s = ns.s|replace('x', 'xx') %}{% endfor %}",
            limits: limits)
        #expect(filter.contains("would build a string of 2097152 bytes"))
    }

    @Test func replaceFollowsPython() throws {
        #expect(
            try Self.rendered("{{ 'aaa'.replace('a', 'b', 2) }} {{ 'ab'.replace('', '-') }} {{ 'ééé'|replace('é', 'e') }} {{ 'abab'.replace('ab', '') }}")
                == "bba -a-b- eee ")
    }

    @Test func anOutputOfJoinedStringsIsWrittenAsTheirJoinedValue() throws {
        // Written piece by piece (no string as long as the message is built), with the values and errors of joining.
        #expect(try Self.rendered("{{ 'a' + 'b' ~ 1 ~ 'c' }}|{{ 1 + 2 ~ 'x' }}|{{ [1] + [2] }}|{{ 'é' ~ none }}") == "ab1c|3x|[1, 2]|éNone")
        #expect(try Self.failure("{{ 'a' + 'b' + 1 }}").hasPrefix("line 1: cannot apply + to \"ab\" and 1"))
        let limits = ChatTemplateLimits(outputBytes: 1 << 20, iterations: 1000, steps: 1 << 24)
        let message = try Self.failure("{{ 'x' * 600000 + 'y' + 'x' * 600000 }}", limits: limits)
        #expect(message.hasPrefix("line 1: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" + \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\" would build a string of 1200001 bytes"))
    }

    @Test func aRenderingIsComparedWithATextWithoutBuildingIt() throws {
        let template = try ChatTemplate("{% for m in messages %}{{ '<' + m.role + '>' + m.content + '</>' }}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}")
        let first = ChatTemplate.Message(role: "user", content: "héllo"), second = ChatTemplate.Message(role: "assistant", content: "hi")
        let whole = try template.render(messages: [first, second])
        let shorter = try template.render(messages: [first], addGenerationPrompt: false)
        #expect(try template.renderedLength(ifPrefixOf: whole, messages: [first], addGenerationPrompt: false) == shorter.utf8.count)
        #expect(try template.renderedLength(ifPrefixOf: whole, messages: [first, second]) == whole.utf8.count)
        #expect(try template.renderedLength(ifPrefixOf: whole, messages: [second], addGenerationPrompt: false) == nil)
        #expect(try template.renderedLength(ifPrefixOf: shorter, messages: [first, second]) == nil)
    }

    @Test func outputPastTheLimitIsAnError() throws {
        let message = try Self.failure("{% for i in range(1000) %}{{ 'x' * 100000 }}{% endfor %}")
        #expect(message.hasPrefix("line 1: the template's output would pass \(Self.empty.outputBytes) bytes"))
    }

    @Test func evaluationStepsAreLimited() throws {
        let message = try Self.failure(
            "{% for i in range(100) %}{{ i + i + i }}{% endfor %}",
            limits: ChatTemplateLimits(outputBytes: 1 << 20, iterations: 1000, steps: 200))
        #expect(message.hasPrefix("line 1: the template took more than 200 steps"))
    }

    @Test func readingALongStringOverAndOverRunsOutOfSteps() throws {
        // Each |upper reads the 1 MB string: 3,906 steps, so the 26th passes 100,000.
        let message = try Self.failure(
            "{% set s = 'x' * 1000000 %}{% for i in range(1000) %}{% if s|upper %}{% endif %}{% endfor %}",
            limits: ChatTemplateLimits(outputBytes: 1 << 21, iterations: 10_000, steps: 100_000))
        #expect(message.hasPrefix("line 1: the template took more than 100000 steps"))
    }

    @Test func walkingALongListOverAndOverRunsOutOfSteps() throws {
        // Each `in` walks 10,000 items: 312 steps, so the 33rd passes 10,000.
        let message = try Self.failure(
            "{% set a = range(10000) %}{% for i in range(1000) %}{% if -1 in a %}{% endif %}{% endfor %}",
            limits: ChatTemplateLimits(outputBytes: 1 << 20, iterations: 20_000, steps: 10_000))
        #expect(message.hasPrefix("line 1: the template took more than 10000 steps"))
    }

    @Test func aListThatHoldsItselfManyTimesRunsOutOfSteps() throws {
        // 2^40 ones if written out or looked through; the steps run out first.
        let doubling = "{% set a = [1] %}" + String(repeating: "{% set a = [a, a] %}", count: 40)
        let limits = ChatTemplateLimits(outputBytes: 1 << 20, iterations: 1000, steps: 1 << 16)
        #expect(try Self.failure(doubling + "{{ a | tojson }}", limits: limits).hasPrefix("line 1: the template took more than 65536 steps"))
    }

    @Test func aListWrittenOutPastTheLimitIsAnError() throws {
        // A thousand references to one 2 KB string: 2 MB when written out, past a 1 MiB limit.
        let ten = { (x: String) in "[" + Array(repeating: x, count: 10).joined(separator: ", ") + "]" }
        let source = "{% set s = 'x' * 2000 %}{% set a = \(ten("s")) %}{% set b = \(ten("a")) %}{% set c = \(ten("b")) %}"
        let limits = ChatTemplateLimits(outputBytes: 1 << 20, iterations: 1000, steps: 1 << 20)
        #expect(try Self.failure(source + "{{ c | tojson }}", limits: limits).hasPrefix("line 1: a list of 10 items written out is longer than the limit of 1048576 bytes"))
        #expect(try Self.failure(source + "{{ c }}", limits: limits).hasPrefix("line 1: a list of 10 items written out is longer than the limit of 1048576 bytes"))
    }

    @Test func aListWrappedInAListWithoutEndIsRefused() throws {
        // Before: 900,000 levels, then SIGSEGV freeing them.
        let message = try Self.failure("{% set ns = namespace(a=[]) %}{% for i in range(900000) %}{% set ns.a = [ns.a] %}{% endfor %}{{ ns.a|length }}")
        #expect(message.hasPrefix("line 1: a list literal would nest lists and dicts more than 512 deep"))
        #expect(
            try Self.failure("{% set ns = namespace(a={}) %}{% for i in range(1000) %}{% set ns.a = {'k': ns.a} %}{% endfor %}")
                .hasPrefix("line 1: a dict literal would nest lists and dicts more than 512 deep"))
    }

    @Test func deepNestingIsRefusedWhenTheTemplateIsRead() {
        let brackets = "{{ " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000) + " }}"
        let chain = "{{ 1" + String(repeating: " + 1", count: 100_000) + " }}"
        let blocks = String(repeating: "{% if true %}", count: 10_000) + String(repeating: "{% endif %}", count: 10_000)
        for source in [brackets, chain, blocks] {
            do {
                _ = try ChatTemplate(source)
                Issue.record("a template nested 10,000 deep was accepted")
            } catch {
                #expect((error as? ChatTemplateError)?.message.hasPrefix("line 1: the template nests tags, brackets or operators more than 200 deep") == true)
            }
        }
    }

    @Test func theLimitsGrowWithTheConversation() throws {
        let source = "{{ ('x' * 80000000) | length }}"
        #expect(try Self.failure(source).contains("more than the limit of \(Self.empty.outputBytes) bytes"))
        let long = ChatTemplate.Message(role: "user", content: String(repeating: "y", count: 1_000_000))
        #expect(try ChatTemplate(source).render(messages: [long]) == "80000000")
    }

    @Test func stringsAreIndexedAndCountedByCodePointAsInPython() throws {
        // "e" and a combining acute accent: one character on screen, two code points in Python.
        #expect(
            try ChatTemplate("{{ s|length }} {{ s[1:] == s[-1] }} {{ s[::-1]|length }}")
                .render(messages: [], extra: ["s": .string("e\u{301}")]) == "2 True 2")
    }
}

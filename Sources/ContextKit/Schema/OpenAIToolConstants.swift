/// The fixed token costs of OpenAI's hidden function-definition prompt, as
/// published in the OpenAI Cookbook, "How to count tokens with tiktoken",
/// section 7 "Counting tokens for chat completions with tool calls"
/// (`num_tokens_for_tools`; examples/How_to_count_tokens_with_tiktoken.ipynb
/// in github.com/openai/openai-cookbook). The method, restated:
///
/// - per function: `functionStart` + tokens of `name:description`
///   (one trailing "." dropped from the description);
/// - if it has parameters: `propertiesStart`, then per parameter `propertyKey`
///   + tokens of `name:type:description` (trailing "." dropped), and if the
///   parameter has an `enum`: `enumStart` + per value (`enumItem` + tokens of the value);
/// - once for the whole list: `listEnd`.
///
/// The notebook checks it against the API with one tool (`get_current_weather`)
/// and two messages: 105 prompt tokens for gpt-3.5-turbo and gpt-4, 101 for
/// gpt-4o and gpt-4o-mini, method and API agreeing. It only looks at top-level
/// parameters; nested objects are not covered by the published method.
public struct OpenAIToolConstants: Equatable, Sendable {
    /// Tokens added per function, before its `name:description`.
    public var functionStart: Int
    /// Tokens added once for a function that has parameters.
    public var propertiesStart: Int
    /// Tokens added per parameter, before its `name:type:description`.
    public var propertyKey: Int
    /// Tokens added once for a parameter with an `enum` (negative: the published value is −3).
    public var enumStart: Int
    /// Tokens added per `enum` value, before the value's own tokens.
    public var enumItem: Int
    /// Tokens added once for the whole tool list.
    public var listEnd: Int

    /// Constants for a model the Cookbook does not cover, all in tokens.
    public init(functionStart: Int, propertiesStart: Int, propertyKey: Int, enumStart: Int, enumItem: Int, listEnd: Int) {
        self.functionStart = functionStart
        self.propertiesStart = propertiesStart
        self.propertyKey = propertyKey
        self.enumStart = enumStart
        self.enumItem = enumItem
        self.listEnd = listEnd
    }

    /// gpt-4o and gpt-4o-mini (o200k_base).
    public static let gpt4o = OpenAIToolConstants(functionStart: 7, propertiesStart: 3, propertyKey: 3, enumStart: -3, enumItem: 3, listEnd: 12)
    /// gpt-3.5-turbo and gpt-4 (cl100k_base).
    public static let gpt4 = OpenAIToolConstants(functionStart: 10, propertiesStart: 3, propertyKey: 3, enumStart: -3, enumItem: 3, listEnd: 12)
}

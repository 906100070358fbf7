// A tool as an app declares it: what its definition costs in every request
// of a session that offers it to Apple's on-device model.
//
//     schema-cost examples/tools/WeatherTool.swift
//     schema-cost examples/tools/*.swift examples/Summary.swift   # the session's fixed cost
import FoundationModels

struct GetWeatherTool: Tool {
    let name = "getWeather"
    let description = "Get the current weather for a city"

    @Generable
    struct Arguments {
        @Guide(description: "The city, e.g. Lisbon")
        var city: String

        @Guide(description: "The unit of temperature", .anyOf(["celsius", "fahrenheit"]))
        var unit: String
    }

    func call(arguments: Arguments) async throws -> String {
        "18 degrees in \(arguments.city)"
    }
}

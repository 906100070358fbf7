// A tool without a `name`: the framework's default, the type's name, is sent.
import Contacts
import FoundationModels

struct FindContacts: Tool {
    let description = "Find contacts by the first letter of their name"

    @Generable
    struct Arguments {
        @Guide(description: "First letters to look for", .count(1...3))
        var letters: [String]

        @Guide(description: "How many contacts to return", .range(1...10))
        var count: Int

        var filter: Filter?
    }

    @Generable
    struct Filter {
        @Guide(description: "Only contacts with a phone number")
        var hasPhone: Bool
    }

    func call(arguments: Arguments) async throws -> [String] {
        []
    }
}

/// Why a measurement could not be made, with what to do about it.
package enum MeasurementError: Error, Equatable, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    case missingReference(tag: String, in: String)
    case invalid(String)

    package var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        case let .missingReference(tag, directory):
            return "the corpus in \(directory) has no '\(tag)' text to compare the other languages with; add \(tag).txt or choose another reference"
        case let .invalid(message):
            return message
        }
    }
}

import Foundation

/// A whole 2xx answer, read by `HTTPClient.fetch`.
package struct HTTPResponse: Sendable {
    /// The HTTP status.
    package let status: Int
    /// The headers, names in lower case.
    package let headers: [String: String]
    /// The body.
    package let body: Data
}

import Foundation

/// Where an OpenAI-compatible server lives, whichever way its URL was given:
/// `http://host:8080`, `http://host:8080/`, `http://host:8080/v1`,
/// `http://host:8080/v1/` and `http://host:8080/v1/chat/completions` all name
/// the same server and resolve the same endpoints. A path in front (a proxy's
/// `/llama`) is kept.
///
/// One rule for every reader, because the API lives under `/v1` while
/// llama.cpp's `/props` lives beside it, at the root: a client that appended
/// `props` to a URL ending in `/v1` asked for a page that does not exist.
package struct ServerBaseURL: Equatable, Sendable {
    /// The server's root: no trailing `/`, `/v1` or `/v1/chat/completions`.
    package let root: URL

    /// The server `url` names (see the type's comment for the forms accepted).
    package init(_ url: URL) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            root = url
            return
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        for suffix in ["/chat/completions", "/v1"] where path.hasSuffix(suffix) {
            path.removeLast(suffix.count)
        }
        while path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path
        root = components.url ?? url
    }

    /// An endpoint of the OpenAI API: `api("chat/completions")` is `ROOT/v1/chat/completions`.
    package func api(_ endpoint: String) -> URL { resolve("/v1/" + endpoint) }

    /// A path beside the API, at the root: `beside("props")` is llama.cpp's `ROOT/props`.
    package func beside(_ path: String) -> URL { resolve("/" + path) }

    private func resolve(_ path: String) -> URL {
        guard var components = URLComponents(url: root, resolvingAgainstBaseURL: true) else { return root.appendingPathComponent(path) }
        components.percentEncodedPath += path
        return components.url ?? root.appendingPathComponent(path)
    }
}

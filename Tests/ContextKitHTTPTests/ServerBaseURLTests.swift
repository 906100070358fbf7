import Foundation
import Testing
@testable import ContextKitHTTP

@Suite struct ServerBaseURLTests {
    static let forms = [
        "http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/",
        "http://127.0.0.1:8080/v1/chat/completions"
    ]

    func server(_ url: String) -> ServerBaseURL { ServerBaseURL(URL(string: url)!) }

    @Test("every form of a base URL resolves the same API endpoint", arguments: forms)
    func apiEndpoint(url: String) {
        #expect(server(url).api("chat/completions").absoluteString == "http://127.0.0.1:8080/v1/chat/completions")
    }

    @Test("every form of a base URL resolves /props beside the API, not under /v1", arguments: forms)
    func besideTheAPI(url: String) {
        #expect(server(url).beside("props").absoluteString == "http://127.0.0.1:8080/props")
    }

    @Test func aPathInFrontOfTheAPIIsKept() {
        #expect(server("https://proxy.example/llama/v1/").api("models").absoluteString == "https://proxy.example/llama/v1/models")
    }

    @Test func aLastSegmentThatOnlyEndsInV1IsNotTheAPI() {
        #expect(server("http://h/xv1").api("models").absoluteString == "http://h/xv1/v1/models")
    }
}

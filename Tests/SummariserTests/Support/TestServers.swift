import Foundation
import TestSupport

/// Helper processes for tests that talk to a server.
enum TestServers {

    /// The scripted fake (`scripts/fake-openai-server.py`), started once per
    /// test process and kept to its end.
    static let fake: Result<ScriptServer, any Error> = Result { try ScriptServer(script: "fake-openai-server.py", announcement: "url=") }

    static func fakeURL() throws -> URL { try fake.get().url }
}

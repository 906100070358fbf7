import Foundation
import Testing
@testable import TokenKit

@Suite struct StorageFoldersTests {
    @Test func contextKitCacheOverridesThePlatformCacheFolder() {
        let folder = StorageFolders.cache(environment: ["CONTEXTKIT_CACHE": "/tmp/ck", "XDG_CACHE_HOME": "/x", "HOME": "/h"])
        #expect(folder?.path == "/tmp/ck")
    }

    #if !canImport(Darwin)
        @Test func xdgFoldersWinOverHome() {
            let environment = ["XDG_CACHE_HOME": "/x/cache", "XDG_CONFIG_HOME": "/x/config", "XDG_STATE_HOME": "/x/state", "HOME": "/h"]
            #expect(StorageFolders.cache(environment: environment)?.path == "/x/cache/contextkit")
            #expect(StorageFolders.config(environment: environment)?.path == "/x/config/contextkit")
            #expect(StorageFolders.state(environment: environment)?.path == "/x/state/contextkit")
        }

        @Test func withoutXDGTheFoldersAreUnderHome() {
            let environment = ["HOME": "/h"]
            #expect(StorageFolders.cache(environment: environment)?.path == "/h/.cache/contextkit")
            #expect(StorageFolders.config(environment: environment)?.path == "/h/.config/contextkit")
            #expect(StorageFolders.state(environment: environment)?.path == "/h/.local/state/contextkit")
        }

        @Test func withoutHomeThereIsNoFolder() {
            #expect(StorageFolders.cache(environment: [:]) == nil)
            #expect(StorageFolders.state(environment: ["HOME": ""]) == nil)
        }
    #endif
}

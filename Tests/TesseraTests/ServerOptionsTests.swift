import Testing
import Tessera

@Suite struct ServerOptionsTests {
    @Test func defaults() throws {
        let settings = try ServerOptions.parse([]).resolve(environment: [:])
        #expect(settings.host == "0.0.0.0")
        #expect(settings.port == 8080)
        #expect(settings.dataDirectory == "./data")
        #expect(settings.logLevel == .info)
        #expect(settings.threads >= 1)
    }

    @Test func environmentFillsWhatFlagsLeaveOut() throws {
        let environment = ["HOST": "127.0.0.1", "PORT": "0", "THREADS": "3", "DATA_DIR": "/tmp/d", "LOG_LEVEL": "WARNING"]
        let fromEnvironment = try ServerOptions.parse([]).resolve(environment: environment)
        #expect(fromEnvironment.host == "127.0.0.1")
        #expect(fromEnvironment.port == 0)
        #expect(fromEnvironment.threads == 3)
        #expect(fromEnvironment.dataDirectory == "/tmp/d")
        #expect(fromEnvironment.logLevel == .warning)

        let flagsWin = try ServerOptions.parse(["--port", "9000", "--log-level", "debug"]).resolve(environment: environment)
        #expect(flagsWin.port == 9000)
        #expect(flagsWin.logLevel == .debug)
        #expect(flagsWin.host == "127.0.0.1")
    }

    @Test func invalidValuesAreRefused() throws {
        for environment in [["PORT": "eighty"], ["PORT": "70000"], ["THREADS": "0"], ["LOG_LEVEL": "loud"]] {
            #expect(throws: (any Error).self, "\(environment)") { try ServerOptions.parse([]).resolve(environment: environment) }
        }
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--log-level", "loud"]).resolve(environment: [:]) }
    }
}

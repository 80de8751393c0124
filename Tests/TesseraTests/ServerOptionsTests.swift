import ArgumentParser
import Logging
import Tessera
import Testing

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

    @Test func httpsAndTrustedProxies() throws {
        let off = try ServerOptions.parse([]).resolve(environment: [:])
        #expect(!off.https)
        #expect(off.trustedProxies.addresses.isEmpty)
        let on = try ServerOptions.parse([]).resolve(environment: ["HTTPS": "1", "TRUSTED_PROXIES": "10.0.0.5, ::1"])
        #expect(on.https)
        #expect(on.trustedProxies == TrustedProxies([IPAddress("10.0.0.5")!, IPAddress("::1")!]))
        #expect(on.httpConfiguration.trustedProxies == on.trustedProxies)
        #expect(try ServerOptions.parse(["--https", "off"]).resolve(environment: ["HTTPS": "1"]).https == false, "a flag wins")
    }

    /// HTTPS follows an `https://` public URL unless told otherwise, and brings HSTS; every
    /// answer says which powerful features no page may use.
    @Test func anHTTPSPublicURLMeansHSTSAndSecureCookies() throws {
        let hsts = HTTPField.Name("Strict-Transport-Security")!, permissions = HTTPField.Name("Permissions-Policy")!
        let secure = try ServerOptions.parse([]).resolve(environment: ["PUBLIC_URL": "https://shop.example.com"])
        #expect(secure.https)
        #expect(secure.httpConfiguration.defaultHeaders[hsts] == "max-age=31536000")
        #expect(secure.httpConfiguration.defaultHeaders[permissions] == SecurityHeaders.permissionsPolicy)
        let plain = try ServerOptions.parse([]).resolve(environment: ["PUBLIC_URL": "http://shop.example.com"])
        #expect(!plain.https && plain.httpConfiguration.defaultHeaders[hsts] == nil)
        #expect(plain.httpConfiguration.defaultHeaders[permissions] == SecurityHeaders.permissionsPolicy)
        let toldNot = try ServerOptions.parse([]).resolve(environment: ["PUBLIC_URL": "https://shop.example.com", "HTTPS": "0"])
        #expect(!toldNot.https, "HTTPS=0 is what the operator said")
    }

    @Test func zeroStreamsPerClientTurnsLiveRegionsOff() throws {
        let on = try ServerOptions.parse([]).resolve(environment: [:])
        #expect(on.liveStreamsPerClient == 16 && LiveRegions(configuration: on.liveConfiguration).servesStreams)
        let off = try ServerOptions.parse([]).resolve(environment: ["LIVE_STREAMS_PER_CLIENT": "0"])
        #expect(!LiveRegions(configuration: off.liveConfiguration).servesStreams)
    }

    @Test func theRegionCacheSizeIsInMegabytesAndZeroTurnsItOff() throws {
        let defaults = try ServerOptions.parse([]).resolve(environment: [:])
        #expect(defaults.makeRegionCache().limits.maxCost == 8 << 20)
        let off = try ServerOptions.parse([]).resolve(environment: ["REGION_CACHE_MB": "0"])
        #expect(off.makeRegionCache().limits.maxCost == 0 && !off.makeRegionCache().isOn)
        let flag = try ServerOptions.parse(["--region-cache-mb", "64"]).resolve(environment: ["REGION_CACHE_MB": "1"])
        #expect(flag.makeRegionCache().limits.maxCost == 64 << 20, "the flag wins over the environment")
    }

    @Test func invalidValuesAreRefused() throws {
        for environment in [
            ["PORT": "eighty"], ["PORT": "70000"], ["THREADS": "0"], ["LOG_LEVEL": "loud"],
            ["HTTPS": "maybe"], ["TRUSTED_PROXIES": "10.0.0.1, somewhere"],
            ["LIVE_STREAMS_PER_CLIENT": "-1"], ["LIVE_STREAMS_PER_CLIENT": "many"],
            ["REGION_CACHE_MB": "-1"], ["REGION_CACHE_MB": "lots"], ["REGION_CACHE_MB": "5000"],
        ] {
            #expect(throws: (any Error).self, "\(environment)") { try ServerOptions.parse([]).resolve(environment: environment) }
        }
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--log-level", "loud"]).resolve(environment: [:]) }
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--https", "yes please"]).resolve(environment: [:]) }
        #expect(throws: (any Error).self) { try ServerOptions.parse(["--trusted-proxies", "::1,,x"]).resolve(environment: [:]) }
    }
}

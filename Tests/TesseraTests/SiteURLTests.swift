import Tessera
import Testing

/// Which sites count as this machine: the only ones a link with a secret may name without
/// `PUBLIC_URL`, since a `Host` header is the client's to choose.
@Suite struct SiteURLTests {
    @Test(arguments: [
        "http://localhost:8080", "http://127.0.0.1", "http://127.1.2.3:9000", "http://[::1]:8080", "http://shop.localhost",
    ])
    func loopbackSites(_ site: String) throws {
        #expect(try #require(SiteURL(site)).isLoopback)
    }

    @Test(arguments: [
        "http://127.attacker.example", "http://127.0.0.1.attacker.example", "http://127.0.0.256", "http://127.0.0", "http://128.0.0.1",
        "https://shop.example.com", "http://localhost.attacker.example", "http://[::2]",
    ])
    func otherSites(_ site: String) throws {
        #expect(try #require(SiteURL(site)).isLoopback == false, "\(site)")
    }
}

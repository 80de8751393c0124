import Foundation
import TesseraTesting
import Testing

/// The `storefront` executable as an operator runs it: configured by environment variables,
/// logging to stdout, stopped by a signal.
@Suite(.serialized) struct StorefrontProcessTests {
    func start(_ extra: [String: String] = [:], launcher: [String] = []) throws -> ProcessHarness {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-data-\(UUID().uuidString)")
        let environment = TestStorefront.environment(dataDirectory: data, logLevel: "info").merging(extra) { $1 }
        return try ProcessHarness(product: "storefront", environment: environment, launcher: launcher, workingDirectory: ProcessHarness.packageRoot)
    }

    @Test func theOpenFilesLimitIsRaisedAndTheRealConnectionLimitLogged() async throws {
        // Started with the common soft limit of 1024, the hard limit unchanged: raised to the hard limit.
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let expected = min(4096, Int(clamping: limit.rlim_max) - 128)
        let raised = try start(launcher: ["/usr/bin/prlimit", "--nofile=1024:"])
        _ = try await raised.waitForPort()
        #expect(raised.log.contains("connectionLimit=\(expected)"), "\(raised.log)")
        raised.signal(SIGTERM)
        #expect(try await raised.waitForExit() == 0)

        // A hard limit of 512 cannot be raised: the server says what it really got.
        let capped = try start(launcher: ["/usr/bin/prlimit", "--nofile=512:512"])
        _ = try await capped.waitForPort()
        #expect(capped.log.contains("connectionLimit=360"), "512 files, 128 kept for the rest, a 24-connection margin for 503s: \(capped.log)")
        #expect(capped.log.contains("the open-files limit allows fewer connections than configured"))
        capped.signal(SIGTERM)
        #expect(try await capped.waitForExit() == 0)
    }

    @Test func servesHomeHealthAndStaticFilesAndLogsEachRequest() async throws {
        let storefront = try start()
        let port = try await storefront.waitForPort()
        #expect(port > 0 && port != 8080)
        // Test storefronts hash with 1,000 rounds, and the server says that is for tests only.
        #expect(storefront.log.contains("password hashes are weaker than recommended"), "\(storefront.log)")

        let home = try await onThread { try RawHTTPClient.request(port: port, "/") }
        #expect(home.status == 200)
        #expect(home.header("content-type") == "text/html; charset=utf-8")
        #expect(home.text.contains("<title>"))
        let health = try await onThread { try RawHTTPClient.request(port: port, "/healthz") }
        #expect(health.status == 200)
        let css = try await onThread { try RawHTTPClient.request(port: port, "/css/site.css") }
        #expect(css.status == 200)
        #expect(css.header("content-type") == "text/css; charset=utf-8")
        let missing = try await onThread { try RawHTTPClient.request(port: port, "/no-such-page") }
        #expect(missing.status == 404)
        #expect(missing.text.contains("<html"))

        // Every kind of answer carries the security headers.
        for reply in [home, health, css, missing] {
            #expect(reply.header("content-security-policy")?.contains("default-src 'self'") == true)
            #expect(reply.header("content-security-policy")?.contains("frame-ancestors 'none'") == true)
            #expect(reply.header("content-security-policy")?.contains("unsafe-inline") == false)
            #expect(reply.header("x-content-type-options") == "nosniff")
            #expect(reply.header("referrer-policy") == "strict-origin-when-cross-origin")
        }

        _ = try await storefront.waitForLog(#"GET /healthz 200 \d+ [0-9.]+ms"#)
        _ = try await storefront.waitForLog(#"GET /no-such-page 404"#)
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }

    @Test func sigtermLetsAnInFlightRequestFinishThenExitsZero() async throws {
        let storefront = try start(["SHUTDOWN_GRACE": "10"])
        let port = try await storefront.waitForPort()
        let client = try RawHTTPClient(port: port)
        // The request is in flight: its first line is in, its headers are still coming.
        try client.send("GET /healthz HTTP/1.1\r\n")
        try await onThread { try client.waitUntilServerHasRead() }
        storefront.signal(SIGTERM)
        _ = try await storefront.waitForLog("shutting down")
        try await Task.sleep(for: .milliseconds(300))
        #expect(storefront.process.exitStatusIfEnded == nil, "the server must wait for the request")
        #expect(throws: (any Error).self, "no new connections once stopping") { try RawHTTPClient(port: port) }

        try client.send("Host: localhost\r\n\r\n")
        let reply = try await onThread { try client.readReply() }
        #expect(reply.status == 200)
        #expect(reply.text == "ok\n")
        #expect(reply.header("connection")?.lowercased() == "close")
        #expect(try await storefront.waitForExit() == 0)
    }

    /// With a drain delay, SIGTERM first turns readiness to 503 while new connections are still
    /// answered, so a balancer that polls `/readyz` stops sending before the listener closes.
    @Test func readinessAnswers503WhileDraining() async throws {
        let storefront = try start(["DRAIN_DELAY": "6"])
        let port = try await storefront.waitForPort()
        let ready = try await onThread { try RawHTTPClient.request(port: port, "/readyz") }
        #expect(ready.status == 200)
        #expect(ready.text == "ready\n")

        storefront.signal(SIGTERM)
        _ = try await storefront.waitForLog("draining")
        let draining = try await onThread { try RawHTTPClient.request(port: port, "/readyz") }
        #expect(draining.status == 503)
        #expect(draining.text == "draining\n")
        let live = try await onThread { try RawHTTPClient.request(port: port, "/healthz") }
        #expect(live.status == 200, "still alive, and still accepting, while draining")
        #expect(try await storefront.waitForExit() == 0)
        #expect(storefront.log.contains("stopped"))
    }

    @Test func sigintAlsoStopsCleanly() async throws {
        let storefront = try start()
        _ = try await storefront.waitForPort()
        storefront.signal(SIGINT)
        #expect(try await storefront.waitForExit() == 0)
        #expect(storefront.log.contains("stopped"))
    }

    /// `LOG_FORMAT=json`: every line is one JSON object, and every line of one request, the
    /// access log's and the app's, carries the request's id, which also comes back as
    /// `X-Request-ID`. A well-formed incoming id is kept; any other is replaced.
    @Test func jsonLogsCarryTheRequestIDOnEveryLineOfARequest() async throws {
        let storefront = try start(["LOG_FORMAT": "json"])
        let port = try await storefront.waitForPort()
        let client = TestClient(port: port)
        let refused = try await client.send(
            "/login", method: "POST", form: "email=ada%40example.com&password=wrong&next=%2F",
            headers: ["X-Request-ID": "balancer-7f3a:42"])
        #expect(refused.status == 422)
        #expect(refused.header("x-request-id") == "balancer-7f3a:42")
        _ = try await storefront.waitForLog(#""message":"POST /login 422"#)

        let lines = storefront.log.split(separator: "\n").filter { !$0.isEmpty }
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        let ofTheRequest = objects.filter { $0["request_id"] as? String == "balancer-7f3a:42" }
        let messages = ofTheRequest.compactMap { $0["message"] as? String }
        #expect(messages.contains("sign-in refused"), "the app's line: \(messages)")
        #expect(messages.contains { $0.hasPrefix("POST /login 422") }, "the access log's line: \(messages)")
        #expect(ofTheRequest.allSatisfy { $0["time"] is String && $0["level"] is String && $0["logger"] is String })
        #expect(!storefront.log.contains("wrong"), "no password in the log")

        for forged in ["a b", "<script>", String(repeating: "x", count: 129), "\"quoted\""] {
            let reply = try await onThread { try RawHTTPClient.request(port: port, "/", headers: ["X-Request-ID": forged]) }
            let id = try #require(reply.header("x-request-id"))
            #expect(id != forged && id.count == 15, "a new id in place of \(forged.debugDescription): \(id)")
        }
        // A prepared answer (the same bytes for everyone) gets no new id, but echoes the client's.
        let probe = try await onThread { try RawHTTPClient.request(port: port, "/healthz") }
        #expect(probe.status == 200 && probe.header("x-request-id") == nil)
        let traced = try await onThread { try RawHTTPClient.request(port: port, "/healthz", headers: ["X-Request-ID": "probe-1"]) }
        #expect(traced.header("x-request-id") == "probe-1")
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }

    /// `METRICS_PORT`: Prometheus's text format on a port of its own, with requests by route,
    /// method and status class, region renders by outcome (a kept one is `cached`), database time per request, open
    /// connections and memory. The public port does not serve it.
    @Test func metricsAreServedOnTheirOwnPortOnly() async throws {
        let storefront = try start(["METRICS_PORT": "0"])
        let port = try await storefront.waitForPort()
        let metricsPort = try #require(Int(try await storefront.waitForLog(#"metrics on http://[^:]+:(\d+)"#)))
        #expect(metricsPort != port)
        for target in ["/", "/products/1", "/products/1", "/no-such-page"] {
            _ = try await onThread { try RawHTTPClient.request(port: port, target) }
        }
        #expect(try await onThread { try RawHTTPClient.request(port: port, "/metrics") }.status == 404)

        // An open connection for the gauge to count, surely accepted: it has been answered once.
        let held = try await onThread {  // the client, kept open
            let held = try RawHTTPClient(port: port)
            try held.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            return (client: held, status: try held.readReply().status)
        }
        #expect(held.status == 200)
        let scrape = try await onThread { try RawHTTPClient.request(port: metricsPort, "/metrics") }
        #expect(scrape.status == 200)
        #expect(scrape.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = scrape.text
        func value(_ series: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        // Requests only: a kept page's render for nobody is none.
        #expect(value(#"http_requests_total{route="catalog.product",method="GET",status="2xx"}"#) == 2, "\(text)")
        #expect(value(#"http_requests_total{route="catalog.list",method="GET",status="2xx"}"#) == 1)
        #expect(value(#"http_requests_total{route="unmatched",method="GET",status="4xx"}"#) == 2, "/no-such-page and /metrics")
        #expect(value(#"http_request_duration_seconds_count{route="catalog.product",method="GET",status="2xx"}"#) == 2)
        #expect((value(#"http_request_database_seconds_sum{route="catalog.product"}"#) ?? 0) > 0, "a product page reads the database")
        #expect(value(#"tessera_region_render_seconds_count{region="detail",outcome="ok"}"#) == 1, "rendered once: the second view was the kept page")
        let open = try #require(value("tessera_open_connections"), "the gauge is exported")
        #expect(open >= 1 && open < 100, "the held connection is counted")
        _ = held
        #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }

    /// A setting that is not valid stops the program before it serves: one line that names it,
    /// and exit code 64 (EX_USAGE), as an operator's tooling expects from a usage error.
    @Test(arguments: [
        (["PORT": "not-a-port"], "PORT=not-a-port is not valid"),
        (["LOG_FORMAT": "yaml"], "LOG_FORMAT=yaml is not valid"),
        (["DRAIN_DELAY": "-1"], "must be zero or more"),
        (["METRICS_PORT": "ninety"], "METRICS_PORT=ninety is not valid"),
        (["METRICS_PORT": "70000"], "between 0 and 65535"),
        (["PORT": "8181", "METRICS_PORT": "8181"], "must not be the public port"),
        (["DATA_DIR": "/proc/self/data"], "cannot be"),
        (["DATA_DIR": "/etc/hostname"], "is a file, not a folder"),
        (["SESSION_SECRET": "too-short"], "at least 32 characters"),
        (["LIVE_STREAMS_PER_CLIENT": "-1"], "must be zero (live regions off) or more"),
        (["DATABASE_TIMEOUT": "soon"], "DATABASE_TIMEOUT=soon is not valid"),
        (["DATABASE_TIMEOUT": "0"], "DATABASE_TIMEOUT=0 is not valid"),
        (["DATABASE_TIMEOUT": "600"], "from 0.1 to 60"),
        (["PASSWORD_HASH_ROUNDS": "lots"], "PASSWORD_HASH_ROUNDS=lots is not valid"),
        (["PASSWORD_HASH_ROUNDS": "12"], "PASSWORD_HASH_ROUNDS=12 must be from 1000 to 10000000"),
        (["REGISTRATION_LIMIT": "lots"], "REGISTRATION_LIMIT=lots is not valid. REGISTRATION_LIMIT is a count from 1 to 1000000"),
        (["CHECKOUT_LIMIT": "0/minute"], "CHECKOUT_LIMIT=0/minute is not valid"),
        (["PASSWORD_RESET_LIMIT": "0/hour"], "PASSWORD_RESET_LIMIT=0/hour is not valid. PASSWORD_RESET_LIMIT is a count from 1 to 1000000"),
        (["CHECKOUT_LIMIT": "30/fortnight"], "such as 10/hour"),
        (
            ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"],
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported"
        ),
        (["SMTP_URL": "https://mail.example.com"], "only smtp:// (STARTTLS) and smtps:// (TLS from the start) are supported"),
        (["SMTP_URL": "smtps://mail.example.com", "SMTP_CA_FILE": "/nonexistent/ca.pem"], "SMTP_CA_FILE=/nonexistent/ca.pem is not a file"),
        (["MAIL_FROM": "nobody"], "MAIL_FROM=nobody is not an address"),
        (["PASSKEY_RP_ID": "127.0.0.1"], "PASSKEY_RP_ID=127.0.0.1 is not a domain name"),
        (["PASSKEY_RP_ID": "shop.example", "PUBLIC_URL": "https://other.example"], "must be PUBLIC_URL's host (other.example)"),
        (["PASSKEY_RP_ID": "shop.example"], "PASSKEY_RP_ID=shop.example needs PUBLIC_URL"),
        (["PASSKEY_RP_NAME": "Shop\nBcc"], "PASSKEY_RP_NAME must be at most 64 characters, on one line"),
    ])
    func invalidConfigurationFailsFastWithAMessage(environment: [String: String], message: String) async throws {
        let storefront = try start(environment)
        let status = try await storefront.waitForExit()
        #expect(status == 64)
        let lines = storefront.log.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].hasPrefix("storefront: ") && lines[0].contains(message), "one line: \(storefront.log)")
    }
}

import ArgumentParser
import Logging
import ServiceLifecycle
import Tessera
import Tracing

#if OTLP
import OTel
#endif

/// Traces, exported over OTLP/HTTP with swift-otel when the standard OpenTelemetry variables ask
/// for them: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or its `_TRACES_` form), or
/// `OTEL_TRACES_EXPORTER=otlp`. The rest of the `OTEL_*` variables (`OTEL_SERVICE_NAME`, the
/// sampler, the batch processor, headers) are swift-otel's to read. Without them nothing is
/// bootstrapped, and the app makes no span at all.
///
/// The exporter is the package's `OTLP` trait (`swift build --traits OTLP`; `make test` and the
/// image build with it). A storefront built without it refuses the variables rather than
/// ignoring them.
enum StorefrontTracing {
    /// Whether `environment` asks for traces.
    static func isRequested(in environment: [String: String]) -> Bool {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0.lowercased() } }
        if value("OTEL_SDK_DISABLED") == "true" || value("OTEL_TRACES_EXPORTER") == "none" { return false }
        return value("OTEL_TRACES_EXPORTER") == "otlp" || value("OTEL_EXPORTER_OTLP_ENDPOINT") != nil
            || value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != nil
    }

    /// Bootstraps the process's tracer, once, and returns the exporter's service, to run beside
    /// the server; `nil` when `environment` does not ask for traces. A protocol other than
    /// `http/protobuf` (the only one built in) is a usage error. Only the tracer is set up:
    /// logs and metrics stay the storefront's own, whatever `OTEL_SDK_DISABLED` says.
    static func bootstrap(environment: [String: String], logger: Logger) throws -> (any Service)? {
        guard isRequested(in: environment) else { return nil }
        for name in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            if let value = environment[name], !value.isEmpty, value != "http/protobuf" {
                throw ValidationError("\(name)=\(value) is not supported: the storefront exports traces over http/protobuf.")
            }
        }
        #if OTLP
        var configuration = OTel.Configuration.default
        configuration.serviceName = "storefront"
        configuration.diagnosticLogger = .custom(logger)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        let backend: (factory: any Tracer, service: any Service)
        do {
            // swift-otel reads the process's OTEL_* variables here, as the specification says.
            backend = try OTel.makeTracingBackend(configuration: configuration)
        } catch {
            throw ValidationError("OTEL_* settings: \(error)")
        }
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
        #else
        throw ValidationError(
            "OTEL_* settings ask for traces, but this storefront was built without its exporter: "
                + "build it with `swift build --traits OTLP` (make test and the image do), or unset them.")
        #endif
    }
}

public import Foundation

/// Runs one of the package's executables as a child process, as an operator would: with
/// environment variables, reading its stdout, and stopping it with a signal.
public final class ProcessHarness: @unchecked Sendable {
    // @unchecked: `Process` is not Sendable, but it is only read after `run()`, and nothing
    // else here changes after `init`.
    /// The running program, for what the harness does not wrap.
    public let process = Process()
    /// The program's stdout and stderr go to this file, read back by ``log``. Not a `Pipe`: with
    /// a pipe's `readabilityHandler`, corelibs Foundation can close a descriptor twice under load
    /// (swiftlang/swift#57827), and in a test process the second close hits whatever reused the
    /// number, such as a test server's socket.
    private let logFile: URL
    private let logHandle: FileHandle

    /// Starts `product` (built next to the test bundle) with `environment` added to ours; through
    /// `launcher` when given, such as `["/usr/bin/prlimit", "--nofile=256:"]`.
    public init(
        product: String, environment: [String: String], arguments: [String] = [], launcher: [String] = [], workingDirectory: URL? = nil
    ) throws {
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [Self.builtProduct(product).path] + arguments
        } else {
            process.executableURL = Self.builtProduct(product)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-process-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        logHandle = try FileHandle(forWritingTo: logFile)
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
    }

    /// Everything the process printed so far.
    public var log: String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Waits until the log matches `pattern` and returns the first capture group.
    public func waitForLog(_ pattern: String, timeout: Duration = .seconds(20)) async throws -> String {
        let regex = try Regex(pattern)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let match = try regex.firstMatch(in: log) {
                return match.output.count > 1 ? String(match.output[1].substring ?? "") : String(match.output[0].substring ?? "")
            }
            guard process.exitStatusIfEnded == nil else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError.logNotFound(pattern: pattern, log: log)
    }

    /// The port a server logged with `port=…` after being started with `PORT=0`.
    public func waitForPort(timeout: Duration = .seconds(20)) async throws -> Int {
        guard let port = Int(try await waitForLog(#"listening on http://[^:]+:(\d+)"#, timeout: timeout)) else {
            throw HarnessError.logNotFound(pattern: "port", log: log)
        }
        return port
    }

    /// Sends `signal` (SIGTERM, SIGINT) to the program, as a container platform would.
    public func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the exit and returns the status, or throws after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = process.exitStatusIfEnded { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw HarnessError.didNotExit(log: log)
    }

    deinit {
        if process.processIdentifier > 0, process.exitStatusIfEnded == nil { kill(process.processIdentifier, SIGKILL) }
        try? logHandle.close()
        try? FileManager.default.removeItem(at: logFile)
    }

    /// Why a harnessed program did not behave: each case carries its log, for the test report.
    public enum HarnessError: Error, CustomStringConvertible {
        /// The log never showed `pattern` in time.
        case logNotFound(pattern: String, log: String)
        /// The program was asked to stop and did not exit in time.
        case didNotExit(log: String)
        /// The program ended with a status other than 0.
        case failed(status: Int32, log: String)

        /// The reason and the log, as the test failure shows them.
        public var description: String {
            switch self {
            case .logNotFound(let pattern, let log): "“\(pattern)” never appeared in the log:\n\(log)"
            case .didNotExit(let log): "the process did not exit; its log:\n\(log)"
            case .failed(let status, let log): "the process exited with status \(status); its log:\n\(log)"
            }
        }
    }

    /// Executables are built into the same folder as the test bundle.
    public static func builtProduct(_ name: String) -> URL {
        if let override = ProcessInfo.processInfo.environment["TESSERA_BIN_DIR"] {
            return URL(fileURLWithPath: override).appendingPathComponent(name)
        }
        var directory = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// The package's root folder (for `Public/` and friends), found from this source file.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()
}

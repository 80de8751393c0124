public import Foundation

/// What a command printed, and how it ended.
public struct CommandOutput: Sendable {
    /// The exit status.
    public var status: Int32
    /// Its stdout, with its stderr too unless that was left out.
    public var output: String

    /// Runs `arguments` (through `/usr/bin/env`, so the first is looked up on `PATH`) to its end.
    ///
    /// For tests that run the toolchain, such as `swift build` or `swift package describe`. The
    /// wait happens on a thread of its own: waiting on the cooperative pool would hold one of its
    /// threads (there are two on a 2-core machine) for as long as a build takes, and every other
    /// test's server would stall meanwhile.
    public static func of(_ arguments: [String], in directory: URL? = nil, includingStandardError: Bool = true) async throws -> CommandOutput {
        try await onThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = includingStandardError ? pipe : FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            // Not `waitUntilExit`, which can miss the exit (see `Process.exitStatusIfEnded`).
            while true {
                if let status = process.exitStatusIfEnded {
                    return CommandOutput(status: status, output: String(decoding: data, as: UTF8.self))
                }
                usleep(20_000)
            }
        }
    }
}

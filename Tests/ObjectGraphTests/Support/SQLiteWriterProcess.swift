import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The crash writer (Sources/CrashWriter) saving to a SQLite file in another process, in a loop:
/// each save adds an `Entry` numbered one more than the last and bumps the `Tally`, then prints
/// the number. Tests read the printed numbers to know which saves were acknowledged.
final class SQLiteWriterProcess {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var text = ""

    /// The highest save number the writer has printed so far.
    private(set) var acknowledged: Int64 = 0

    /// Starts the writer on the SQLite store at `url`.
    init(url: URL) throws {
        process.executableURL = try CrashSafetyTests.writerURL()
        process.arguments = ["sqlite", url.path]
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit { stop() }

    /// Reads the writer's output until it has acknowledged a save numbered above `number`, or it
    /// stopped; returns the highest acknowledged number.
    @discardableResult
    func waitForSave(after number: Int64) -> Int64 {
        while acknowledged <= number {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            acknowledged = text.split(separator: "\n").compactMap { Int64($0) }.last ?? acknowledged
        }
        return acknowledged
    }

    /// Whether the writer is still running.
    var isRunning: Bool { process.isRunning }

    /// Waits up to `seconds` for the writer to exit by itself; returns its exit status, or `nil`
    /// if it is still running.
    func waitForExit(seconds: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// What the writer printed to standard error; call after it exited.
    func errorOutput() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Kills the writer with SIGKILL (a save may be cut off midway) and waits for it to go.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

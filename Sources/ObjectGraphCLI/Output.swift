#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tool writes: lines of results to standard output, messages to standard error.
///
/// Standard output is buffered (a dump can be millions of lines) and flushed before anything is
/// written to standard error, so the two stay in order on a terminal. Tests pass closures that
/// collect the text instead.
public final class Output {
    private let writeOutput: ([UInt8]) -> Void
    private let writeError: ([UInt8]) -> Void
    private var buffer: [UInt8] = []
    private static let bufferLimit = 64 << 10

    /// An output that hands each chunk of bytes to `standardOutput` or `standardError`.
    public init(standardOutput: @escaping ([UInt8]) -> Void, standardError: @escaping ([UInt8]) -> Void) {
        self.writeOutput = standardOutput
        self.writeError = standardError
    }

    /// The process's standard output and standard error (file descriptors 1 and 2).
    public static func standardStreams() -> Output {
        Output(standardOutput: { writeAll($0, to: 1) }, standardError: { writeAll($0, to: 2) })
    }

    /// Writes `text`, its control characters escaped (``escaped(_:)``), and a newline to
    /// standard output.
    func line(_ text: String) {
        buffer.append(contentsOf: Self.escaped(text).utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.bufferLimit { flush() }
    }

    /// Writes `text`, its control characters escaped, and a newline to standard error, after
    /// what standard output holds.
    func errorLine(_ text: String) {
        flush()
        writeError(Array(Self.escaped(text).utf8) + [UInt8(ascii: "\n")])
    }

    /// Writes the tool's own text (help, which spans lines) and a newline, unescaped, to standard
    /// output or, if `toError`, to standard error.
    func trustedText(_ text: String, toError: Bool = false) {
        if toError {
            flush()
            writeError(Array(text.utf8) + [UInt8(ascii: "\n")])
        } else {
            buffer.append(contentsOf: text.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= Self.bufferLimit { flush() }
        }
    }

    /// Writes out what standard output holds.
    public func flush() {
        guard !buffer.isEmpty else { return }
        writeOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }

    /// Writes all of `bytes` to a file descriptor, retrying short writes and interruptions; gives
    /// up silently when the reader has gone (a closed pipe).
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return }
                done += result
            }
        }
    }
}

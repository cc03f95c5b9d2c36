import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
/// `--quick`: 10,000 objects and 3 repetitions instead of 100,000 and 5.
let quick = arguments.contains("--quick")
let count = quick ? 10_000 : 100_000
let repetitions = quick ? 3 : 5
/// `--only WORD`: time only the rows whose name contains WORD (for profiling one workload; the
/// untimed setup of the others still runs).
let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1] }

func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }

func format(_ duration: Duration) -> String {
    let microseconds = Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
    return microseconds < 1_000
        ? String(format: "%.1f µs", microseconds) : String(format: "%.1f ms", microseconds / 1_000)
}

/// Runs both sides alternately, `repetitions` times; each body runs `iterations` times and
/// returns the time it measured (untimed setup stays out). Prints a row with both medians per
/// iteration and the ratio ObjectGraph/GRDB.
func compare(
    _ name: String, iterations: Int = 1, repetitions: Int = repetitions, objectGraph: () throws -> Duration,
    grdb: () throws -> Duration
) rethrows {
    if let only, !name.contains(only) { return }
    var ours: [Duration] = []
    var theirs: [Duration] = []
    for round in 0..<repetitions {
        // Alternate which side goes first.
        func runOurs() throws {
            var total = Duration.zero
            for _ in 0..<iterations { total += try objectGraph() }
            ours.append(total / iterations)
        }
        func runTheirs() throws {
            var total = Duration.zero
            for _ in 0..<iterations { total += try grdb() }
            theirs.append(total / iterations)
        }
        if round % 2 == 0 {
            try runOurs()
            try runTheirs()
        } else {
            try runTheirs()
            try runOurs()
        }
    }
    let a = median(ours)
    let b = median(theirs)
    let ratio =
        Double(a.components.attoseconds / 1_000_000 + a.components.seconds * 1_000_000_000_000)
        / Double(b.components.attoseconds / 1_000_000 + b.components.seconds * 1_000_000_000_000)
    print("| \(name) | \(format(a)) | \(format(b)) | \(String(format: "%.2f", ratio)) |")
}

/// Times `body`.
func timed(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return clock.now - start
}

func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}

/// Reads `VmHWM` and `VmRSS` (kB) from /proc/self/status.
func memoryStatus() -> (peak: Int, resident: Int) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func value(_ key: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).filter(\.isNumber)) ?? 0
        }
        return 0
    }
    return (value("VmHWM:"), value("VmRSS:"))
}

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

func median(_ samples: [Duration]) -> Duration { samples.isEmpty ? .zero : samples.sorted()[samples.count / 2] }

func format(_ duration: Duration) -> String {
    let microseconds = Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
    return microseconds < 1_000
        ? String(format: "%.1f µs", microseconds) : String(format: "%.1f ms", microseconds / 1_000)
}

/// Runs the sides in turn, `repetitions` times (which goes first rotates); each body runs
/// `iterations` times and returns the time it measured (untimed setup stays out). Prints a row
/// with the medians per iteration and the ratios ObjectGraph/GRDB and ObjectGraph/raw SQLite
/// (raw: SQLite's C API with prepared statements, `RawSQLite.swift`; "—" where a workload has
/// no GRDB side).
func compare(
    _ name: String, iterations: Int = 1, repetitions: Int = repetitions, objectGraph: () throws -> Duration,
    grdb: (() throws -> Duration)?, raw: () throws -> Duration
) throws {
    if let only, !name.contains(only) { return }
    var samples: [[Duration]] = [[], [], []]
    func run(_ side: Int) throws {
        var total = Duration.zero
        for _ in 0..<iterations {
            switch side {
            case 0: total += try objectGraph()
            case 1: total += try grdb!()
            default: total += try raw()
            }
        }
        samples[side].append(total / iterations)
    }
    for round in 0..<repetitions {
        for turn in 0..<3 {
            let side = (turn + round) % 3
            if side == 1, grdb == nil { continue }
            try run(side)
        }
    }
    let ours = median(samples[0])
    let raw = median(samples[2])
    let grdb = samples[1].isEmpty ? nil : median(samples[1])
    print(
        "| \(name) | \(format(ours)) | \(grdb.map(format) ?? "—") | \(format(raw)) | \(grdb.map { String(format: "%.2f", ratio(ours, $0)) } ?? "—") | \(String(format: "%.2f", ratio(ours, raw))) |"
    )
}

func ratio(_ a: Duration, _ b: Duration) -> Double {
    Double(a.components.attoseconds / 1_000_000 + a.components.seconds * 1_000_000_000_000)
        / Double(b.components.attoseconds / 1_000_000 + b.components.seconds * 1_000_000_000_000)
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

import Foundation

/// Whether this is a smoke run (`--smoke`): each workload once, on small data.
let smoke = CommandLine.arguments.contains("--smoke")
/// `--only WORD` runs only the workloads whose name contains WORD (for profiling).
let only = CommandLine.arguments.firstIndex(of: "--only").map { CommandLine.arguments[$0 + 1] }

/// Whether the workload `name` runs (`--only` selects it or is not given).
func isSelected(_ name: String) -> Bool {
    only.map { name.contains($0) } ?? true
}

/// Runs `body` `iterations` times per repetition and reports the median time per iteration.
func measure(_ name: String, iterations: Int, repetitions: Int = 7, _ body: () throws -> Void) rethrows {
    try measureTimed(name, iterations: iterations, repetitions: repetitions) { () throws -> Duration? in
        try body()
        return nil
    }
}

/// As above; a body that returns a duration reports that instead of its whole run (for work
/// that needs untimed setup).
func measureTimed(_ name: String, iterations: Int, repetitions: Int = 7, _ body: () throws -> Duration?) rethrows {
    guard isSelected(name) else { return }
    let clock = ContinuousClock()
    var samples: [Duration] = []
    let runs = smoke ? 1 : repetitions
    let count = smoke ? min(iterations, 10) : iterations
    for _ in 0..<runs {
        let start = clock.now
        var reported: Duration = .zero
        var usesReported = false
        for _ in 0..<count {
            if let duration = try body() {
                reported += duration
                usesReported = true
            }
        }
        samples.append((usesReported ? reported : clock.now - start) / count)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let microseconds = Double(median.components.attoseconds) / 1e12 + Double(median.components.seconds) * 1e6
    let text =
        microseconds < 1_000 ? String(format: "%.2f µs", microseconds) : String(format: "%.2f ms", microseconds / 1_000)
    print("| \(name) | \(text) |")
}

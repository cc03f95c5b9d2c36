/// The sections of a ``FetchedResultsController``'s results as runs of consecutive equal section
/// names, edited one object at a time as the results change.
///
/// Finding the run of a position is a binary search; an edit shifts the starts of the runs after
/// it (O(*r*) integer additions for *r* runs, like the array edit of the results themselves).
/// Each run's name is counted, and a round keeps a journal of the runs it removed and inserted,
/// so that it reports the sections that came and went in O(*edits*), not O(*r*).
struct FetchedResultsSectionRuns {
    /// Each run's name.
    private(set) var names: [String] = []
    /// Each run's first position in the results.
    private(set) var starts: [Int] = []
    /// The number of positions.
    private(set) var count = 0
    /// How many runs have each name.
    private var runsByName: [String: Int] = [:]
    /// The runs removed and inserted since ``beginRound()``, in order, each at its index then.
    private var edits: [RunEdit] = []
    /// The number of runs of each name the round changed, as it was when the round began.
    private var countsAtRoundStart: [String: Int] = [:]
    /// Whether a round is under way (edits are journaled only then).
    private var inRound = false

    private enum RunEdit {
        case removed(Int, String)
        case inserted(Int, String)
    }

    /// Past this many edits in a round, ``endRound()`` rebuilds the round's starting names
    /// (O(*r*)) instead of tracing each edit through the others (O(*edits*²)).
    private static let traceLimit = 256

    /// The runs of `names` (one per result).
    init(_ names: [String]) {
        for (position, name) in names.enumerated() where self.names.last != name {
            self.names.append(name)
            starts.append(position)
            runsByName[name, default: 0] += 1
        }
        count = names.count
    }

    /// How many runs have `name`.
    func runs(named name: String) -> Int { runsByName[name] ?? 0 }

    /// The run holding `position`.
    func run(at position: Int) -> Int {
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= position { low = middle } else { high = middle }
        }
        return low
    }

    /// The end (exclusive) of run `run`.
    func end(of run: Int) -> Int { run + 1 < starts.count ? starts[run + 1] : count }

    /// Removes the result at `position`.
    mutating func remove(at position: Int) {
        let run = run(at: position)
        shiftStarts(after: run, by: -1)
        count -= 1
        guard end(of: run) == starts[run] else { return }
        // The run is empty: it goes, and its neighbours join if they share a name.
        removeRun(run)
        if run > 0, run < names.count, names[run - 1] == names[run] { removeRun(run) }
    }

    /// Inserts a result named `name` at `position`.
    mutating func insert(_ name: String, at position: Int) {
        let left = position > 0 ? run(at: position - 1) : nil
        let right = position < count ? run(at: position) : nil
        count += 1
        if let left, names[left] == name {
            shiftStarts(after: left, by: 1)
        } else if let right, names[right] == name {
            shiftStarts(after: right, by: 1)
        } else if let left, left == right {
            // Inside a run of another name: it splits around the new one.
            shiftStarts(after: left, by: 1)
            insertRun(names[left], start: position + 1, at: left + 1)
            insertRun(name, start: position, at: left + 1)
        } else {
            let run = left.map { $0 + 1 } ?? 0
            shiftStarts(after: run - 1, by: 1)
            insertRun(name, start: position, at: run)
        }
    }

    private mutating func shiftStarts(after run: Int, by delta: Int) {
        var index = run + 1
        while index < starts.count {
            starts[index] += delta
            index += 1
        }
    }

    /// Starts recording which names the edits make appear and disappear.
    mutating func beginRound() {
        edits = []
        countsAtRoundStart = [:]
        inRound = true
    }

    /// The section changes of the edits since ``beginRound()``: the indexes (among the runs at the
    /// round's start) of runs whose name no run has any more, and the indexes of runs whose name
    /// no run had; ascending.
    mutating func endRound() -> (deleted: [Int], inserted: [Int]) {
        defer {
            edits = []
            countsAtRoundStart = [:]
            inRound = false
        }
        var gone: Set<String> = []
        var new: Set<String> = []
        for (name, before) in countsAtRoundStart {
            let after = runsByName[name] ?? 0
            if before > 0, after == 0 { gone.insert(name) }
            if before == 0, after > 0 { new.insert(name) }
        }
        if gone.isEmpty && new.isEmpty { return ([], []) }
        if edits.count > Self.traceLimit { return scan(gone: gone, new: new) }
        var deleted: [Int] = []
        var inserted: [Int] = []
        for (position, edit) in edits.enumerated() {
            switch edit {
            case .removed(let index, let name) where gone.contains(name):
                if let start = indexAtRoundStart(ofRunRemovedAt: index, by: position) { deleted.append(start) }
            case .inserted(let index, let name) where new.contains(name):
                if let end = indexAtRoundEnd(ofRunInsertedAt: index, by: position) { inserted.append(end) }
            default: break
            }
        }
        return (deleted.sorted(), inserted.sorted())
    }

    /// Where the run that edit `position` removed from `index` stood when the round began;
    /// `nil` if an earlier edit of the round inserted it.
    private func indexAtRoundStart(ofRunRemovedAt index: Int, by position: Int) -> Int? {
        var index = index
        for edit in edits[..<position].reversed() {
            switch edit {
            case .inserted(let at, _):
                if at == index { return nil }
                if at < index { index -= 1 }
            case .removed(let at, _):
                if at <= index { index += 1 }
            }
        }
        return index
    }

    /// Where the run that edit `position` inserted at `index` stands now; `nil` if a later edit
    /// of the round removed it.
    private func indexAtRoundEnd(ofRunInsertedAt index: Int, by position: Int) -> Int? {
        var index = index
        for edit in edits[(position + 1)...] {
            switch edit {
            case .removed(let at, _):
                if at == index { return nil }
                if at < index { index -= 1 }
            case .inserted(let at, _):
                if at <= index { index += 1 }
            }
        }
        return index
    }

    /// The section changes found by undoing the round's edits on a copy of the run names and
    /// comparing names, for rounds of many edits.
    private func scan(gone: Set<String>, new: Set<String>) -> (deleted: [Int], inserted: [Int]) {
        var namesAtRoundStart = names
        for edit in edits.reversed() {
            switch edit {
            case .inserted(let at, _): namesAtRoundStart.remove(at: at)
            case .removed(let at, let name): namesAtRoundStart.insert(name, at: at)
            }
        }
        let deleted = gone.isEmpty ? [] : namesAtRoundStart.indices.filter { gone.contains(namesAtRoundStart[$0]) }
        let inserted = new.isEmpty ? [] : names.indices.filter { new.contains(names[$0]) }
        return (deleted, inserted)
    }

    private mutating func noteCount(of name: String) {
        guard inRound else { return }
        if countsAtRoundStart[name] == nil { countsAtRoundStart[name] = runsByName[name] ?? 0 }
    }

    private mutating func removeRun(_ run: Int) {
        noteCount(of: names[run])
        if inRound { edits.append(.removed(run, names[run])) }
        let name = names.remove(at: run)
        starts.remove(at: run)
        runsByName[name, default: 0] -= 1
        if runsByName[name] == 0 { runsByName[name] = nil }
    }

    private mutating func insertRun(_ name: String, start: Int, at run: Int) {
        noteCount(of: name)
        if inRound { edits.append(.inserted(run, name)) }
        names.insert(name, at: run)
        starts.insert(start, at: run)
        runsByName[name, default: 0] += 1
    }
}

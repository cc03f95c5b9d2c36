import Foundation
import ObjectGraph

/// A store that wraps another and fails or delays its loads and saves on demand: the double that
/// drives the error paths of the code under test (a full disk, a corrupt file, slow I/O) without
/// touching a disk.
///
/// For example:
/// ```swift
/// let store = FaultInjectingStore()
/// let container = try PersistentContainer.forTesting(model: model, store: store)
/// store.failSave(number: 2, with: FaultInjectingStore.Fault.diskFull)
/// ```
///
/// Saves are counted from 1, including failed ones. A failed save changes nothing in the wrapped
/// store, so the container and its contexts behave exactly as after a real failed save.
public final class FaultInjectingStore: PersistentStore {
    /// Ready-made failures.
    public enum Fault: Error, Equatable, CustomStringConvertible {
        case diskFull, corruptFile, ioFailure

        public var description: String {
            switch self {
            case .diskFull: "simulated: no space left on the device"
            case .corruptFile: "simulated: the store file is damaged"
            case .ioFailure: "simulated: an input/output error"
            }
        }
    }

    private struct Plan {
        var saveFailures: [Int: any Error] = [:]
        var everySave: (any Error)?
        var load: (any Error)?
        var saveDelay: Duration = .zero
        var loadDelay: Duration = .zero
        var saves = 0
        var failedSaves = 0
    }

    /// The store that does the real work.
    public let wrapped: any PersistentStore
    private let plan = Locked(Plan())

    /// A fault-injecting store over `wrapped` (a fresh in-memory store by default).
    public init(wrapping wrapped: any PersistentStore = InMemoryStore()) {
        self.wrapped = wrapped
    }

    /// Fails the save with this number (1 is the next first save ever made), once.
    public func failSave(number: Int, with error: any Error = Fault.diskFull) {
        plan.withLock { $0.saveFailures[number] = error }
    }

    /// Fails the next save, once.
    public func failNextSave(with error: any Error = Fault.diskFull) {
        plan.withLock { $0.saveFailures[$0.saves + 1] = error }
    }

    /// Fails every save until ``clearFaults()``.
    public func failEverySave(with error: any Error = Fault.diskFull) {
        plan.withLock { $0.everySave = error }
    }

    /// Fails loads (opening a container on the store) until ``clearFaults()``.
    public func failLoad(with error: any Error = Fault.corruptFile) {
        plan.withLock { $0.load = error }
    }

    /// Delays every save or load by the given time (slow I/O).
    public func delay(saves: Duration = .zero, loads: Duration = .zero) {
        plan.withLock {
            $0.saveDelay = saves
            $0.loadDelay = loads
        }
    }

    /// Removes every fault and delay.
    public func clearFaults() {
        plan.withLock { plan in
            plan.saveFailures = [:]
            plan.everySave = nil
            plan.load = nil
            plan.saveDelay = .zero
            plan.loadDelay = .zero
        }
    }

    /// How many saves were attempted, failed ones included.
    public var saveAttempts: Int { plan.withLock { $0.saves } }

    /// How many saves failed on purpose.
    public var failedSaves: Int { plan.withLock { $0.failedSaves } }

    public func load(model: ManagedObjectModel) throws -> StoreSnapshot {
        let (error, delay) = plan.withLock { ($0.load, $0.loadDelay) }
        Self.sleep(delay)
        if let error { throw error }
        return try wrapped.load(model: model)
    }

    public func save(_ changes: StoreChangeSet) throws {
        let (error, delay) = plan.withLock { plan -> ((any Error)?, Duration) in
            plan.saves += 1
            let error = plan.saveFailures.removeValue(forKey: plan.saves) ?? plan.everySave
            if error != nil { plan.failedSaves += 1 }
            return (error, plan.saveDelay)
        }
        Self.sleep(delay)
        if let error { throw error }
        try wrapped.save(changes)
    }

    public func close() { wrapped.close() }

    private static func sleep(_ duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
}

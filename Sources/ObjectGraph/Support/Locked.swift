#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value behind a lock that ThreadSanitizer understands: a pthread mutex on Linux (an
/// `os_unfair_lock` on Apple platforms), with `Synchronization.Mutex`'s `withLock` shape.
///
/// The library's shared state (store, coordinator, caches) sits in these instead of `Mutex`
/// because on Linux `Mutex` parks on a futex, which ThreadSanitizer does not intercept: a correct
/// `Mutex` counter shared by four threads reports data races, so a TSan run of the library would
/// be all noise (swift-nio's `NIOLock` wraps a pthread mutex for the same reason). The cost is
/// measured in Docs/Benchmarks.md ("Locks").
///
/// A final class (one allocation: the value and the lock primitive are tail-allocated together
/// in a `ManagedBuffer`, so the primitive never moves, which a pthread mutex requires). Copies of
/// a reference share one lock and one value. It is `Sendable` when the value is (swift-nio's
/// `NIOLockedValueBox` makes the same choice; `Mutex`'s `sending` parameters would need the value
/// to be reached through a pointer, which region checking cannot follow).
///
/// `package`: the testing kit and the test doubles use it too, so that their shared state is
/// visible to TSan as well.
package final class Locked<Value> {
    private let storage: LockedStorage<Value>

    /// A lock around `initialValue`.
    package init(_ initialValue: Value) {
        storage = LockedStorage.create(initialValue)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// Not reentrant: calling `withLock` on the same lock from within `body` deadlocks (a pthread
    /// mutex of the default type, as `Mutex` does).
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try storage.withLock(body)
    }

    /// Runs `body` with exclusive access to the value if the lock is free at once, and returns
    /// what it returns; `nil` without running it if another thread holds the lock.
    package func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result? {
        try storage.withLockIfAvailable(body)
    }
}

// @unchecked: the value is only reached inside `withLock`, which holds the lock.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// The tail-allocated storage of a `Locked`: the value in the header, one lock primitive as the
/// single element.
final class LockedStorage<Value>: ManagedBuffer<LockedStorage<Value>.Slot, LockedStorage<Value>.Primitive> {
    /// The value, and a byte that keeps the header from being empty: with an empty value (a
    /// `Locked<Void>`) the header would have no size and the lock primitive would start at the
    /// value's address, so that ThreadSanitizer took `withLock`'s access to the value for a race
    /// with the next thread's `pthread_mutex_lock`.
    struct Slot {
        var value: Value
        let occupied: UInt8 = 1
    }

    #if canImport(Darwin)
        typealias Primitive = os_unfair_lock
    #else
        typealias Primitive = pthread_mutex_t
    #endif

    static func create(_ value: Value) -> LockedStorage<Value> {
        let buffer = Self.create(minimumCapacity: 1) { _ in Slot(value: value) }
        // The buffer was created by this subclass's `create`, so it is one.
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { primitive in
            #if canImport(Darwin)
                primitive.initialize(to: os_unfair_lock())
            #else
                primitive.initialize(to: pthread_mutex_t())
                // No caller's value reaches the checks on the pthread calls: a default mutex that
                // this storage owns fails to initialize only when the system is out of memory
                // (as any allocation would), and to lock or unlock only if it were not initialized
                // or not held, which `withLock` rules out.
                let status = pthread_mutex_init(primitive, nil)
                precondition(status == 0, "pthread_mutex_init failed (\(status)): the system is out of resources.")
            #endif
        }
        return storage
    }

    deinit {
        // The header (the value) is destroyed by `ManagedBuffer`; the element is ours.
        withUnsafeMutablePointerToElements { primitive in
            #if !canImport(Darwin)
                pthread_mutex_destroy(primitive)
            #endif
            _ = primitive.deinitialize(count: 1)
        }
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result {
        try withUnsafeMutablePointers { (value, primitive) throws(E) -> Result in
            Self.lock(primitive)
            defer { Self.unlock(primitive) }
            return try body(&value.pointee.value)
        }
    }

    func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout Value) throws(E) -> Result
    ) throws(E) -> Result? {
        try withUnsafeMutablePointers { (value, primitive) throws(E) -> Result? in
            guard Self.tryLock(primitive) else { return nil }
            defer { Self.unlock(primitive) }
            return try body(&value.pointee.value)
        }
    }

    /// Takes the lock if it is free; `false` if another thread holds it.
    static func tryLock(_ primitive: UnsafeMutablePointer<Primitive>) -> Bool {
        #if canImport(Darwin)
            os_unfair_lock_trylock(primitive)
        #else
            pthread_mutex_trylock(primitive) == 0
        #endif
    }

    static func lock(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            let status = pthread_mutex_lock(primitive)
            precondition(status == 0, "pthread_mutex_lock failed (\(status)).")
        #endif
    }

    static func unlock(_ primitive: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            let status = pthread_mutex_unlock(primitive)
            precondition(status == 0, "pthread_mutex_unlock failed (\(status)).")
        #endif
    }
}

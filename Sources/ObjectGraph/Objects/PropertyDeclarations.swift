import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `@Attribute` and `@Relationship` declarations say (types, defaults, options), captured
/// while a class's entity is derived from a prototype instance.
///
/// The wrappers themselves store only a slot cache, so that every object stays small and cheap to
/// create; their initializers hand the declaration's options to the recorder only while a
/// derivation runs on the current thread.
@usableFromInline
enum PropertyDeclarations {
    /// How many derivations are running, on any thread; wrappers skip the recorder while zero.
    @usableFromInline static let activeDerivations = Atomic<Int>(0)

    /// Whether a derivation may be recording (on this or another thread).
    @inlinable static var mayBeRecording: Bool { activeDerivations.load(ordering: .relaxed) > 0 }

    /// One recorded declaration: the wrapper's type and how to describe the property by name.
    struct Declaration {
        let wrapperType: Any.Type
        let derive: (String) -> DerivedProperty
    }

    /// The declarations recorded on one thread, in initialization order.
    final class Recorder {
        var declarations: [Declaration] = []
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Could not create a thread-local key (pthread_key_create returned \(status)).")
        return key
    }()

    /// Runs `body` (which creates a prototype object) and returns the declarations its wrappers
    /// recorded on this thread, in the order they were initialized.
    static func recording<T>(_ body: () throws -> T) rethrows -> (T, [Declaration]) {
        let recorder = Recorder()
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, Unmanaged.passUnretained(recorder).toOpaque())
        activeDerivations.add(1, ordering: .relaxed)
        defer {
            activeDerivations.subtract(1, ordering: .relaxed)
            pthread_setspecific(threadKey, previous)
        }
        let result = try withExtendedLifetime(recorder) { try body() }
        return (result, recorder.declarations)
    }

    /// Adds a declaration to this thread's recorder, if a derivation runs on this thread.
    static func record(_ wrapperType: Any.Type, _ derive: @escaping (String) -> DerivedProperty) {
        guard let pointer = pthread_getspecific(threadKey) else { return }
        let recorder = Unmanaged<Recorder>.fromOpaque(pointer).takeUnretainedValue()
        recorder.declarations.append(Declaration(wrapperType: wrapperType, derive: derive))
    }
}

import FuzzSupport

// Built with -DFUZZING (scripts/fuzz.sh), this is a libFuzzer target: libFuzzer supplies main()
// and calls the entry point below with each input. Built without it (the ordinary build), it is a
// command that replays inputs given as arguments, for reproducing a crash under a debugger.
#if FUZZING
    /// libFuzzer's entry point: one input, always returning 0 (a violation traps instead).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzTarget.predicateFormat.fuzz(data, size)
        return 0
    }
#else
    @main
    enum FuzzPredicateFormat {
        static func main() { FuzzTarget.predicateFormat.replayMain() }
    }
#endif

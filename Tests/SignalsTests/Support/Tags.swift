#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Tag {
    /// The test, or every test of the suite, starts threads: `Thread`, `pthread_create`,
    /// `DispatchQueue.concurrentPerform`, a queue of its own or a global one, a stage or source
    /// on a context other than `.direct` and virtual time, or a helper that does one of these
    /// (`runThreads`, `startThread`, `raceRounds`, `onThread`, ...). CI runs exactly the tests
    /// with this tag a second time under ThreadSanitizer (scripts/tsan-tests);
    /// `ThreadTagCoverageTests` (SignalsHarnessTests) fails for a test that starts threads
    /// without it, so a new threaded test cannot miss that run.
    @Tag static var startsThreads: Self
}

extension Trait where Self == ConditionTrait {
    /// For a test whose only thread hosts a small stack (`onThread`, `runOnSmallStack`) while
    /// the test waits for it: disabled under ThreadSanitizer. Nothing runs beside that thread,
    /// so TSan has no pair of accesses to check, and instrumented, the graphs of 100,000 stages
    /// and more these tests build take tens of seconds each (about 550 s together, of a 750 s
    /// TSan run on the 2-core VM). Their stack bound is checked by the other builds. A test
    /// that also races threads of its own (`DepthBoundPromiseTests`) does not take this.
    static var stackThreadOnly: Self {
        .disabled(if: ThreadSanitizer.isActive, "its thread only hosts a small stack while the test waits: nothing for ThreadSanitizer to check")
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked in).
enum ThreadSanitizer {
    static let isActive: Bool = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, "__tsan_init") != nil
    }()
}

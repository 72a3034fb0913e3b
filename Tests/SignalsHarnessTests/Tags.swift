#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Tag {
    /// The test, or every test of the suite, starts threads: `Thread`, `pthread_create`, a
    /// `StressRunner`, a subject or workload run off the cooperative pool (`offPool`), or
    /// anything else `ThreadTagCoverageTests` looks for. CI runs exactly the tests with this
    /// tag a second time under ThreadSanitizer (scripts/tsan-tests). The same tag as
    /// SignalsTests' (a tag is its name), declared again because each test target is a module
    /// of its own.
    @Tag static var startsThreads: Self
}

/// Whether this process runs under ThreadSanitizer (its runtime is linked in). A tagged test
/// whose premise ThreadSanitizer breaks (a race planted on purpose, the malloc family it
/// defines itself) is disabled there, with the reason, instead of losing its tag.
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

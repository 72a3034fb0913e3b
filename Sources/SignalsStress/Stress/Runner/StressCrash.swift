import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names the scenario, variant, iteration and seed when the process crashes (a fatal signal:
/// a stack overflow, a use after free…), which no arbiter can classify.
///
/// The banner for the running iteration is written into a fixed buffer before it starts; the
/// signal handler only copies it to stderr with `write` (async-signal-safe) and re-raises the
/// signal. Worker threads run their handler on an alternate stack, so a stack overflow is
/// reported too.
package enum StressCrashReporter {
    nonisolated(unsafe) static var banner: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var bannerLength = 0
    static let capacity = 1024
    static let installed = Atomic<Bool>(false)

    /// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (the command line
    /// does this; the tests do not, so the test runner keeps its own handling).
    package static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        banner = .allocate(capacity: capacity)
        banner!.initialize(repeating: 0, count: capacity)
        setBanner("bench stress crashed outside an iteration\n")
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                if let b = StressCrashReporter.banner {
                    _ = write(2, b, StressCrashReporter.bannerLength)
                }
                signal(sig, SIG_DFL)
                raise(sig)
            }
            action.sa_flags = Int32(SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
        addAlternateStack()
    }

    /// Gives the calling thread an alternate signal stack (a no-op unless installed).
    static func addAlternateStack() {
        guard installed.load(ordering: .acquiring) else { return }
        let size = 1 << 16
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
    }

    /// Sets the text printed on a crash.
    static func setBanner(_ text: String) {
        guard let b = banner else { return }
        let bytes = Array(text.utf8.prefix(capacity - 1))
        bannerLength = 0
        for (i, c) in bytes.enumerated() { b[i] = CChar(bitPattern: c) }
        bannerLength = bytes.count
    }
}

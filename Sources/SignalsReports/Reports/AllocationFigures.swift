import Foundation

/// What a report says when its run has no allocation figures, and where the jemalloc that
/// would give them is. Read when the report is rendered (`AllocationMeter` in SignalsWorkloads
/// does the counting).
package enum AllocationFigures {
    /// Where a preloadable jemalloc is, if installed (Debian/Ubuntu `libjemalloc2`).
    package static func jemallocLibraryPath() -> String? {
        let candidates = [
            "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
            "/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2",
        ]
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// How to get allocation figures, said once per run when they are missing (neither
    /// jemalloc nor the interposer: a sanitizer build, or not Linux).
    package static var howToEnable: String {
        if jemallocLibraryPath() != nil {
            return "no allocation figures: the malloc interposer is not active in this build (a sanitizer build, or not Linux); run with --allocator jemalloc (or the default --allocator auto)"
        }
        return "no allocation figures: the malloc interposer is not active in this build (a sanitizer build, or not Linux); install jemalloc (`apt-get install libjemalloc-dev`) and run again (--allocator auto picks it up)"
    }
}

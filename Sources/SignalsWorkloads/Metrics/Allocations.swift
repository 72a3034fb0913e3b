#if canImport(Glibc)
import Glibc
#endif
import AllocationCounter
import SignalsReports

/// Process-wide allocation counters, read one of two ways (`Method`):
///
/// - **jemalloc**, when the process runs on jemalloc (bench preloads it by default where it
///   is installed): its own statistics, read through `mallctl`, found with `dlsym` so the
///   harness neither links jemalloc nor needs it.
/// - **interposer**, otherwise: the `AllocationCounter` C target defines the malloc family
///   in the executable, counts each request per thread and forwards it to the system
///   allocator unchanged (see `AllocationCounter.c`). Requested bytes, exact counts, no
///   caches to flush. Not available under a sanitizer (then `shared` is nil and reports say
///   how to get the figures).
///
/// What jemalloc's method measures, honestly: process-wide totals (every thread, harness threads included)
/// of jemalloc's cumulative allocation *requests* (`stats.arenas.<all>.{small,large}.nrequests`,
/// which include requests served from thread caches), and bytes as the sum over size classes
/// of requests × class size (so bytes are rounded up to jemalloc's size classes).
///
/// Why the thread caches are flushed: a request served from a thread's cache is counted in
/// that cache and only added to the arena totals when the cache is flushed (by jemalloc's
/// incremental GC, at an unpredictable moment, or at thread exit). Reading the totals without
/// a flush counted whatever the GC happened to merge: churn read 0.15 and 3.2 allocations
/// per pair on the same build, against exactly 3.0 under callgrind. So `snapshot()` flushes
/// the calling thread's cache first, and every thread the harness starts for a measured part
/// calls `flushThreadCache()` before it is released and again before it finishes, so each
/// boundary sees every request made before it. (Threads the harness does not own, Dispatch's
/// and the async runtime's, are still merged lazily; no target depends on them.)
package final class AllocationMeter: @unchecked Sendable {
    /// How the counts are read.
    package enum Method: String, Sendable {
        /// jemalloc's statistics (`mallctl`): requests, bytes rounded up to its size classes.
        case jemalloc
        /// The `AllocationCounter` interposer on malloc/calloc/realloc/posix_memalign/
        /// aligned_alloc/memalign: requests and requested bytes, per thread, summed.
        case interposer
    }
    typealias MallctlFn = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                          UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32

    package struct Snapshot: Sendable, Equatable {
        package var count: UInt64
        package var bytes: UInt64
        package init(count: UInt64, bytes: UInt64) { self.count = count; self.bytes = bytes }
    }

    package static let jemallocSource = "jemalloc process-wide nrequests, thread caches flushed at both ends; bytes by size class; median of repetitions"
    package static let interposerSource = "interposer on the malloc family, every thread's requests; requested bytes; median of repetitions"

    /// jemalloc's statistics when jemalloc is the process's allocator (with statistics
    /// compiled in), else the interposer when it is active, else nil.
    package static let shared: AllocationMeter? = jemalloc() ?? interposer()

    /// The jemalloc meter, or nil when jemalloc is not the allocator.
    package static func jemalloc() -> AllocationMeter? { AllocationMeter() }

    /// The interposer's meter, or nil when the malloc family does not go through it (not
    /// Linux, or a sanitizer build). Works whatever the allocator behind it.
    package static func interposer() -> AllocationMeter? {
        signals_allocation_counter_active() != 0 ? AllocationMeter(interposer: ()) : nil
    }

    /// The calling thread's requests under the interposer (nil when it is not active): a
    /// value to subtract from a later one taken on the same thread.
    package static func interposerThreadSnapshot() -> Snapshot? {
        guard signals_allocation_counter_active() != 0 else { return nil }
        let t = signals_allocation_counter_thread()
        return Snapshot(count: t.count, bytes: t.bytes)
    }

    package let method: Method

    /// What the counters are, for the report.
    package var source: String { method == .jemalloc ? Self.jemallocSource : Self.interposerSource }

    private let mallctl: MallctlFn?
    private let binSizes: [UInt64]
    private let lextentSizes: [UInt64]
    /// Counter names as C strings, built once: building them per snapshot would allocate, and
    /// those allocations would be counted in the next interval.
    private let countNames: [[CChar]]
    private let binNames: [[CChar]]
    private let lextentNames: [[CChar]]

    private init(interposer: Void) {
        method = .interposer
        mallctl = nil
        binSizes = []
        lextentSizes = []
        countNames = []
        binNames = []
        lextentNames = []
    }

    private init?() {
        method = .jemalloc
        guard let mallctl = cFunction(named: "mallctl", as: MallctlFn.self) else { return nil }
        self.mallctl = mallctl
        // Statistics must be compiled in, or every counter reads as zero.
        var stats = false
        var len = MemoryLayout<Bool>.size
        guard mallctl("config.stats", &stats, &len, nil, 0) == 0, stats else { return nil }
        func readUInt32(_ name: String) -> UInt32? {
            var v: UInt32 = 0
            var l = MemoryLayout<UInt32>.size
            return mallctl(name, &v, &l, nil, 0) == 0 ? v : nil
        }
        func readSize(_ name: String) -> UInt64? {
            var v: Int = 0
            var l = MemoryLayout<Int>.size
            return mallctl(name, &v, &l, nil, 0) == 0 ? UInt64(v) : nil
        }
        guard let nbins = readUInt32("arenas.nbins"), let nlext = readUInt32("arenas.nlextents") else { return nil }
        binSizes = (0..<Int(nbins)).map { readSize("arenas.bin.\($0).size") ?? 0 }
        lextentSizes = (0..<Int(nlext)).map { readSize("arenas.lextent.\($0).size") ?? 0 }
        // 4096 is MALLCTL_ARENAS_ALL: all arenas merged.
        countNames = ["stats.arenas.4096.small.nrequests", "stats.arenas.4096.large.nrequests"].map { Array($0.utf8CString) }
        binNames = (0..<Int(nbins)).map { Array("stats.arenas.4096.bins.\($0).nrequests".utf8CString) }
        lextentNames = (0..<Int(nlext)).map { Array("stats.arenas.4096.lextents.\($0).nrequests".utf8CString) }
    }

    private func readUInt64(_ name: [CChar]) -> UInt64 {
        var v: UInt64 = 0
        var l = MemoryLayout<UInt64>.size
        guard let mallctl else { return 0 }
        return name.withUnsafeBufferPointer { mallctl($0.baseAddress, &v, &l, nil, 0) } == 0 ? v : 0
    }

    /// Merges the calling thread's cache counters into the arena totals
    /// (`thread.tcache.flush`; merges even bins with nothing cached). Cheap, and allocates nothing.
    /// Nothing to do for the interposer, whose counts are current.
    package func flushThreadCache() {
        guard let mallctl else { return }
        _ = Self.flushName.withUnsafeBufferPointer { mallctl($0.baseAddress, nil, nil, nil, 0) }
    }

    private static let flushName = Array("thread.tcache.flush".utf8CString)

    /// Flushes the calling thread's cache, refreshes jemalloc's statistics ("epoch") and reads
    /// the cumulative totals.
    /// The interposer's: the sum of every thread's counters.
    package func snapshot() -> Snapshot {
        guard let mallctl else {
            let t = signals_allocation_counter_process()
            return Snapshot(count: t.count, bytes: t.bytes)
        }
        flushThreadCache()
        var epochOut: UInt64 = 0
        var epochIn: UInt64 = 1
        var l = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &epochOut, &l, &epochIn, MemoryLayout<UInt64>.size)
        let count = readUInt64(countNames[0]) &+ readUInt64(countNames[1])
        var bytes: UInt64 = 0
        for j in binSizes.indices where binSizes[j] > 0 {
            bytes &+= readUInt64(binNames[j]) &* binSizes[j]
        }
        for j in lextentSizes.indices where lextentSizes[j] > 0 {
            bytes &+= readUInt64(lextentNames[j]) &* lextentSizes[j]
        }
        return Snapshot(count: count, bytes: bytes)
    }
}

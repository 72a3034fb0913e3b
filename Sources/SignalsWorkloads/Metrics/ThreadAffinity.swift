import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The CPUs a thread may run on, read and set for the calling thread (Linux; elsewhere every
/// call is a no-op and `allowedCPUs()` is nil, so callers leave placement to the scheduler).
///
/// Used where a measurement depends on which threads share a CPU: the cross-core probe, which
/// must put its two threads on two different CPUs that the process may use (under `taskset -c
/// 2,3`, CPUs 0 and 1 are not among them) and give the caller its own mask back afterwards;
/// and the `churn` driver, whose paced sender the scheduler sometimes leaves on the measured
/// thread's CPU (docs/design/churn.md, "The convoy and the placement").
package enum ThreadAffinity {
    /// An affinity mask as the kernel takes it.
    package struct Mask: Equatable, Sendable {
        var bytes: [UInt8]

        /// The CPUs in the mask, ascending.
        package var cpus: [Int] {
            var out: [Int] = []
            for (i, byte) in bytes.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 { out.append(i * 8 + bit) }
            }
            return out
        }

        /// A mask of exactly `cpus` (CPUs beyond the mask's size are ignored).
        package init(cpus: [Int], size: Int = Mask.size) {
            bytes = [UInt8](repeating: 0, count: size)
            for cpu in cpus where cpu >= 0 && cpu < size * 8 { bytes[cpu / 8] |= UInt8(1 << (cpu % 8)) }
        }

        /// The size of glibc's `cpu_set_t` (1,024 CPUs).
        package static var size: Int {
            #if os(Linux)
            MemoryLayout<cpu_set_t>.size
            #else
            128
            #endif
        }
    }

    /// The calling thread's mask, or nil where the platform has none.
    package static func current() -> Mask? {
        #if os(Linux)
        guard let get = getFunction else { return nil }
        var mask = Mask(cpus: [])
        let rc = mask.bytes.withUnsafeMutableBytes { get(0, $0.count, $0.baseAddress!) }
        return rc == 0 ? mask : nil
        #else
        return nil
        #endif
    }

    /// The CPUs the calling thread may run on, ascending (nil where the platform cannot say).
    package static func allowedCPUs() -> [Int]? { current()?.cpus }

    /// Restricts the calling thread to `mask`; true if the kernel took it. A thread started
    /// afterwards from this one inherits the mask.
    @discardableResult
    package static func set(_ mask: Mask) -> Bool {
        #if os(Linux)
        guard let set = setFunction else { return false }
        return mask.bytes.withUnsafeBytes { set(0, $0.count, $0.baseAddress!) } == 0
        #else
        return false
        #endif
    }

    /// Restricts the calling thread to one CPU; true if the kernel took it.
    @discardableResult
    package static func pin(toCPU cpu: Int) -> Bool { set(Mask(cpus: [cpu])) }

    #if os(Linux)
    /// glibc declares the affinity calls only under `_GNU_SOURCE`, which Swift's Glibc module
    /// does not define: look the symbols up instead (`cFunction`).
    typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    typealias SetAffinityCall = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
    static let getFunction = cFunction(named: "sched_getaffinity", as: AffinityCall.self)
    static let setFunction = cFunction(named: "sched_setaffinity", as: SetAffinityCall.self)
    #endif
}

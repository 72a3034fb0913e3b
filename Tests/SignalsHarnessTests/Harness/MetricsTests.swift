import Foundation
import SignalsReports
import SignalsWorkloads
import Synchronization
import Testing

final class Payload {
    var x = 0
}

@Suite("metrics", .serialized)
struct MetricsTests {
    /// Runs only with jemalloc preloaded (`LD_PRELOAD=libjemalloc.so.2`): the counters must see
    /// allocations served from the thread cache too. The bounds are loose: jemalloc merges
    /// thread-cache counters without synchronizing with their owners, so a snapshot taken while
    /// other threads allocate can be a few percent off either way.
    @Test func jemallocCountsEveryAllocation() {
        guard let meter = AllocationMeter.jemalloc() else { return }
        var keep: [Payload] = []
        keep.reserveCapacity(1_000)
        let a = meter.snapshot()
        for _ in 0..<1_000 { keep.append(Payload()) }
        let b = meter.snapshot()
        #expect(keep.count == 1_000)
        #expect(b.count - a.count >= 900 && b.count - a.count < 1_300, "counted \(b.count - a.count)")
        #expect(b.bytes - a.bytes >= 1_000 * 32, "bytes \(b.bytes - a.bytes)")
    }

    /// Runs only with jemalloc preloaded (`LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
    /// swift test --filter MetricsTests`). Two sender threads each allocate 100 objects (served
    /// from their thread caches, too few for jemalloc's incremental GC to flush them) inside the
    /// measured interval: without the flushes the arena totals have not seen those requests
    /// and the count can come out short (seen without them: 117 of 200, in 1 of 3 runs; the
    /// other runs had threads exit, which merges, before the snapshot). Other suites may allocate
    /// concurrently, so the upper bound is loose.
    @Test func allocationsOnSenderThreadsAreCountedInFull() {
        guard let meter = AllocationMeter.jemalloc() else { return }
        struct Allocating: ValueSender {
            let slots: UnsafeMutablePointer<Payload?>
            func send(_ v: Int) { slots[v & 0xffff_ffff] = Payload() }
        }
        let per = 100
        let slots = (0..<2).map { _ in UnsafeMutablePointer<Payload?>.allocate(capacity: per) }
        for s in slots { s.initialize(repeating: nil, count: per) }
        defer { for s in slots { s.deinitialize(count: per); s.deallocate() } }
        let ctx = RunContext(spec: CaseSpec(workload: .contended, caseLabel: "2 threads", threads: 2), operations: 2 * per, meter: meter)
        ctx.runSenders(threads: 2, perThread: per) { Allocating(slots: slots[$0]) }
        ctx.stopClock()
        let counted = ctx.allocationsCounted?.count ?? 0
        #expect(counted >= UInt64(2 * per) && counted < UInt64(2 * per) + 2_000, "counted \(counted) of \(2 * per)")
    }

    @Test func latencySummaryPercentiles() throws {
        let r = LatencyRecorder()
        for v in 1...1_000 { r.record(UInt64(v)) }
        let s = try #require(LatencyRecorder.summary(of: [r, LatencyRecorder()]))
        #expect(s.count == 1_000)
        #expect(abs(Int(s.p50) - 500) <= 1)
        #expect(abs(Int(s.p99) - 990) <= 1)
        #expect(s.max == 1_000)
        #expect(s.distribution.first?.percentile ?? 100 < 1)
        #expect(s.distribution.last?.percentile == 100)
    }

    /// A send-call round times one send in N and gives the handler no sampler (it stores
    /// nothing); an end-to-end round has the handler store one timestamp per sampled value.
    @Test func samplerTimesOneInN() {
        struct Direct: ValueSender {
            let c: DeliveryChecker
            func send(_ v: Int) { c.receive(v) }
        }
        let spec = CaseSpec(workload: .contended, caseLabel: "2 threads", threads: 2)
        let call = LatencySampler(mode: .sendCall, sampleEvery: 8, senders: 2, valuesPerSender: 400)
        let ctx = RunContext(spec: spec, operations: 800, sampler: call)
        let c = ctx.makeChecker(senders: 2)
        #expect(!c.stampsLatency)
        ctx.sendAll(Direct(c: c), count: 400, sender: 0)
        ctx.sendAll(Direct(c: c), count: 400, sender: 1)
        let s = call.summaries(clockCostNs: 0)
        #expect(s.raw?.count == 100)
        #expect(c.verify(sent: [400, 400]).violations.isEmpty)

        let e2e = LatencySampler(mode: .endToEnd, sampleEvery: 8, senders: 2, valuesPerSender: 400)
        let ctx2 = RunContext(spec: spec, operations: 800, sampler: e2e)
        let c2 = ctx2.makeChecker(senders: 2)
        #expect(c2.stampsLatency)
        ctx2.sendAll(Direct(c: c2), count: 400, sender: 0)
        ctx2.sendAll(Direct(c: c2), count: 400, sender: 1)
        let e = e2e.summaries(clockCostNs: 0)
        #expect(e.raw?.count == 100)
        #expect(c2.verify(sent: [400, 400]).violations.isEmpty)
    }

    /// Samples beyond the storage allocated before the round are dropped, never written past it.
    @Test func samplerDropsSamplesBeyondItsStorage() {
        let sampler = LatencySampler(mode: .sendCall, sampleEvery: 4, senders: 1, valuesPerSender: 40)
        let ctx = RunContext(spec: CaseSpec(workload: .send), operations: 400, sampler: sampler)
        let c = ctx.makeChecker(senders: 1)
        struct Direct: ValueSender {
            let c: DeliveryChecker
            func send(_ v: Int) { c.receive(v) }
        }
        ctx.sendAll(Direct(c: c), count: 400)
        #expect(sampler.summaries(clockCostNs: 0).raw?.count == 11)
    }

    /// The clock's cost is taken off every sample (floored at 0); the raw summary keeps it.
    @Test func clockCostIsSubtractedFromEverySample() throws {
        let sampler = LatencySampler(mode: .sendCall, sampleEvery: 1, senders: 1, valuesPerSender: 100)
        for i in 0..<100 { sampler.store(sender: 0, index: i, UInt64((Double(100 + i) / LatencyClock.nsPerTick).rounded())) }
        let s = sampler.summaries(clockCostNs: 100)
        let raw = try #require(s.raw), corrected = try #require(s.corrected)
        #expect(raw.count == 100 && corrected.count == 100)
        #expect(abs(Int(raw.p50) - Int(corrected.p50) - 100) <= 2, "raw \(raw.p50), corrected \(corrected.p50)")
        let floored = sampler.summaries(clockCostNs: 1_000).corrected
        #expect(floored?.max ?? 99 <= 1)
    }
}

@Suite("cross-core probe")
struct CrossCoreProbeTests {
    /// The probe answers on a machine with two CPUs, with a figure a cache line can take (a
    /// round trip is two line transfers: tens to hundreds of ns; 1 ms would mean the partner
    /// was not running, which the probe reports as nil rather than as a figure).
    @Test func measuresARoundTrip() throws {
        guard ProcessInfo.processInfo.activeProcessorCount >= 2 else { return }
        let ns = try #require(CrossCoreProbe.roundTripNs(roundTrips: 500, batches: 3))
        #expect(ns > 1 && ns < 1_000_000, "\(ns) ns")
    }

    /// The probe gives the calling thread its own CPU mask back (it pins itself for the
    /// measurement): a launch confined with `taskset` stays where it was put.
    @Test func restoresTheCallersMask() throws {
        #if os(Linux)
        let before = try #require(ThreadAffinity.current())
        guard before.cpus.count >= 2 else { return }
        _ = CrossCoreProbe.roundTripNs(roundTrips: 100, batches: 1)
        #expect(ThreadAffinity.current() == before)
        #endif
    }

    /// Each launch's probe travels in the child's counters; the merge keeps them launch by
    /// launch (and drops the counter), and the report counts launches in a slow phase.
    @Test func launchesCarryTheirProbeIntoTheReport() {
        let spec = CaseSpec(workload: .contended, threads: 2)
        let probes = [50, 60, 380, 55, 52, 58]
        let launches: [[CaseResult]] = probes.enumerated().map { i, probe in
            var r = CaseResult(spec: spec, subject: .lockfree, status: .ok)
            r.throughput = ThroughputStats(operations: 1000, repetitionsNsPerOp: [20 + Double(i), 21, 22])
            r.counters = [CrossCoreProbe.counterName: probe]
            return [r]
        }
        let merged = Runner.merge(launches: launches, subjects: [.lockfree], spec: spec, parameters: Parameters())
        #expect(merged.first?.launchCrossCoreNs == probes.map(Double.init))
        #expect(merged.first?.counters[CrossCoreProbe.counterName] == nil)
        let machine = MachineInfo(cores: 2, cpuModel: "Test CPU", toolchain: "Swift 6.3", buildConfiguration: "release",
                                  allocator: "jemalloc", os: "Linux", date: "2026-01-01T00:00:00Z")
        let text = TextReport.render(BenchReport(machine: machine, parameters: Parameters(), results: merged, targets: []))
        #expect(text.contains("cross-core round trip beside the launches: median 56.5 ns, 50.0–380"), "\(text)")
        #expect(text.contains("1 of 6 launches in a slow phase of the machine"))
        #expect(WorkloadID.contended.runsSeveralThreads && !WorkloadID.sendMap.runsSeveralThreads)
    }
}

@Suite("thread affinity")
struct ThreadAffinityTests {
    /// A mask holds exactly the CPUs it was made of, ascending, and ignores CPUs it cannot hold.
    @Test func maskRoundTrip() {
        #expect(ThreadAffinity.Mask(cpus: [9, 0, 3]).cpus == [0, 3, 9])
        #expect(ThreadAffinity.Mask(cpus: [1, 8, -1, 20], size: 2).cpus == [1, 8])
        #expect(ThreadAffinity.Mask(cpus: []).cpus.isEmpty)
    }

    /// Pinning confines the thread to that CPU, and setting the old mask undoes it. Runs on a
    /// thread of its own, so the test runner's threads keep their masks whatever happens.
    @Test(.tags(.startsThreads)) func pinAndRestore() throws {
        #if os(Linux)
        let result = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            guard let before = ThreadAffinity.current(), let last = before.cpus.last else {
                result.withLock { $0.append("no mask") }
                return
            }
            var seen: [String] = []
            if !ThreadAffinity.pin(toCPU: last) { seen.append("pin refused") }
            if ThreadAffinity.allowedCPUs() != [last] { seen.append("pinned: \(ThreadAffinity.allowedCPUs() ?? [])") }
            if !ThreadAffinity.set(before) { seen.append("restore refused") }
            if ThreadAffinity.current() != before { seen.append("restored: \(ThreadAffinity.allowedCPUs() ?? [])") }
            result.withLock { $0 = seen }
        }
        thread.start()
        done.wait()
        #expect(result.withLock { $0 }.isEmpty, "\(result.withLock { $0 })")
        #endif
    }
}

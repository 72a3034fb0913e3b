import Foundation
import Signals
import SignalsReports
import SignalsWorkloadRegistry
import SignalsWorkloads
import Testing

/// The workload registry against the files that name its parts: a declaration renamed, dropped
/// or added without its committed figures would otherwise leave a threshold file or a count
/// that nothing checks any more, or a benchmark or case that nothing gates.
@Suite("workload registry")
struct WorkloadRegistryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func namesAreDistinct() {
        let all = WorkloadRegistry.all
        #expect(Set(all.map(\.name)).count == all.count)
        let cases = all.compactMap(\.instructions).map(\.name)
        #expect(Set(cases).count == cases.count)
        let benchmarks = all.flatMap(\.benchmarks).map(\.name)
        #expect(Set(benchmarks).count == benchmarks.count)
        // package-benchmark 1.38.1 writes a threshold file with these replaced by "_" but
        // reads it back by the unmodified name.
        #expect(benchmarks.allSatisfy { !$0.contains(" ") && !$0.contains("/") }, "\(benchmarks)")
    }

    /// Every benchmark of every variant has its thresholds, and every threshold file its benchmark.
    @Test func everyBenchmarkHasItsThresholds() throws {
        let folder = Self.root.appendingPathComponent("Benchmarks/Thresholds")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".p90.json") })
        let expected = Set(WorkloadRegistry.all.flatMap(\.benchmarks).flatMap { b in
            DeliveryVariant.allCases.map { "DeliveryVariants.\(b.name).\($0.rawValue).p90.json" }
        })
        #expect(files == expected, "without a benchmark: \(files.subtracting(expected).sorted()); without thresholds: \(expected.subtracting(files).sorted())")
    }

    /// Every instruction case has its committed count for both variants, and every committed
    /// count its case (`stage` is derived from send-map and chain by the script).
    @Test func everyInstructionCaseHasItsCounts() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Benchmarks/Instructions/counts.tsv"), encoding: .utf8)
        let rows = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            line.split(separator: "\t").prefix(2).joined(separator: " ")
        })
        let names = InstructionCase.allCases.map(\.rawValue) + ["stage"]
        let expected = Set(names.flatMap { n in ["lockfree \(n)", "mutex \(n)"] })
        #expect(rows == expected, "without a case: \(rows.subtracting(expected).sorted()); without counts: \(expected.subtracting(rows).sorted())")
    }

    /// `bench run`'s workloads are the registry's, in its order, with their summaries.
    @Test func benchWorkloadsComeFromTheRegistry() {
        let declared = WorkloadRegistry.all.filter { $0.bench != nil }
        #expect(WorkloadID.allCases.map(\.rawValue) == declared.map(\.name))
        #expect(WorkloadID.allCases.map(\.summary) == declared.map { $0.bench!.summary })
        #expect(WorkloadID(rawValue: "capture") == nil, "a declaration without a bench part is no bench workload")
    }
}

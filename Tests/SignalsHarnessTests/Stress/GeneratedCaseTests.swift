import Foundation
import Signals
import SignalsStress
import Testing

/// The scenario generator (Sources/SignalsStress/Generated/): cases from seeds, shrinking and
/// its replayable names, and the shrunk cases that found defects, pasted as printed and run
/// again on both variants (under the controlled scheduler in debug builds, on free threads in
/// every build), at depth 0 and past the depth bounds.
@Suite(.serialized, .tags(.startsThreads))
struct GeneratedCaseTests {
    @Test func aSeedIsACase() {
        for seed in UInt64(0)..<300 {
            let c = GeneratedCaseGenerator.make(seed: seed)
            #expect(c == GeneratedCaseGenerator.make(seed: seed))
            #expect((2...4).contains(c.threads.count))
            #expect(c.threads.allSatisfy { (1...4).contains($0.count) })
            // Every operation has the input it needs, and only the first thread subscribes again.
            #expect(GeneratedShrinker.normalized(c) == c, "seed \(seed): \(c)")
            for ops in c.threads.dropFirst() {
                #expect(!ops.contains(.resubscribe) && !ops.contains(.release), "seed \(seed): \(c)")
            }
        }
        let distinct = Set((UInt64(0)..<100).map { GeneratedCaseGenerator.make(seed: $0) })
        #expect(distinct.count > 90)
        #expect(GeneratedCaseGenerator.make(seed: 7, maxThreads: 3).threads.count <= 3)
    }

    @Test func aShrunkCaseIsItsSeedAndPath() throws {
        let c = GeneratedCaseGenerator.make(seed: 1234)
        let candidates = GeneratedShrinker.candidates(c)
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { $0 != c && $0.size <= c.size })
        // Shrinking against "contains a send into the primary input" ends at one such send.
        let sends: (GeneratedCase) -> Bool = { $0.threads.joined().contains { if case .send(.primary, _) = $0 { true } else { false } } }
        let seed = try #require((UInt64(0)..<100).first { sends(GeneratedCaseGenerator.make(seed: $0)) })
        let (small, path) = GeneratedShrinker.shrink(GeneratedCaseGenerator.make(seed: seed), fails: sends)
        #expect(small.threads.joined().count == 1)
        #expect(GeneratedShrinker.replay(seed: seed, path: path, maxThreads: 4) == small)
        let name = GeneratedShrinker.caseName(seed: seed, path: path)
        let parsed = try #require(GeneratedShrinker.parseCaseName(name))
        #expect(parsed.seed == seed && parsed.path == path)
        for bad in ["", "x", "1~", "1~a", "1~1..2", "-1", "1~-3", "18446744073709551616", "1~2~3"] {
            #expect(GeneratedShrinker.parseCaseName(bad) == nil, "\(bad)")
        }
        #expect(GeneratedShrinker.replay(seed: 1, path: [100_000 - 1], maxThreads: 4) == nil)
    }

    /// The listing a failure prints is Swift that builds the same case (the test below pastes
    /// such listings).
    @Test func theListingNamesEveryPart() {
        let c = GeneratedCase(source: .junction, steps: [.onEnd(.sleep), .hop(.syncQueue), .fused(70), .nodes(10), .takeUntil(immediate: true)],
                              threads: [[.sendEnd(.primary, error: true)], [.rebind, .pause(microseconds: 500), .send(.primary, count: 2)]])
        let listing = c.swiftListing
        for part in ["source: .junction", ".onEnd(.sleep)", ".hop(.syncQueue)", ".fused(70)", ".nodes(10)", ".takeUntil(immediate: true)",
                     "[.sendEnd(.primary, error: true)]", "[.rebind, .pause(microseconds: 500), .send(.primary, count: 2)]",
                     ".hop(to: .syncQueue())", "70 × .map { $0 }"] {
            #expect(listing.contains(part), "\(part) missing from:\n\(listing)")
        }
    }

    /// The cases the generator found, shrunk and printed (docs/stress.md, "Generated scenarios"),
    /// each at depth 0 and past the bounds.
    static let foundCases: [(String, GeneratedCase)] = [
        // A send racing an end into the same `generate` input: accepted and lost.
        ("generate send against its error", GeneratedCase(
            source: .generate, steps: [],
            threads: [[.send(.primary, count: 1)], [.sendEnd(.primary, error: true)]])),
        ("generate send against its completion", GeneratedCase(
            source: .generate, steps: [],
            threads: [[.sendEnd(.primary, error: false)], [.send(.primary, count: 1)]])),
        ("generate send against its end, past the node bound", GeneratedCase(
            source: .generate, steps: [.nodes(10)],
            threads: [[.send(.primary, count: 2)], [.sendEnd(.primary, error: false)]])),
        ("generate send against its end, past the fused bound", GeneratedCase(
            source: .generate, steps: [.fused(70)],
            threads: [[.send(.primary, count: 2)], [.sendEnd(.primary, error: true)]])),
        // A stale end behind a hop closing the next activation.
        ("stale end behind a hop", GeneratedCase(
            source: .generate, steps: [.onEnd(.sleep), .hop(.global)],
            threads: [[.sendEnd(.primary, error: true)], [.pause(microseconds: 500), .resubscribe, .send(.primary, count: 1)]])),
        ("stale end behind a hop, past the node bound", GeneratedCase(
            source: .generate, steps: [.onEnd(.sleep), .nodes(10), .hop(.serial)],
            threads: [[.sendEnd(.primary, error: true)], [.pause(microseconds: 500), .resubscribe, .send(.primary, count: 1)]])),
        // A cold source behind an immediate takeUntil.
        ("immediate takeUntil", GeneratedCase(source: .generate, steps: [.takeUntil(immediate: true)], threads: [[]])),
        ("immediate takeUntil past the bounds", GeneratedCase(
            source: .sequence, steps: [.nodes(10), .fused(70), .takeUntil(immediate: true), .nodes(10)], threads: [[]])),
        // A merge's other source after the end reached the subscriber, past the bound.
        ("deep merge's other source after the end", GeneratedCase(
            source: .create, steps: [.nodes(10), .merge, .nodes(10)],
            threads: [[.send(.primary, count: 2), .sendEnd(.primary, error: true), .send(.secondary, count: 2)],
                      [.send(.secondary, count: 3)]])),
        // An earlier activation's end, let through by the hop before the cancel, handed down
        // a deep chain of multis after a new subscription re-attached them.
        ("stale end handed down deep multis after a resubscribe", staleEndThroughDeepMultis),
        // A junction rebound to its input while that input's end (from the junction's own
        // source) arrives, behind a merge: the bind must refuse the closed input.
        ("junction rebound while its input's end arrives", GeneratedCase(
            source: .junction, steps: [.merge],
            threads: [[.sendEnd(.primary, error: false)], [.rebind, .send(.primary, count: 1)]])),
    ]

    static let staleEndThroughDeepMultis = GeneratedCase(
        source: .generate, steps: [.hop(.global), .nodes(10)],
        threads: [[.send(.primary, count: 1), .resubscribe, .send(.primary, count: 1)],
                  [.sendEnd(.primary, error: true)],
                  [.cancel]])

    @Test(arguments: foundCases.indices, DeliveryVariant.allCases)
    func foundCasesKeepEveryPromiseOnFreeThreads(_ index: Int, _ variant: DeliveryVariant) {
        let (name, spec) = Self.foundCases[index]
        let problems = GeneratedRun.runFree(spec, delivery: variant, rounds: 60, seconds: 1)
        #expect(problems == nil, "\(name) / \(variant): \(problems ?? [])")
    }

    #if DEBUG
    /// The controlled scheduler is installed for the whole process while a schedule runs, and
    /// other suites' threads reach its points (and return at once): ThreadSanitizer sees those
    /// reads of the scheduler race with its installation. It checks the free-thread runs above;
    /// the schedules, one thread at a time, have nothing for it (as `ExploreTests`, outside its run).
    static let notUnderThreadSanitizer = ConditionTrait.disabled(
        if: ThreadSanitizer.isActive, "one thread at a time under a process-wide scheduler: nothing for ThreadSanitizer to check")

    @Test(notUnderThreadSanitizer, arguments: foundCases.indices, DeliveryVariant.allCases)
    func foundCasesKeepEveryPromiseUnderTheScheduler(_ index: Int, _ variant: DeliveryVariant) {
        let (name, spec) = Self.foundCases[index]
        for strategy in [ExploreStrategyChoice.dfs(preemptions: 2), .pct(depth: 4)] {
            let options = ExploreOptions(strategy: strategy, schedules: 150, seed: 0x6E4E, secondsPerRun: 1.5)
            let r = ExploreRunner.explore(ExploreGeneratedCase(spec), delivery: variant, options: options)
            #expect(r.schedules > 0)
            #expect(r.failure == nil, "\(name) / \(variant): \(r.failure.map { "\($0.problems) at \(ExploreChoices.format($0.choices))" } ?? "")")
        }
    }

    /// `bench explore`'s generated runner: cases from a seed, a failing one shrunk and
    /// reported with its case name (here none fails; the defects it found are fixed).
    @Test(notUnderThreadSanitizer, arguments: DeliveryVariant.allCases)
    func generatedCasesFromASeedPass(_ variant: DeliveryVariant) {
        let options = ExploreOptions(strategy: .pct(depth: 3), schedules: 300, seed: 0xC0FFEE, secondsPerRun: 6)
        let r = GeneratedExplorer.explore(delivery: variant, options: options, caseName: nil, schedulesPerCase: 20)
        #expect(r.cases > 1)
        #expect(r.failure == nil, "\(variant): \(r.failure.map { $0.problems.joined(separator: "\n") } ?? "")")
    }
    #endif
}

import Signals

// The registry's entry for the generated scenarios; the generator, its runs, checks and
// shrinking are in Sources/SignalsStress/Generated/.

/// `generated` in the explore registry. The runner expands it into cases (`GeneratedExplorer`);
/// `make` alone builds the case of seed 0.
package struct ExploreGenerated: ExploreScenario {
    package init() {}
    package let name = "generated"
    package let summary = "random graphs and operations from the seed (GeneratedCaseGenerator), each explored; a failure is shrunk"
    package func make(_ variant: DeliveryVariant) -> ExploreCase {
        ExploreGeneratedCase(GeneratedCaseGenerator.make(seed: 0, maxThreads: GeneratedExplorer.maxThreads)).make(variant)
    }
}

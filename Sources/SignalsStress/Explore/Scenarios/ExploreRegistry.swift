// The registry of `bench explore`: every scenario, in table order. A new scenario is a type
// in a file of Explore/Scenarios/ and one line here.

/// Every scenario of `bench explore`.
package enum ExploreRegistry {
    /// All scenarios, in table order.
    package static var all: [any ExploreScenario] {
        [
            ExploreSendPair(),
            ExploreSendTriple(),
            ExploreReentrantSend(),
            ExploreSendEnd(),
            ExploreEndCancel(),
            ExploreMultiSubscribeCancel(),
            ExploreMultiCancelInHandler(),
            ExploreJunctionRebind(),
            ExploreMergedAddRemove(),
            ExploreCapture(),
            ExploreDeepMergeOrder(),
            ExploreDeepTakeRefusal(),
            ExploreDeepCachedSubscribe(),
            ExploreRebindRace(),
            ExploreReconnectorRace(),
            ExploreRetryRebind(),
            ExploreGenerateStaleEnd(),
            ExploreGenerated(),
        ]
    }

    /// The scenarios named in `names` (all when empty), in registry order; nil and the
    /// unknown names if some are not in the registry.
    package static func select(_ names: [String]) -> Result<[any ExploreScenario], ExploreUnknownScenarios> {
        if names.isEmpty { return .success(all) }
        let known = Set(all.map(\.name))
        let unknown = names.filter { !known.contains($0) }
        if !unknown.isEmpty { return .failure(ExploreUnknownScenarios(names: unknown)) }
        return .success(all.filter { names.contains($0.name) })
    }
}

/// Scenario names that are not in the registry.
package struct ExploreUnknownScenarios: Error, CustomStringConvertible {
    /// The unknown names.
    package let names: [String]
    package var description: String {
        "unknown scenario(s) \(names.joined(separator: ", ")); known: \(ExploreRegistry.all.map(\.name).joined(separator: ", "))"
    }
}

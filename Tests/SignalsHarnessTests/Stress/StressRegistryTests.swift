import Foundation
import SignalsStress
import Testing

/// `bench stress`'s registry against the scenario files: a scenario is a type in the file of
/// its subject in Stress/Scenarios/ and its line in `StressRegistry`, and one whose line is
/// missing would never run, neither in `bench stress` nor in `StressConcurrencyTests`.
@Suite struct StressRegistryTests {
    /// Every labelled scenario type in Stress/Scenarios/ is registered (the registry also holds
    /// `generated`, whose type lives in Generated/), and the names are unique.
    @Test func everyScenarioTypeIsRegistered() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/SignalsStress/Stress/Scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var declared: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": LabelledStressScenario") {
                guard let r = line.range(of: "struct ") else { continue }
                declared.insert(String(line[r.upperBound...].prefix { $0.isLetter || $0.isNumber }))
            }
        }
        let registered = Set(StressRegistry.all.map { String(describing: type(of: $0)) })
        #expect(declared.count > 50)
        #expect(declared.isSubset(of: registered), "not registered: \(declared.subtracting(registered).sorted())")
        let names = StressRegistry.all.map(\.name)
        #expect(Set(names).count == names.count)
    }
}

import Foundation

/// What a side of `bench ab` was built from: the commit, whether the tree had changes, the
/// configuration and command it was built with, the toolchain, and the resolved versions of
/// the package's dependencies. Recorded when a build is made or saved (`build.json` beside
/// the executable); for the running executable, read from its repository at run time.
package struct BuildProvenance: Codable, Sendable, Equatable {
    /// The commit (full hash), when known.
    package var commit: String?
    /// True when the working tree had uncommitted changes to tracked files.
    package var uncommittedChanges: Bool?
    /// "release" or "debug".
    package var configuration: String
    /// The command that built it, when known (`swift build -c release --product bench …`).
    package var buildCommand: String?
    package var toolchain: String
    /// Each dependency's identity and its resolved version (or revision), from Package.resolved.
    package var dependencies: [String: String]

    package init(commit: String?, uncommittedChanges: Bool?, configuration: String, buildCommand: String?,
                toolchain: String, dependencies: [String: String]) {
        self.commit = commit; self.uncommittedChanges = uncommittedChanges; self.configuration = configuration
        self.buildCommand = buildCommand; self.toolchain = toolchain; self.dependencies = dependencies
    }

    /// One line: "abc1234 (with uncommitted changes), release, Swift 6.3, swift build -c release".
    package var summary: String {
        var parts = [(commit.map { String($0.prefix(12)) } ?? "commit unknown") + (uncommittedChanges == true ? " (with uncommitted changes)" : "")]
        parts.append(configuration)
        parts.append(toolchain)
        parts.append(buildCommand ?? "build command unknown")
        return parts.joined(separator: ", ")
    }

    /// What differs between two builds, one phrase each; empty when nothing recorded differs.
    package static func differences(_ a: BuildProvenance?, _ b: BuildProvenance?) -> [String] {
        guard let a, let b else { return a == nil && b == nil ? [] : ["one side's build is not recorded"] }
        var out: [String] = []
        if a.commit != b.commit { out.append("commit") }
        if a.uncommittedChanges == true || b.uncommittedChanges == true {
            out.append("uncommitted changes in \(a.uncommittedChanges == true && b.uncommittedChanges == true ? "both trees" : "one tree") (the sources may differ)")
        }
        if a.configuration != b.configuration { out.append("configuration (\(a.configuration) vs \(b.configuration))") }
        if a.buildCommand != b.buildCommand { out.append("build command") }
        if a.toolchain != b.toolchain { out.append("toolchain (\(a.toolchain) vs \(b.toolchain))") }
        for name in Set(a.dependencies.keys).union(b.dependencies.keys).sorted() where a.dependencies[name] != b.dependencies[name] {
            out.append("\(name) \(a.dependencies[name] ?? "absent") vs \(b.dependencies[name] ?? "absent")")
        }
        return out
    }

    /// The dependencies pinned in `Package.resolved` at `packageRoot`: identity → version, or
    /// the revision's first 12 characters when a pin has no version.
    package static func resolvedDependencies(packageRoot: String) -> [String: String] {
        struct Resolved: Decodable {
            struct Pin: Decodable {
                struct State: Decodable { var version: String?; var revision: String?; var branch: String? }
                var identity: String
                var state: State
            }
            var pins: [Pin]
        }
        guard let data = FileManager.default.contents(atPath: packageRoot + "/Package.resolved"),
              let resolved = try? JSONDecoder().decode(Resolved.self, from: data) else { return [:] }
        var out: [String: String] = [:]
        for p in resolved.pins { out[p.identity] = p.state.version ?? p.state.revision.map { String($0.prefix(12)) } ?? p.state.branch ?? "?" }
        return out
    }

    /// `build.json` beside `executable`, when there is one.
    package static func recorded(beside executable: String) -> BuildProvenance? {
        let file = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("build.json")
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(BuildProvenance.self, from: data)
    }

    /// Writes `build.json` beside `executable`.
    package func record(beside executable: String) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try e.encode(self).write(to: URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("build.json"))
    }
}

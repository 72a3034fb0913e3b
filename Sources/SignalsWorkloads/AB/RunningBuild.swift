import Foundation
import SignalsReports

extension BuildProvenance {
    /// This executable's build, read from the repository at `repositoryRoot` (its HEAD and
    /// working tree, which are what it was built from when it is this checkout's `swift run`).
    package static func running(repositoryRoot: String, buildCommand: String?) -> BuildProvenance {
        let machine = MachineInfo.current(allocator: "system")
        let head = git(["-C", repositoryRoot, "rev-parse", "HEAD"], success: true)
        let status = git(["-C", repositoryRoot, "status", "--porcelain", "--untracked-files=no"], success: true)
        return BuildProvenance(commit: head, uncommittedChanges: status.map { !$0.isEmpty }, configuration: machine.buildConfiguration,
                               buildCommand: buildCommand, toolchain: machine.toolchain,
                               dependencies: resolvedDependencies(packageRoot: repositoryRoot))
    }

    /// The trimmed output of `git args`, or nil when git fails.
    static func git(_ args: [String], success: Bool) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

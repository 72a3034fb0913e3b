import Foundation
import SignalsReports
import SignalsStress
import SignalsWorkloads
import Testing

/// The built `bench` next to the test bundle (SwiftPM builds every product with the tests),
/// or nil when it is not there.
func benchExecutable() -> URL? {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [dir.appendingPathComponent("bench"), dir.deletingLastPathComponent().appendingPathComponent("bench")]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `bench` with `arguments`; returns the exit status and standard error.
func runBench(_ arguments: [String]) throws -> (status: Int32, stderr: String, stdout: String) {
    let exe = try #require(benchExecutable())
    let p = Process()
    p.executableURL = exe
    p.arguments = arguments
    let err = Pipe(), out = Pipe()
    p.standardError = err
    p.standardOutput = out
    try p.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: errData, as: UTF8.self), String(decoding: outData, as: UTF8.self))
}

/// Exit codes of the real command line: 2 (`BenchExitCode.usage`) and a message naming the
/// flag for bad arguments, on every subcommand.
@Suite("bench command line", .enabled(if: benchExecutable() != nil))
struct CLITests {
    @Test(arguments: [
        (["--workload", "nope"], "--workload"),
        (["--threads", "0"], "--threads"),
        (["--stages=-3"], "--stages"),
        (["--subject", "rx"], "--subject"),
        (["--format", "yaml"], "--format"),
        (["--workload", "send,nope"], "send-map"),
        (["--subject", "rx"], "lockfree"),
        (["--threads", "2,x"], "1 to 64"),
        (["--sample-every", "48"], "power of two"),
        (["stress", "--variant", "fast"], "--variant"),
        (["stress", "--variant", "fast"], "mutex"),
        // One spelling of the delivery variant on every subcommand; the others name it.
        (["stress", "--variant", "lockFree"], "'lockfree'"),
        (["stress", "--variant", "lock-free"], "'lockfree'"),
        (["stress", "--variant", "all"], "--variant"),
        (["stress", "--json", "out.json"], "--format json --output"),
        (["stress", "--format", "yaml"], "'html'"),
        (["stress", "--output", "/nonexistent-dir/stress.json"], "--output"),
        (["instructions", "--case", "send-map", "--iterations", "1", "--variant", "lockFree"], "'lockfree'"),
        (["instructions", "--case", "nope", "--iterations", "1"], "--case"),
        (["instructions", "--case", "send-map", "--iterations", "0"], "--iterations"),
        (["run", "--subject", "lockFree"], "lockfree"),
        (["run", "--output", "/nonexistent-dir/report.json"], "--output"),
        (["list", "--format", "yaml"], "'csv'"),
        (["list", "--output", "/nonexistent-dir/list.json"], "--output"),
        (["compare", "a.json", "b.json", "--format", "yaml"], "--format"),
        (["stress", "--ops", "0"], "--ops"),
        (["compare", "/nonexistent/a.json", "/nonexistent/b.json"], "cannot read"),
        (["compare", "a.json", "b.json", "--threshold", "lots"], "--threshold"),
        (["ab", "--baseline", "no-such-ref-or-file"], "--baseline"),
        (["ab", "--baseline", "no-such-ref-or-file"], "neither a bench executable nor a git ref"),
        (["ab", "--baseline", "/etc/hostname"], "--baseline: '/etc/hostname' is not"),
        (["ab", "--baseline", "/bin/true"], "not a bench executable"),
        (["ab", "--baseline", "/bin/true", "--threshold", "lots"], "--threshold"),
        (["ab", "--baseline", "/bin/true", "--format", "yaml"], "--format"),
        (["ab", "--baseline", "/bin/true", "--budget", "0"], "--budget"),
        (["ab"], "--baseline"),
        (["ab", "--save", "../escape"], "--save"),
        (["ab", "--save", "-x"], "--save"),
        (["ab", "--save", "ok", "--baseline", "main"], "compares nothing"),
        (["ab", "--calibrate", "--runs", "0"], "--runs"),
        (["ab", "--calibrate", "--slowdowns", "0%"], "--slowdowns"),
        (["ab", "--calibrate", "--slowdowns", "fast"], "5%,10%"),
        (["ab", "--calibrate", "--current", "/bin/true"], "--current"),
        (["ab", "--baseline", "/bin/true", "--round-milliseconds", "1"], "--round-milliseconds"),
        (["run", "--launches", "0"], "--launches"),
        (["run", "--load", "-1"], "--load"),
        (["explore", "--strategy", "random"], "--strategy"),
        (["explore", "--depth", "0"], "--depth"),
        (["explore", "--preemptions", "-1"], "--preemptions"),
        (["explore", "--schedules", "0"], "--schedules"),
        (["explore", "--seconds", "nan"], "--seconds"),
        (["explore", "--seconds", "inf"], "--seconds"),
        (["explore", "--scenario", "nope"], "send-pair"),
        (["explore", "--scenario", "send-pair,"], "--scenario"),
        (["explore", "--variant", "fast"], "--variant"),
        (["explore", "--replay", "0,1"], "--replay"),
        (["explore", "--replay", "0,,1", "--scenario", "send-pair", "--variant", "mutex"], "--replay"),
        (["explore", "--replay", "0,99", "--scenario", "send-pair", "--variant", "mutex"], "0 to 15"),
        (["explore", "--scenario", "generated", "--case", "abc"], "--case"),
        (["explore", "--scenario", "generated", "--case", "1~"], "--case"),
        (["explore", "--scenario", "generated", "--case", "-1"], "--case"),
        (["explore", "--scenario", "generated", "--case", "18446744073709551616"], "--case"),
        (["explore", "--scenario", "generated", "--case", "5~9999"], "does not fit"),
        (["explore", "--scenario", "send-pair", "--case", "5"], "--scenario generated"),
    ])
    func badArgumentsExitTwo(arguments: [String], mention: String) throws {
        let r = try runBench(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(mention), "\(r.stderr)")
    }

    /// `bench explore` needs the schedule points of a debug build: a release bench says so
    /// and exits 2; a debug one explores.
    @Test func exploreNeedsADebugBuild() throws {
        let r = try runBench(["explore", "--scenario", "send-pair", "--schedules", "2", "--quiet"])
        #if DEBUG
        #expect(r.status == 0, "\(r.stderr)\(r.stdout)")
        #expect(r.stdout.contains("PASS"))
        #else
        #expect(r.status == 2)
        #expect(r.stderr.contains("needs a debug build"), "\(r.stderr)")
        #endif
    }

    @Test func wrongSchemaExitsTwo() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cli-\(getpid()).json")
        try Data("{\"schemaVersion\": 99}".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try runBench(["compare", url.path, url.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("schemaVersion 99"))
    }

    /// `bench ab` against its own executable goes through served rounds (both sides alive,
    /// alternating round by round) and judges the row from at least six launches.
    @Test func abAgainstItselfUsesServedRounds() throws {
        let exe = try #require(benchExecutable())
        let r = try runBench(["ab", "--baseline", exe.path, "--workload", "send", "--budget", "1", "--repetitions", "3",
                              "--round-milliseconds", "5", "--format", "json"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let report = try JSONDecoder().decode(ABReport.self, from: Data(r.stdout.utf8))
        let row = try #require(report.rows.first)
        #expect(row.method == ABRow.servedMethod)
        #expect(row.baselineLaunches.count >= 6 && row.baselineLaunches.allSatisfy { $0.count == 3 })
        #expect(row.change?.method == PairedStatistics.robustMethod)
    }

    /// `--save NAME` keeps this executable with its build record; `--baseline NAME` finds it,
    /// and the report carries both sides' builds.
    @Test func savedBaselineByName() throws {
        let name = "cli-test-\(getpid())"
        let saved = try runBench(["ab", "--save", name])
        #expect(saved.status == 0, "\(saved.stderr)")
        let top = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let dir = top.appendingPathComponent(".build-ab/\(name)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("bench").path), "\(saved.stdout)")
        let record = try JSONDecoder().decode(BuildProvenance.self, from: Data(contentsOf: dir.appendingPathComponent("build.json")))
        #expect(record.commit?.count == 40)
        #expect(record.dependencies["swift-argument-parser"] != nil)
        let r = try runBench(["ab", "--baseline", name, "--workload", "send", "--budget", "1", "--repetitions", "3",
                              "--round-milliseconds", "5", "--format", "json", "--quiet"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let report = try JSONDecoder().decode(ABReport.self, from: Data(r.stdout.utf8))
        #expect(report.baselineBuild == record)
        #expect(report.currentBuild?.commit == record.commit)
        #expect(report.baseline.contains(name))
    }

    /// The served child answers the protocol: ready, a round, a clear failure for nonsense.
    @Test func servedChildSpeaksItsProtocol() throws {
        let exe = try #require(benchExecutable())
        var p = Parameters()
        p.targetRepetitionMilliseconds = 5
        let spec = try #require(p.cases().first { $0.workload == .send })
        let child: ServedChild
        switch ServedChild.start(executable: exe.path, environment: [:], spec: spec, subject: .lockfree, parameters: p) {
        case .success(let c): child = c
        case .failure(let f): Issue.record("not ready: \(f)"); return
        }
        #expect(child.operations > 0)
        guard case .ok(let ns) = child.round(operations: 1_000) else { Issue.record("no round"); return }
        #expect(ns > 0)
        child.stop()
        // Not a bench at all: reported as a failure, not a hang or a crash of the parent.
        if case .success = ServedChild.start(executable: "/bin/true", environment: [:], spec: spec, subject: .lockfree, parameters: p) {
            Issue.record("/bin/true served rounds")
        }
    }

    /// Every code of the one exit-code table is in `bench --help`; no option's help gives its
    /// default twice.
    @Test func helpHasTheExitTableAndEachDefaultOnce() throws {
        let top = try runBench(["--help"])
        #expect(top.status == 0)
        for code in BenchExitCode.allCases { #expect(top.stdout.contains("  \(code.rawValue)  "), "\(code)") }
        for sub in ["run", "ab", "stress", "compare", "list"] {
            let r = try runBench([sub, "--help"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("--format <format>") && r.stdout.contains("--output <path>"), "\(sub)")
            let flat = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for option in flat.components(separatedBy: " -") where option.hasPrefix("-") {
                #expect(option.components(separatedBy: "default").count <= 2, "\(sub): \(option)")
            }
        }
    }

    /// `--output FILE` writes the report there in `--format`; a folder gets every format.
    @Test func outputWritesTheChosenFormat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-out-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("list.json")
        let r = try runBench(["list", "--format", "json", "--output", file.path])
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stderr)")
        let list = try JSONDecoder().decode(ListReport.self, from: Data(contentsOf: file))
        #expect(list.schemaVersion == 1 && list.workloads.contains { $0.name == "send-map" })
        let folder = try runBench(["list", "--output", dir.path + "/all/"])
        #expect(folder.status == 0)
        for f in ReportFormat.allCases {
            #expect(FileManager.default.fileExists(atPath: dir.path + "/all/report.\(f.fileExtension)"), "\(f)")
        }
    }

    /// The scripts speak the same exit-code table: bad arguments exit 2.
    @Test func scriptsShareTheExitTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for name in ["benchmarks-check", "instruction-counts"] {
            let text = try String(contentsOf: root.appendingPathComponent("scripts/\(name)"), encoding: .utf8)
            #expect(text.contains("#   1  a regression"), "\(name)")
            #expect(text.contains("#   3  "), "\(name)")
            #expect(text.contains("#   5  the check could not run"), "\(name)")
            #expect(text.contains("exit 5"), "\(name)")
        }
        let p = Process()
        p.executableURL = root.appendingPathComponent("scripts/instruction-counts")
        p.arguments = ["--no-such-flag"]
        p.standardError = Pipe()
        p.standardOutput = Pipe()
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == BenchExitCode.usage.rawValue)
    }

    /// Outside a terminal, progress is one line per finished step on standard error, with the
    /// time left; `--quiet` silences it; standard output holds the report alone.
    @Test func progressLinesInALog() throws {
        let args = ["stress", "--scenario", "send-concurrent", "--iterations", "3", "--format", "json"]
        let r = try runBench(args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("bench stress: [1/2] send-concurrent / lockfree done in"), "\(r.stderr)")
        #expect(r.stderr.contains("left"), "\(r.stderr)")
        #expect(r.stderr.contains("bench stress: [2/2] send-concurrent / mutex done in"), "\(r.stderr)")
        let report = try JSONDecoder().decode(StressReport.self, from: Data(r.stdout.utf8))
        #expect(report.results.map(\.variant) == ["lockfree", "mutex"])
        let quiet = try runBench(args + ["--quiet"])
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("[1/2]"), "\(quiet.stderr)")
    }

    @Test func listNamesEveryWorkloadAndSubject() throws {
        let r = try runBench(["list"])
        #expect(r.status == 0)
        for name in ["send-map", "contended", "mutation", "lockfree", "asyncchannel"] {
            #expect(r.stdout.contains(name))
        }
    }
}

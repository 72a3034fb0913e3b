import Foundation
import SignalsReports
import Synchronization
import Testing

/// A fresh temporary folder for one test.
func scratchFolder(_ name: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Numeric and list flags of every subcommand: a value that is not finite, out of range, or a
/// list with an empty or repeated item exits 2 with a message naming the flag.
@Suite("bench bad arguments", .enabled(if: benchExecutable() != nil))
struct BadArgumentTests {
    @Test(arguments: [
        // Non-finite and overflowing durations (each once crashed with SIGILL).
        (["stress", "--duration", "inf"], "--duration"),
        (["stress", "--duration", "1e400"], "--duration"),
        (["stress", "--duration", "nan"], "--duration"),
        (["stress", "--duration", "1e18"], "at most 604800"),
        (["stress", "--duration", "0"], "--duration"),
        (["stress", "--watchdog", "inf"], "--watchdog"),
        (["stress", "--watchdog", "-1"], "--watchdog"),
        (["stress", "--watchdog", "1e300"], "at most 86400"),
        (["stress", "--min-seconds", "inf"], "--min-seconds"),
        (["stress", "--min-seconds", "0"], "--min-seconds"),
        (["stress", "--iterations", "0"], "--iterations"),
        (["stress", "--iterations", "99999999999999999999"], "--iterations"),
        (["stress", "--threads", "65"], "--threads"),
        (["stress", "--ops", "-1"], "--ops"),
        (["stress", "--load", "65"], "--load"),
        (["stress", "--seed", "-1"], "--seed"),
        (["ab", "--baseline", "/bin/true", "--budget", "inf"], "--budget"),
        (["ab", "--baseline", "/bin/true", "--budget", "nan"], "--budget"),
        (["ab", "--baseline", "/bin/true", "--budget", "1e400"], "--budget"),
        (["ab", "--baseline", "/bin/true", "--threshold", "inf"], "--threshold"),
        (["ab", "--baseline", "/bin/true", "--threshold", "nan%"], "--threshold"),
        (["ab", "--baseline", "/bin/true", "--load", "65"], "--load"),
        (["ab", "--baseline", "/bin/true", "--repetitions", "0"], "--repetitions"),
        (["ab", "--calibrate", "--slowdowns", "inf"], "--slowdowns"),
        (["ab", "--calibrate", "--runs", "1001"], "--runs"),
        (["run", "--smallest-effect", "inf"], "--smallest-effect"),
        (["run", "--smallest-effect", "nan"], "--smallest-effect"),
        (["run", "--depth", "0"], "--depth"),
        (["run", "--subscribers", "100001"], "--subscribers"),
        (["run", "--repetitions", "1001"], "--repetitions"),
        (["run", "--sample-every", "0"], "--sample-every"),
        (["run", "--launches", "101"], "--launches"),
        (["run", "--seed", "1e3"], "--seed"),
        (["instructions", "--case", "send-map", "--iterations", "100000001"], "--iterations"),
        (["compare", "a.json", "b.json", "--threshold", "0"], "--threshold"),
        (["compare", "a.json", "b.json", "--threshold", "0%"], "--threshold"),
        (["compare", "a.json", "b.json", "--threshold", "inf"], "--threshold"),
        (["compare", "a.json", "b.json", "--threshold", "1001"], "--threshold"),
        // Lists: an empty item, an empty value, a repeated item.
        (["run", "--subject", "lockfree,,mutex"], "--subject"),
        (["run", "--subject", "lockfree,"], "--subject"),
        (["run", "--subject", ""], "--subject"),
        (["run", "--subject", "lockfree,lockfree"], "--subject"),
        (["run", "--subject", "lockfree", "--subject", "lockfree"], "given twice"),
        // A misspelt subject is refused with the list of subjects, the floor among them.
        (["run", "--subject", "flor"], "floor"),
        (["run", "--subject", "floor,floor"], "--subject"),
        (["run", "--workload", "send,,chain"], "--workload"),
        (["run", "--workload", "send", "--workload", "send"], "given twice"),
        (["run", "--threads", "2,,4"], "empty item"),
        (["run", "--threads", "2,2"], "given twice"),
        (["ab", "--baseline", "/bin/true", "--subject", "lockfree,,mutex"], "--subject"),
        (["ab", "--calibrate", "--slowdowns", "5%,,10%"], "--slowdowns"),
        (["stress", "--variant", "lockfree,,mutex"], "--variant"),
        (["stress", "--variant", "lockfree,lockfree"], "--variant"),
        (["stress", "--variant", ""], "--variant"),
        (["stress", "--scenario", ""], "--scenario"),
        (["stress", "--scenario", "send-concurrent,,reentrant-order"], "empty item"),
        (["stress", "--scenario", "send-concurrent,send-concurrent"], "given twice"),
        (["stress", "--scenario", "send-concurrent", "--scenario", "send-concurrent"], "given twice"),
        (["instructions", "--case", "send-map", "--iterations", "1", "--variant", "lockfree,,mutex"], "--variant"),
        // Output paths that cannot take a report.
        (["list", "--output", "/nonexistent-dir/x.json"], "does not exist"),
    ])
    func exitsTwoNamingTheFlag(arguments: [String], mention: String) throws {
        let r = try runBench(arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(mention), "\(arguments): \(r.stderr)")
        #expect(!r.stderr.contains("Fatal error"), "\(r.stderr)")
    }

    /// The run's length is said before it starts, and each run gets at least --min-seconds
    /// however many runs share --duration.
    @Test func stressSaysItsTotalAndKeepsTheMinimumPerRun() throws {
        let r = try runBench(["stress", "--scenario", "send-concurrent", "--variant", "lockfree", "--duration", "0.1",
                              "--min-seconds", "0.3", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 scenario(s) × 1 variant(s)"), "\(r.stderr)")
        #expect(r.stderr.contains("longer than --duration"), "\(r.stderr)")
        let seconds = try #require(r.stdout.range(of: "\"secondsPerRun\" : ").map { r.stdout[$0.upperBound...].prefix { $0 != "," && $0 != "\n" } })
        #expect(Double(seconds) == 0.3, "\(seconds)")
    }
}

/// A report given to `bench report` or `bench compare` is input: whatever the file is, the
/// command exits 2 naming it and what is wrong, never hangs or crashes.
@Suite("bench report files", .enabled(if: benchExecutable() != nil))
struct ReportFileTests {
    func good(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("good.json").path
        try JSONReport.encode(sampleReport()).write(to: URL(fileURLWithPath: path))
        return path
    }

    func expectRefused(_ path: String, _ mention: String, good: String) throws {
        for arguments in [["report", path], ["compare", path, good], ["compare", good, path]] {
            let r = try runBench(arguments)
            #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(path) && r.stderr.contains(mention), "\(arguments): \(r.stderr)")
        }
    }

    @Test func specialFilesAreRefusedAtOnce() throws {
        let dir = try scratchFolder("special")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try good(dir)
        #expect(try runBench(["report", good]).status == 0)
        try expectRefused(dir.path, "a folder", good: good)
        try expectRefused("/dev/zero", "character device", good: good)
        try expectRefused("/dev/urandom", "character device", good: good)
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try expectRefused(fifo, "FIFO", good: good)
        let empty = dir.appendingPathComponent("empty.json").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        try expectRefused(empty, "empty", good: good)
        // Sparse: 300 MiB of zeros without writing them.
        let huge = dir.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 300 << 20) == 0)
        try expectRefused(huge, "256 MiB", good: good)
        try expectRefused(dir.appendingPathComponent("missing.json").path, "cannot read", good: good)
    }

    @Test func malformedContentsAreRefused() throws {
        let dir = try scratchFolder("malformed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try good(dir)
        let text = try String(contentsOfFile: good, encoding: .utf8)
        let cases: [(String, String)] = [
            ("not json at all", "not valid JSON"),
            ("[1, 2]", "not a bench report"),
            ("{\"schemaVersion\": 99}", "schemaVersion 99"),
            ("{\"schemaVersion\": 3, \"tool\": \"x\"}", "wrong schema"),
            (text.replacingOccurrences(of: "\"timerOverheadNs\" : 20", with: "\"timerOverheadNs\" : 1e19"), "machine.timerOverheadNs"),
            (text.replacingOccurrences(of: "\"timerOverheadNs\" : 20", with: "\"timerOverheadNs\" : 1e400"), "not valid JSON"),
            (text.replacingOccurrences(of: "\"timerOverheadNs\" : 20", with: "\"timerOverheadNs\" : \"NaN\""), "machine.timerOverheadNs"),
            (text.replacingOccurrences(of: "\"timerOverheadNs\" : 20", with: "\"timerOverheadNs\" : \"inf\""), "machine.timerOverheadNs"),
        ]
        for (i, (contents, mention)) in cases.enumerated() {
            #expect(contents != text || i < 4, "the sample report changed: case \(i) edits nothing")
            let path = dir.appendingPathComponent("bad\(i).json").path
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            try expectRefused(path, mention, good: good)
        }
    }

    /// Every number of a report, set to 2^63 ns or more (which crashed `Fmt.ns` with SIGILL), is
    /// refused naming its JSON path; a good report renders in every format.
    @Test func everyNumericFieldIsRangeChecked() throws {
        let data = try JSONReport.encode(sampleReport())
        let object = try JSONSerialization.jsonObject(with: data)
        var paths: [[Any]] = []
        func walk(_ value: Any, _ path: [Any]) {
            if let d = value as? [String: Any] { for (k, v) in d { walk(v, path + [k]) } }
            else if let a = value as? [Any] { for (i, v) in a.enumerated() { walk(v, path + [i]) } }
            else if value is NSNumber, !(value is Bool), !(path.last as? String == "passed") { paths.append(path) }
        }
        walk(object, [])
        #expect(paths.count > 40, "\(paths.count) numeric fields")
        func replacing(_ value: Any, _ path: ArraySlice<Any>, with new: Any) -> Any {
            guard let key = path.first else { return new }
            if var d = value as? [String: Any], let k = key as? String { d[k] = replacing(d[k]!, path.dropFirst(), with: new); return d }
            if var a = value as? [Any], let i = key as? Int { a[i] = replacing(a[i], path.dropFirst(), with: new); return a }
            return value
        }
        for path in paths {
            let name = path.map { ($0 as? Int).map { "[\($0)]" } ?? ".\($0)" }.joined().dropFirst()
            let isSeed = path.last as? String == "seed"
            for bad in (isSeed ? [-1.0, 1e20] : [1e19, -1e19, 1e300]) {
                let edited = try JSONSerialization.data(withJSONObject: replacing(object, path[...], with: bad))
                do {
                    _ = try JSONReport.decode(edited, name: "r.json")
                    Issue.record("\(name) = \(bad) was accepted")
                } catch {
                    #expect(error.description.contains(String(name)), "\(name): \(error.description)")
                }
            }
        }
        let report = try JSONReport.decode(data)
        for format in ReportFormat.allCases { #expect(!RunReport(report: report).rendered(format).isEmpty) }
    }
}

/// `--output PATH` writes as a shell redirection would: through a symlink, a device or a FIFO
/// (never replacing them), atomically only over a regular file or a new path.
@Suite("bench output paths", .enabled(if: benchExecutable() != nil))
struct OutputPathTests {
    @Test func symlinkIsWrittenThroughAndKept() throws {
        let dir = try scratchFolder("out-link")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.json").path, link = dir.appendingPathComponent("link.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
        let r = try runBench(["list", "--format", "json", "--output", link])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("\"workloads\""))
        // A dangling link creates its target, as `>` does.
        let dangling = dir.appendingPathComponent("dangling.json").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "new.json")
        #expect(try runBench(["list", "--output", dangling]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.json").path))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "new.json")
    }

    @Test func devNullStaysADevice() throws {
        let r = try runBench(["list", "--output", "/dev/null"])
        #expect(r.status == 0, "\(r.stderr)")
        var st = stat()
        #expect(lstat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
    }

    @Test(.tags(.startsThreads)) func fifoWithoutReaderIsRefusedAndWithReaderIsWritten() throws {
        let dir = try scratchFolder("out-fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = Date()
        let refused = try runBench(["list", "--output", fifo])
        #expect(refused.status == 2 && refused.stderr.contains("no reader"), "\(refused.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
        // With a reader: written through, and still a FIFO.
        let received = Mutex<Data>(Data())
        let reader = Thread {
            // A plain blocking open and read, as `cat fifo` would.
            let fd = open(fifo, O_RDONLY)
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while fd >= 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                data.append(contentsOf: buffer[0..<n])
            }
            if fd >= 0 { close(fd) }
            received.withLock { $0 = data }
        }
        reader.start()
        var r: (status: Int32, stderr: String, stdout: String)?
        for _ in 0..<100 {
            r = try runBench(["list", "--output", fifo])
            if r?.status == 0 { break }
            usleep(50_000)
        }
        #expect(r?.status == 0, "\(r?.stderr ?? "")")
        for _ in 0..<200 where received.withLock({ $0.isEmpty }) { usleep(10_000) }
        #expect(String(decoding: received.withLock { $0 }, as: UTF8.self).contains("send-map"))
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
    }

    /// In a folder, the names are bench's own: a symlink planted under one of them is replaced,
    /// never followed out of the folder.
    @Test func folderReplacesPlantedLinksInsteadOfFollowingThem() throws {
        let dir = try scratchFolder("out-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outside = dir.appendingPathComponent("outside.txt").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        let folder = dir.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("report.json").path, withDestinationPath: outside)
        let r = try runBench(["list", "--output", folder.path + "/"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "keep")
        var st = stat()
        #expect(lstat(folder.appendingPathComponent("report.json").path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
    }

    @Test func socketsAndBlockDevicesAreRefused() throws {
        let dir = try scratchFolder("out-socket")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0)
        let r = try runBench(["list", "--output", path])
        #expect(r.status == 2 && r.stderr.contains("socket"), "\(r.stderr)")
    }
}

/// `bench ab` against a baseline that misbehaves: every wait is bounded by the budget plus
/// `ABRunner.overrunMargin`, the side's whole process group is killed, and the run exits 5
/// naming the side.
@Suite("bench ab against a misbehaving baseline", .enabled(if: benchExecutable() != nil))
struct MisbehavingBaselineTests {
    /// A script that passes the `--help` check and then does `serve` when asked to serve.
    func fakeBaseline(in dir: URL, serve: String) throws -> String {
        let path = dir.appendingPathComponent("fake-bench").path
        let script = """
        #!/bin/sh
        if [ "$1" = "--help" ]; then echo "USAGE: bench <subcommand>"; echo "  run  _case"; exit 0; fi
        \(serve)
        """
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    func alive(_ pidFile: String) -> Bool {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        // A killed process whose parent had gone may stay a zombie (state Z) when the
        // container's init does not reap: it counts as gone.
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return !status.contains("State:\tZ")
    }

    /// The baseline forks a sleeper that keeps its standard output open and exits: once
    /// `Foundation.Process` read to the end of that pipe forever (590 s with `--budget 5`).
    @Test func childLeftHoldingThePipeDoesNotHang() throws {
        let dir = try scratchFolder("ab-fork")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("sleeper.pid").path
        let exe = try fakeBaseline(in: dir, serve: "sleep 600 &\necho $! > \(pidFile)\nexit 0")
        let start = Date()
        let r = try runBench(["ab", "--baseline", exe, "--workload", "send", "--budget", "1", "--quiet"])
        let took = Date().timeIntervalSince(start)
        #expect(r.status == 5, "\(r.stderr)")
        #expect(r.stderr.contains("baseline"), "\(r.stderr)")
        #expect(took < 1 + 20 + 10, "took \(took) s")
        usleep(200_000)
        #expect(!alive(pidFile), "the sleeper the baseline started was killed with its group")
    }

    /// A baseline that never answers is given up at the budget plus the margin, not after the
    /// 60 s watchdog per request.
    @Test func silentBaselineIsGivenUpAtTheBudgetPlusMargin() throws {
        let dir = try scratchFolder("ab-silent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("silent.pid").path
        let exe = try fakeBaseline(in: dir, serve: "echo $$ > \(pidFile)\nexec sleep 600")
        let start = Date()
        let r = try runBench(["ab", "--baseline", exe, "--workload", "send", "--budget", "1", "--quiet"])
        let took = Date().timeIntervalSince(start)
        #expect(r.status == 5, "\(r.stderr)")
        #expect(r.stderr.contains("baseline") && r.stderr.contains("--budget plus 20 s"), "\(r.stderr)")
        #expect(took >= 1 && took < 1 + 20 + 15, "took \(took) s")
        usleep(200_000)
        #expect(!alive(pidFile))
    }
}

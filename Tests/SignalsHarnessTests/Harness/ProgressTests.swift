import Foundation
import SignalsReports
import Synchronization
import Testing

/// What a person waiting sees: a line per finished step with elapsed and remaining time in a
/// log, a live line on a terminal, nothing with `--quiet`.
@Suite("progress")
struct ProgressTests {
    final class Capture: Sendable {
        let text = Mutex("")
        let now = Mutex(0.0)
        func meter(_ style: ProgressMeter.Style) -> ProgressMeter {
            ProgressMeter(style: style, title: "bench run", clock: { self.now.withLock { $0 } },
                          write: { s in self.text.withLock { $0 += s } })
        }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
        var output: String { text.withLock { $0 } }
    }

    @Test func logLinesGiveElapsedAndRemaining() {
        let c = Capture()
        let m = c.meter(.lines)
        m.start(total: 4, what: "4 cases")
        for i in 0..<4 {
            m.begin("case \(i)")
            m.update("launch 1/6")
            c.advance(10)
            m.finish(note: "lockfree 8.80 ns")
        }
        m.end()
        let lines = c.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "bench run: 4 cases")
        #expect(lines[1] == "bench run: [1/4] case 0 done in 10.0 s, lockfree 8.80 ns; 10.0 s elapsed, about 30.0 s left")
        #expect(lines[3] == "bench run: [3/4] case 2 done in 10.0 s, lockfree 8.80 ns; 30.0 s elapsed, about 10.0 s left")
        #expect(lines[4] == "bench run: [4/4] case 3 done in 10.0 s, lockfree 8.80 ns; 40.0 s elapsed")
        #expect(lines.last == "bench run: finished in 40.0 s")
        #expect(!c.output.contains("\r"))
    }

    @Test func terminalLineRewritesItself() {
        let c = Capture()
        let m = c.meter(.live)
        m.start(total: 2, what: "2 cases")
        m.begin("send-map")
        m.update("launch 2/6")
        #expect(c.output.hasSuffix("\r\u{1B}[Kbench run [1/2] send-map · launch 2/6 · 0 ms elapsed, estimating left"))
        c.advance(5)
        m.next("chain")
        #expect(c.output.hasSuffix("\r\u{1B}[Kbench run [2/2] chain · 5.0 s elapsed, about 5.0 s left"))
        m.end()
        #expect(c.output.hasSuffix("\r\u{1B}[K"))
        #expect(!c.output.contains("\n"))
    }

    @Test func quietSaysNothing() {
        let c = Capture()
        let m = c.meter(.quiet)
        m.start(total: 1, what: "1 case")
        m.begin("send")
        m.finish()
        m.end()
        #expect(c.output.isEmpty)
        #expect(ProgressMeter.Style.forStandardError(quiet: true) == .quiet)
    }

    @Test func durations() {
        #expect(ProgressMeter.duration(0.25) == "250 ms")
        #expect(ProgressMeter.duration(12.34) == "12.3 s")
        #expect(ProgressMeter.duration(125) == "2 min 05 s")
        #expect(ProgressMeter.duration(3725) == "1 h 02 min")
    }
}

import Foundation

/// Where a long command is, told to the person waiting: on a terminal one live line that
/// rewrites itself; elsewhere (a CI log, a pipe) one line per finished step with the time spent
/// and an estimate of the time left, so a log shows life. Always on standard error, so the
/// report on standard output stays clean; `--quiet` turns it off.
package final class ProgressMeter: @unchecked Sendable {
    package enum Style: Sendable {
        /// A live line rewritten in place (a terminal).
        case live
        /// One line per finished step (a log).
        case lines
        /// Nothing.
        case quiet

        /// `.live` when standard error is a terminal, else `.lines`; `.quiet` when asked.
        package static func forStandardError(quiet: Bool) -> Style {
            quiet ? .quiet : (isatty(STDERR_FILENO) == 1 ? .live : .lines)
        }
    }

    package let style: Style
    /// The command's name, starting each line ("bench run").
    package let title: String
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let lock = NSLock()
    private var total = 0
    private var finished = 0
    private var current = ""
    private var detail = ""
    private var started = 0.0
    private var stepStarted = 0.0

    package init(style: Style, title: String, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate },
                write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.style = style
        self.title = title
        self.clock = clock
        self.write = write
    }

    /// Starts the count of `total` steps, printing what will run.
    package func start(total: Int, what: String) {
        lock.withLock {
            self.total = total
            started = clock()
            if style == .lines { write("\(title): \(what)\n") }
        }
    }

    /// Step `label` begins.
    package func begin(_ label: String) {
        lock.withLock {
            current = label
            detail = ""
            stepStarted = clock()
            drawLive()
        }
    }

    /// Finishes the step in progress, if any, and begins `label`: for loops that only say
    /// when the next step starts.
    package func next(_ label: String, note: String? = nil) {
        if lock.withLock({ !current.isEmpty }) { finish(note: note) }
        begin(label)
    }

    /// A part of the current step begins ("launch 2/6"): the live line only.
    package func update(_ detail: String) {
        lock.withLock {
            self.detail = detail
            drawLive()
        }
    }

    /// The current step is done; `note` is added to its line ("slower", "FAIL").
    package func finish(note: String? = nil) {
        lock.withLock {
            guard !current.isEmpty else { return }
            finished += 1
            let now = clock()
            if style == .lines {
                var line = "\(title): [\(finished)/\(total)] \(current) done in \(Self.duration(now - stepStarted))"
                if let note { line += ", \(note)" }
                line += "; \(Self.duration(now - started)) elapsed" + (finished < total ? ", \(remaining(now)) left" : "")
                write(line + "\n")
            }
            current = ""
            drawLive()
        }
    }

    /// Finishes the open step and clears the live line (call before printing the report).
    package func end(note: String? = nil) {
        finish(note: note)
        lock.withLock {
            if style == .live { write("\r\u{1B}[K") }
            if style == .lines { write("\(title): finished in \(Self.duration(clock() - started))\n") }
        }
    }

    /// "about 2 min 10 s", or "estimating" before the first step finished.
    private func remaining(_ now: Double) -> String {
        guard finished > 0 else { return "estimating" }
        let perStep = (now - started) / Double(finished)
        return "about " + Self.duration(perStep * Double(max(0, total - finished)))
    }

    private func drawLive() {
        guard style == .live, total > 0, !current.isEmpty else { return }
        let now = clock()
        var line = "\(title) [\(min(finished + 1, total))/\(total)] \(current)"
        if !detail.isEmpty { line += " · \(detail)" }
        line += " · \(Self.duration(now - started)) elapsed, \(remaining(now)) left"
        write("\r\u{1B}[K" + line)
    }

    /// "850 ms", "12.3 s", "2 min 05 s", "1 h 02 min".
    package static func duration(_ seconds: Double) -> String {
        let s = max(0, seconds)
        // Total: no conversion below can trap (a duration read from a file may be anything).
        guard s.isFinite, s < 1e12 else { return s.isNaN ? "– s" : String(format: "%.3g s", s) }
        if s < 1 { return String(format: "%.0f ms", s * 1000) }
        if s < 60 { return String(format: "%.1f s", s) }
        let whole = Int(s.rounded())
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, whole % 3600 / 60)
    }
}

import Foundation

/// What `bench list` prints: the workloads, the subjects and which subject can do which case
/// under the default parameters. `--format json` is for tools (schema in docs/bench-guide.md).
public struct CatalogueReport: Codable, Sendable, RenderableReport {
    public struct Workload: Codable, Sendable {
        public var name: String
        public var summary: String
        /// What one operation of the workload's figure is ("value", "delivery", "subscribe+cancel").
        public var unit: String

        public init(name: String, summary: String, unit: String) {
            self.name = name; self.summary = summary; self.unit = unit
        }
    }
    public struct Subject: Codable, Sendable {
        public var name: String
        public var summary: String
        /// False when this build of bench lacks the subject.
        public var builtIn: Bool
        /// True for Signals' own delivery variants (a violated guarantee fails the run).
        public var library: Bool

        public init(name: String, summary: String, builtIn: Bool, library: Bool) {
            self.name = name; self.summary = summary; self.builtIn = builtIn; self.library = library
        }
    }
    public struct Support: Codable, Sendable {
        /// The case, `workload` or `workload[case]`.
        public var key: String
        public var subject: String
        /// "in process", "child process" or "unsupported".
        public var support: String
        /// Why a case runs in a child process or is unsupported.
        public var reason: String?

        public init(key: String, subject: String, support: String, reason: String?) {
            self.key = key; self.subject = subject; self.support = support; self.reason = reason
        }
    }

    public var tool = "signals-bench-list"
    public var schemaVersion = 1
    public var workloads: [Workload]
    public var subjects: [Subject]
    public var support: [Support]

    /// This build's catalogue is `current()` (SignalsWorkloads), which asks each subject.
    public init(workloads: [Workload], subjects: [Subject], support: [Support]) {
        self.workloads = workloads; self.subjects = subjects; self.support = support
    }

    var workloadTable: Table { Table(headers: ["workload", "unit", "what it measures"], rows: workloads.map { [$0.name, $0.unit, $0.summary] }, leftColumns: [0, 1, 2]) }
    var subjectTable: Table {
        Table(headers: ["subject", "what it is"], rows: subjects.map { [$0.name, $0.summary + ($0.builtIn ? "" : " (not built in)")] }, leftColumns: [0, 1])
    }
    var supportTable: Table {
        Table(headers: ["case", "subject", "support"], rows: support.map { [$0.key, $0.subject, $0.support + ($0.reason.map { ": " + $0 } ?? "")] },
              leftColumns: [0, 1, 2])
    }

    public func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .text:
            return "workloads:\n" + workloadTable.text() + "\nsubjects:\n" + subjectTable.text()
                + "\nsupport (default parameters):\n" + supportTable.text()
        case .json: return PrettyJSON.render(self) + "\n"
        case .csv: return supportTable.csv()
        case .markdown:
            return "# bench list\n\n## Workloads\n\n" + workloadTable.markdown() + "\n## Subjects\n\n" + subjectTable.markdown()
                + "\n## Support (default parameters)\n\n" + supportTable.markdown()
        case .html:
            return HTML.page(title: "bench list", meta: [], result: nil, passed: true,
                             body: "<h2>Workloads</h2>\n" + workloadTable.html() + "<h2>Subjects</h2>\n" + subjectTable.html()
                                 + "<h2>Support (default parameters)</h2>\n" + supportTable.html())
        }
    }
}

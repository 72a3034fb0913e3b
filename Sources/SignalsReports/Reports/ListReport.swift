import Foundation

/// What `bench list` prints: the workloads, the subjects and which subject can do which case
/// under the default parameters. `--format json` is for tools (schema in docs/bench-guide.md).
package struct ListReport: Codable, Sendable, RenderableReport {
    package struct Workload: Codable, Sendable {
        package var name: String
        package var summary: String
        /// What one operation of the workload's figure is ("value", "delivery", "subscribe+cancel").
        package var unit: String

        package init(name: String, summary: String, unit: String) {
            self.name = name; self.summary = summary; self.unit = unit
        }
    }
    package struct Subject: Codable, Sendable {
        package var name: String
        package var summary: String
        /// False when this build of bench lacks the subject.
        package var builtIn: Bool
        /// True for Signals' own delivery variants (a violated guarantee fails the run).
        package var library: Bool

        package init(name: String, summary: String, builtIn: Bool, library: Bool) {
            self.name = name; self.summary = summary; self.builtIn = builtIn; self.library = library
        }
    }
    package struct Support: Codable, Sendable {
        /// The case, `workload` or `workload[case]`.
        package var key: String
        package var subject: String
        /// "in process", "child process" or "unsupported".
        package var support: String
        /// Why a case runs in a child process or is unsupported.
        package var reason: String?

        package init(key: String, subject: String, support: String, reason: String?) {
            self.key = key; self.subject = subject; self.support = support; self.reason = reason
        }
    }

    package var tool = "signals-bench-list"
    package var schemaVersion = 1
    package var workloads: [Workload]
    package var subjects: [Subject]
    package var support: [Support]

    /// This build's list is `current()` (SignalsWorkloads), which asks each subject.
    package init(workloads: [Workload], subjects: [Subject], support: [Support]) {
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

    package func rendered(_ format: ReportFormat) -> String {
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

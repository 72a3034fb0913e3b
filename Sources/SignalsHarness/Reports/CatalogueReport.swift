import Foundation

/// What `bench list` prints: the workloads, the subjects and which subject can do which case
/// under the default parameters. `--format json` is for tools (schema in docs/bench-guide.md).
public struct CatalogueReport: Codable, Sendable, RenderableReport {
    public struct Workload: Codable, Sendable {
        public var name: String
        public var summary: String
        /// What one operation of the workload's figure is ("value", "delivery", "subscribe+cancel").
        public var unit: String
    }
    public struct Subject: Codable, Sendable {
        public var name: String
        public var summary: String
        /// False when this build of bench lacks the subject.
        public var builtIn: Bool
        /// True for Signals' own delivery variants (a violated guarantee fails the run).
        public var library: Bool
    }
    public struct Support: Codable, Sendable {
        /// The case, `workload` or `workload[case]`.
        public var key: String
        public var subject: String
        /// "in process", "child process" or "unsupported".
        public var support: String
        /// Why a case runs in a child process or is unsupported.
        public var reason: String?
    }

    public var tool = "signals-bench-list"
    public var schemaVersion = 1
    public var workloads: [Workload]
    public var subjects: [Subject]
    public var support: [Support]

    /// The catalogue of this build.
    public static func current() -> CatalogueReport {
        let available = SubjectRegistry.all()
        let builtIn = Set(available.map(\.id))
        var support: [Support] = []
        for spec in Parameters().cases() {
            for s in available {
                switch s.support(for: spec) {
                case .inProcess: support.append(Support(key: spec.key, subject: s.id.rawValue, support: "in process", reason: nil))
                case .isolated(let why): support.append(Support(key: spec.key, subject: s.id.rawValue, support: "child process", reason: why))
                case .unsupported(let why): support.append(Support(key: spec.key, subject: s.id.rawValue, support: "unsupported", reason: why))
                }
            }
        }
        return CatalogueReport(
            workloads: WorkloadID.allCases.map { Workload(name: $0.rawValue, summary: $0.summary, unit: $0.unit) },
            subjects: SubjectID.allCases.map { Subject(name: $0.rawValue, summary: $0.summary, builtIn: builtIn.contains($0), library: $0.isLibrary) },
            support: support)
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

import SignalsReports

extension ListReport {
    /// What this build holds: the workloads of `WorkloadRegistry`, the subjects of
    /// `SubjectRegistry` and which subject can run which case.
    package static func current() -> ListReport {
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
        return ListReport(
            workloads: WorkloadID.allCases.map { Workload(name: $0.rawValue, summary: $0.summary, unit: $0.unit) },
            subjects: SubjectID.allCases.map { Subject(name: $0.rawValue, summary: $0.summary, builtIn: builtIn.contains($0), library: $0.isLibrary) },
            support: support)
    }
}

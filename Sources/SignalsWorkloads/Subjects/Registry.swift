import SignalsReports

/// Every subject the harness knows, in table order.
public enum SubjectRegistry {
    public static func all() -> [any BenchSubject] {
        librarySubjects() + [OpenCombineSubject(), AsyncStreamSubject(), AsyncChannelSubject()]
    }

    public static func subject(_ id: SubjectID) -> (any BenchSubject)? {
        all().first { $0.id == id }
    }
}

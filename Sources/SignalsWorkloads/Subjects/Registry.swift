import SignalsReports

/// Every subject the harness knows, in table order.
package enum SubjectRegistry {
    package static func all() -> [any BenchSubject] {
        librarySubjects() + [OpenCombineSubject(), AsyncStreamSubject(), AsyncChannelSubject(), FloorSubject()]
    }

    package static func subject(_ id: SubjectID) -> (any BenchSubject)? {
        all().first { $0.id == id }
    }
}

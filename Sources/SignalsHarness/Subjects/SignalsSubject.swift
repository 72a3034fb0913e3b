// Placeholder until the core compiles: the library's subjects are added here.
func librarySubjects() -> [any BenchSubject] { [] }

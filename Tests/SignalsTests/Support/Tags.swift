import Testing

extension Tag {
    /// The test, or every test of the suite, starts threads: `Thread`, `pthread_create`,
    /// `DispatchQueue.concurrentPerform`, a queue of its own or a global one, a stage or source
    /// on a context other than `.direct` and virtual time, or a helper that does one of these
    /// (`runThreads`, `startThread`, `raceRounds`, `onThread`, ...). CI runs exactly the tests
    /// with this tag a second time under ThreadSanitizer (scripts/tsan-tests);
    /// `ThreadTagCoverageTests` (SignalsHarnessTests) fails for a test that starts threads
    /// without it, so a new threaded test cannot miss that run.
    @Tag static var startsThreads: Self
}

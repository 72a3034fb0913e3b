import Foundation
import Testing

/// CI runs the tests tagged `.startsThreads` a second time under ThreadSanitizer
/// (scripts/tsan-tests, in `.ci/run`'s tsan step), so a test that starts threads without the tag
/// is never checked for data races. These tests read both test targets' sources and fail naming each test whose body
/// starts threads (or calls a helper that does) while neither it nor an enclosing suite
/// carries the tag, and each suite whose own code (helpers, properties, nested types) starts
/// threads without it.
///
/// The check reads source text, not types: it sees the thread starters spelled in a test (see
/// `ThreadStarters`), the helpers named in `ThreadStarters.helpers`, and a time-based operator
/// called without `context:` where its parameters give away the form whose default context is
/// `.global` (`delay(interval:)`, `retry(count:delayInterval:)`, `Signal.timer`, ...). A thread
/// started behind a call it does not know (a helper of another module, a stateful `delay`
/// left on its default context) it cannot see: give such a test the tag by hand.
@Suite struct ThreadTagCoverageTests {
    /// Tests/, from this file's place in it.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file of both test targets, by its path under Tests/.
    static func sources() throws -> [(path: String, text: String)] {
        var result: [(path: String, text: String)] = []
        for target in ["SignalsTests", "SignalsHarnessTests"] {
            let folder = testsFolder.appendingPathComponent(target)
            guard let walk = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walk where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
                result.append(("\(target)/\(relative)", text))
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    @Test func everyTestThatStartsThreadsCarriesTheTag() throws {
        let sources = try Self.sources()
        let report = ThreadTagCoverage(sources)
        // The scanner found the tests (a broken scan must not pass by finding nothing), and it
        // still recognizes threaded tests it must see: a thread, a helper, a context.
        #expect(report.testCount > 1_000, "only \(report.testCount) @Test functions found under \(Self.testsFolder.path)")
        for known in ["OutputCloseTests.cancelAfterAnEndDetachedOnAnotherThread",
                      "ConcurrencyTests.manySendersOneInput",
                      "GraphChangeRaceTests.generateCallbacksOnGlobalNeverOverlapAndAlternate"] {
            #expect(report.threaded.contains(known), "\(known) is no longer seen to start threads")
        }
        // Each at the test or suite it names, so that the failure points there.
        for problem in report.problems {
            let file = Self.testsFolder.appendingPathComponent(problem.path)
            Issue.record(Comment(rawValue: problem.message), sourceLocation: SourceLocation(
                fileID: "\(problem.path.prefix { $0 != "/" })/\(file.lastPathComponent)", filePath: file.path,
                line: problem.line, column: 1))
        }
    }

    /// The scanner on sources of its own: it must flag an untagged test that starts threads
    /// (directly, through a helper, through a suite's own code, through a time-based operator's
    /// default context) and accept the same test once it or its suite carries the tag.
    @Test func flagsUntaggedThreadStartersOnly() {
        let untagged = """
            @Suite struct A {
                @Test func spawns() { Thread { work() }.start() }
                @Test func single() { #expect(1 == 1) }
                @Test(arguments: [1]) func helper(_ n: Int) { runThreads(2) { _ in } }
                @Test func delayed() { _ = s.delay(interval: .seconds(1)) }
                @Test func virtual() { _ = s.delay(interval: .seconds(1), context: .custom(vt)) }
                // Thread { } in a comment, and "Thread {" in a string, start nothing.
                @Test func quoted() { print("Thread { }") }
            }
            struct B {
                static let contexts: [Exec] = [.global]
                @Test func usesContexts() {}
            }
            """
        let flagged = ThreadTagCoverage([("T/A.swift", untagged)])
        #expect(flagged.threaded == ["A.spawns", "A.helper", "A.delayed", "B"])
        #expect(flagged.problems.count == 4, "\(flagged.problems)")

        let tagged = """
            @Suite struct A {
                @Test(.tags(.startsThreads)) func spawns() { Thread { work() }.start() }
                @Test(.tags(.startsThreads), arguments: [1]) func helper(_ n: Int) { runThreads(2) { _ in } }
                @Test("named", .tags(.startsThreads)) func delayed() { _ = s.delay(interval: .seconds(1)) }
            }
            @Suite(.tags(.startsThreads)) struct B {
                static let contexts: [Exec] = [.global]
                @Test func usesContexts() {}
                struct Inner { @Test func nested() { startThread {}.wait() } }
            }
            extension B { @Test func inAnExtension() { DispatchQueue.global().async {} } }
            """
        #expect(ThreadTagCoverage([("T/A.swift", tagged)]).problems == [])

        // A free function that starts threads must be a listed helper, or its callers would go
        // unseen.
        let unlisted = "func spawnSomething() { Thread {}.start() }"
        #expect(ThreadTagCoverage([("T/H.swift", unlisted)]).problems.count == 1)
    }

    /// CI's TSan run selects by this tag (scripts/tsan-tests, called by `.ci/run`'s tsan
    /// step), not by a name.
    @Test func ciSelectsTheTSanRunByTheTag() throws {
        let root = Self.testsFolder.deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("scripts/tsan-tests"), encoding: .utf8)
        let run = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let selectsTheTag = script.contains("index(\".\(ThreadStarters.tag)\")")
        #expect(selectsTheTag, "scripts/tsan-tests no longer selects the tests tagged .\(ThreadStarters.tag)")
        let ciRunsIt = run.contains("scripts/tsan-tests || rc=$?")
        #expect(ciRunsIt, ".ci/run's tsan step no longer runs scripts/tsan-tests")
        let selectsByName = run.contains("--filter Concurrency")
        #expect(!selectsByName, ".ci/run selects a TSan run by name again")
    }
}

/// What starts threads, as the check spells it.
enum ThreadStarters {
    /// The tag's name (`Tag.startsThreads`).
    static let tag = "startsThreads"

    /// Token sequences that start threads wherever they appear in a test.
    static let patterns: [(tokens: [String], what: String)] = [
        (["Thread", "{"], "a Thread"),
        (["Thread", "("], "a Thread"),
        (["detachNewThread"], "Thread.detachNewThread"),
        (["pthread_create"], "pthread_create"),
        (["concurrentPerform"], "DispatchQueue.concurrentPerform"),
        (["DispatchQueue", "(", "label"], "a dispatch queue of its own"),
        ([".", "global"], "a global dispatch queue or the .global context"),
        ([".", "queue", "("], "a serial queue context"),
        ([".", "concurrent", "("], "a concurrent queue context"),
        (["syncQueue"], "a sync-queue context"),
        (["mainAsync"], "the .mainAsync context"),
        (["context", ":", ".", "main"], "the .main context"),
        (["on", ":", ".", "main"], "the .main context"),
        (["DispatchQueue", ".", "main"], "the main queue"),
        (["Exec", ".", "main"], "the .main context"),
        (["Task", "{"], "a Task"),
        (["Task", ".", "detached"], "a detached Task"),
        (["addTask"], "a task group"),
        (["async", "let"], "async let"),
        (["StressRunner"], "the stress runner's threads"),
    ]

    static let patternsByFirstToken = Dictionary(grouping: patterns) { $0.tokens[0] }

    /// The test targets' helpers that start threads, and the types whose use does: a test that
    /// names one starts threads. The check fails for a function outside a suite that starts
    /// threads but is not here (by its name or its type's).
    static let helpers: [String: String] = [
        "runThreads": "runThreads (threads released together)",
        "startThread": "startThread",
        "raceRounds": "raceRounds (long-lived racing threads)",
        "onThread": "onThread (a thread with a small stack)",
        "runOnSmallStack": "runOnSmallStack (a pthread with a small stack)",
        "returnsWithin": "returnsWithin (the body on a global queue, watched)",
        "offPool": "offPool (a thread off the cooperative pool)",
        "QueueMark": "a QueueMark queue",
        "ContextKind": "ContextKind's dispatch contexts",
        "CounterViewModel": "CounterViewModel (handlers on .main)",
    ]

    /// Time-based operators whose context defaults to `.global`, and the argument labels that
    /// tell their timed forms from others of the same name (`buffer(count:)`, the stateful
    /// `delay(initialState:)` whose offset is a signal, ...). `Signal.timer` and
    /// `Signal.interval` are timed whatever their arguments; `timestamp()` and `timeInterval()`
    /// take nothing but the context.
    static let timedOperators: Set<String> = [
        "delay", "debounce", "throttleFirst", "throttleLast", "throttle", "timeout", "retry",
        "buffer", "window", "timestamp", "timeInterval",
    ]
    static let timedLabels: Set<String> = [
        "interval", "until", "first", "firstBy", "delayInterval", "timeshift", "timeSpan",
    ]
}

/// The tag check over a set of sources: which tests and suites start threads, and which of
/// them lack the tag.
struct ThreadTagCoverage {
    /// `Suite.test` (or `Suite` for a suite's own code) for everything seen to start threads.
    private(set) var threaded: [String] = []
    /// A test or suite that starts threads without the tag, or an unlisted helper.
    struct Problem: Equatable, CustomStringConvertible {
        let path: String  // under Tests/
        let line: Int
        let message: String
        var description: String { "\(path):\(line): \(message)" }
    }
    private(set) var problems: [Problem] = []
    private(set) var testCount = 0

    init(_ sources: [(path: String, text: String)]) {
        let files = sources.map { SourceFile(path: $0.path, text: $0.text) }
        // Suites are known by their qualified names across files: an extension in another
        // file adds tests to the suite its declaration tags.
        var suites = Set<String>()
        var taggedSuites = Set<String>()
        for file in files {
            for type in file.types where type.isSuite { suites.insert(type.name) }
            for type in file.types where type.suiteAttribute.map({ file.contains(ThreadStarters.tag, in: $0) }) == true {
                taggedSuites.insert(type.name)
            }
        }
        for file in files {
            // The marble specs run on virtual time; each passes the marble test's context on,
            // often through a helper of its own whose labels mimic the operator's, which the
            // default-context rule would take for the operator. (They are not compiled into the
            // TSan build anyway: SIGNALS_SKIP_CONFORMANCE.)
            let timed = !file.path.contains("/Conformance/")
            for test in file.tests {
                testCount += 1
                let chain = file.enclosingTypes(of: test.declaration).map(\.name)
                guard let what = file.threadStart(in: test.range, timed: timed) else { continue }
                let name = (chain.last.map { "\($0)." } ?? "") + test.name
                threaded.append(name)
                let tagged = file.contains(ThreadStarters.tag, in: test.attributeArguments)
                    || chain.contains { taggedSuites.contains($0) }
                if !tagged {
                    problems.append(Problem(path: file.path, line: test.line, message: "\(name) starts threads (\(what)) but neither it nor its suite carries .\(ThreadStarters.tag)"))
                }
            }
            for type in file.types where suites.contains(type.name) {
                guard let what = file.threadStart(in: type.body, excluding: file.ownCodeHoles(of: type, suites: suites), timed: timed) else { continue }
                threaded.append(type.name)
                let chain = file.enclosingTypes(of: type.keyword).map(\.name) + [type.name]
                if !chain.contains(where: { taggedSuites.contains($0) }) {
                    problems.append(Problem(path: file.path, line: type.line, message: "suite \(type.name)'s own code (a helper, a property, a nested type) starts threads (\(what)) but it does not carry .\(ThreadStarters.tag)"))
                }
            }
            for function in file.functions where !function.isTest {
                let chain = file.enclosingTypes(of: function.keyword).map(\.name)
                if chain.contains(where: { suites.contains($0) }) { continue }
                guard let what = file.threadStart(in: function.body, timed: timed) else { continue }
                let owners = [function.name] + chain.flatMap { $0.split(separator: ".").map(String.init) }
                if !owners.contains(where: { ThreadStarters.helpers[$0] != nil }) {
                    problems.append(Problem(path: file.path, line: function.line, message: "\(function.name) starts threads (\(what)) outside any suite: add it (or its type) to ThreadStarters.helpers so that the tests calling it are checked"))
                }
            }
        }
    }
}

/// A Swift source file as tokens (identifiers and single punctuation characters; comments and
/// the insides of string literals dropped), with the declarations the check needs.
struct SourceFile {
    struct Token {
        let text: String
        let line: Int
        var isIdentifier: Bool { text.first.map { $0 == "_" || $0 == "$" || $0.isLetter || $0.isNumber } ?? false }
    }
    struct TypeDecl {
        let name: String          // qualified: Outer.Inner
        let keyword: Int          // token index of struct/class/enum/actor/extension
        let body: Range<Int>      // tokens inside the braces
        let line: Int
        let isExtension: Bool
        let suiteAttribute: Range<Int>?  // the @Suite attribute's arguments
        let holdsTests: Bool      // @Test functions directly in its body: a suite without @Suite
        var isSuite: Bool { suiteAttribute != nil || holdsTests }
    }
    struct Function {
        let name: String
        let keyword: Int          // token index of `func`
        let body: Range<Int>
        let line: Int
        let isTest: Bool
    }
    struct TestFunction {
        let name: String
        let declaration: Int      // token index of `func`
        let range: Range<Int>     // from the attribute to the body's end
        let attributeArguments: Range<Int>
        let line: Int
    }

    let path: String
    private(set) var tokens: [Token] = []
    /// For each opening (, [ or { token, the index of its closing one.
    private(set) var closing: [Int: Int] = [:]
    private(set) var types: [TypeDecl] = []
    private(set) var functions: [Function] = []
    private(set) var tests: [TestFunction] = []

    init(path: String, text: String) {
        self.path = path
        tokens = Self.tokenize(Array(text.utf8))
        var stack: [Int] = []
        for (i, t) in tokens.enumerated() {
            switch t.text {
            case "(", "[", "{": stack.append(i)
            case ")", "]", "}": if let open = stack.popLast() { closing[open] = i }
            default: break
            }
        }
        parseDeclarations()
    }

    func contains(_ identifier: String, in range: Range<Int>) -> Bool {
        range.contains { tokens[$0].text == identifier }
    }

    /// The types whose bodies hold token `index`, outermost first.
    func enclosingTypes(of index: Int) -> [TypeDecl] {
        types.filter { $0.body.contains(index) }.sorted { $0.body.count > $1.body.count }
    }

    /// What a suite's body holds that is not its own code: its tests, and nested suites (checked
    /// as suites of their own).
    func ownCodeHoles(of type: TypeDecl, suites: Set<String>) -> [Range<Int>] {
        tests.map(\.range).filter { type.body.contains($0.lowerBound) }
            + types.filter { $0.keyword != type.keyword && type.body.contains($0.keyword) && suites.contains($0.name) }
                .map { $0.keyword..<$0.body.upperBound }
    }

    /// The first way the tokens in `range` (less `holes`) start threads, or nil.
    func threadStart(in range: Range<Int>, excluding holes: [Range<Int>] = [], timed: Bool) -> String? {
        let holes = holes.sorted { $0.lowerBound < $1.lowerBound }
        var nextHole = 0
        var i = range.lowerBound
        while i < range.upperBound {
            while nextHole < holes.count, holes[nextHole].upperBound <= i { nextHole += 1 }
            if nextHole < holes.count, holes[nextHole].contains(i) { i = holes[nextHole].upperBound; continue }
            for (pattern, what) in ThreadStarters.patternsByFirstToken[tokens[i].text] ?? []
            where matches(pattern, at: i, before: range.upperBound) {
                return what
            }
            if let what = ThreadStarters.helpers[tokens[i].text] { return what }
            if timed, let what = timedOperatorOnItsDefaultContext(at: i) { return what }
            i += 1
        }
        return nil
    }

    private func matches(_ pattern: [String], at i: Int, before end: Int) -> Bool {
        guard i + pattern.count <= end else { return false }
        return pattern.indices.allSatisfy { tokens[i + $0].text == pattern[$0] }
    }

    /// A time-based operator called at token `i` without `context:`, in a form whose default
    /// context is `.global`.
    private func timedOperatorOnItsDefaultContext(at i: Int) -> String? {
        var nameIndex: Int
        var always = false
        if tokens[i].text == "Signal" {
            // Signal.timer / Signal<T>.interval
            var j = i + 1
            if j < tokens.count, tokens[j].text == "<" {
                while j < tokens.count, tokens[j].text != ">" { j += 1 }
                j += 1
            }
            guard j + 1 < tokens.count, tokens[j].text == ".", ["timer", "interval"].contains(tokens[j + 1].text) else { return nil }
            nameIndex = j + 1
            always = true
        } else if tokens[i].text == ".", i + 1 < tokens.count, ThreadStarters.timedOperators.contains(tokens[i + 1].text) {
            nameIndex = i + 1
        } else {
            return nil
        }
        let open = nameIndex + 1
        guard open < tokens.count, tokens[open].text == "(", let close = closing[open] else { return nil }
        // The labels of the call's own arguments (not of closures or calls inside them).
        var labels = Set<String>()
        var j = open + 1
        while j < close {
            if let inner = closing[j] { j = inner + 1; continue }
            if tokens[j].isIdentifier, j + 1 < close, tokens[j + 1].text == ":" { labels.insert(tokens[j].text) }
            j += 1
        }
        if labels.contains("context") { return nil }
        let name = tokens[nameIndex].text
        let noArguments = close == open + 1 && ["timestamp", "timeInterval"].contains(name)
        guard always || noArguments || !labels.isDisjoint(with: ThreadStarters.timedLabels) else { return nil }
        return "\(name) on its default context, .global"
    }

    private mutating func parseDeclarations() {
        let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]
        var pendingSuite: Range<Int>?
        var pendingTest: (start: Int, arguments: Range<Int>)?
        var raw: [(name: String, keyword: Int, body: Range<Int>, line: Int, isExtension: Bool, suite: Range<Int>?)] = []
        var i = 0
        while i < tokens.count {
            let t = tokens[i].text
            if t == "@", i + 1 < tokens.count, ["Suite", "Test"].contains(tokens[i + 1].text) {
                var arguments = (i + 2)..<(i + 2)
                if i + 2 < tokens.count, tokens[i + 2].text == "(", let close = closing[i + 2] {
                    arguments = (i + 3)..<close
                }
                if tokens[i + 1].text == "Suite" { pendingSuite = arguments } else { pendingTest = (i, arguments) }
                i = max(i + 2, arguments.upperBound)
                continue
            }
            let previous = i > 0 ? tokens[i - 1].text : ""
            if typeKeywords.contains(t), previous != ".", previous != "import", i + 1 < tokens.count, tokens[i + 1].isIdentifier,
               !["func", "var", "let", "subscript", "init"].contains(tokens[i + 1].text) {
                // The name, dotted for an extension of a nested type; then the body's brace.
                var name = tokens[i + 1].text
                var j = i + 2
                while j + 1 < tokens.count, tokens[j].text == ".", tokens[j + 1].isIdentifier {
                    name += "." + tokens[j + 1].text
                    j += 2
                }
                while j < tokens.count, !["{", "}", ";"].contains(tokens[j].text) { j += 1 }
                if j < tokens.count, tokens[j].text == "{", let close = closing[j] {
                    raw.append((name, i, (j + 1)..<close, tokens[i].line, t == "extension", t == "extension" ? nil : pendingSuite))
                }
                pendingSuite = nil
                i += 2
                continue
            }
            if t == "func", i + 1 < tokens.count {
                let name = tokens[i + 1].text
                var j = i + 2
                while j < tokens.count, tokens[j].text != "(" { j += 1 }
                var body: Range<Int>?
                if j < tokens.count, let paramsEnd = closing[j] {
                    // After the parameters: effects, a result type, a where clause, then the
                    // body; a requirement without a body ends at the next declaration.
                    var k = paramsEnd + 1
                    let stops: Set<String> = ["}", ";", "@", "func", "var", "let", "case", "init", "subscript",
                                              "struct", "class", "enum", "actor", "extension", "protocol", "typealias"]
                    while k < tokens.count, tokens[k].text != "{", !stops.contains(tokens[k].text) {
                        if let inner = closing[k], tokens[k].text != "{" { k = inner + 1 } else { k += 1 }
                    }
                    if k < tokens.count, tokens[k].text == "{", let close = closing[k] { body = (k + 1)..<close }
                }
                let isTest = pendingTest != nil
                if let body {
                    functions.append(Function(name: name, keyword: i, body: body, line: tokens[i].line, isTest: isTest))
                    if let pending = pendingTest {
                        tests.append(TestFunction(name: name, declaration: i, range: pending.start..<(body.upperBound + 1),
                                                  attributeArguments: pending.arguments, line: tokens[i].line))
                    }
                }
                pendingTest = nil
                i += 2
                continue
            }
            i += 1
        }
        // The innermost type around each test holds it.
        let holders = Set(tests.compactMap { test in
            raw.filter { $0.body.contains(test.declaration) }.min { $0.body.count < $1.body.count }?.keyword
        })
        // Qualified names: a type inside another's body is Outer.Inner.
        for r in raw {
            let outer = raw.filter { $0.body.contains(r.keyword) }.sorted { $0.body.count > $1.body.count }.map(\.name)
            let name = r.isExtension ? r.name : (outer + [r.name]).joined(separator: ".")
            types.append(TypeDecl(name: name, keyword: r.keyword, body: r.body, line: r.line, isExtension: r.isExtension,
                                  suiteAttribute: r.suite, holdsTests: holders.contains(r.keyword)))
        }
    }

    /// Identifiers and punctuation; comments, whitespace and what string literals hold are
    /// dropped (their interpolations too: a thread started inside `"\(…)"` is not looked for).
    static func tokenize(_ b: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        var line = 1
        func isIdentifierByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x24 || c >= 0x80
        }
        func at(_ k: Int, _ bytes: [UInt8]) -> Bool {
            guard k + bytes.count <= b.count else { return false }
            for (n, byte) in bytes.enumerated() where b[k + n] != byte { return false }
            return true
        }
        let lineComment: [UInt8] = Array("//".utf8), blockOpen: [UInt8] = Array("/*".utf8)
        let blockClose: [UInt8] = Array("*/".utf8), tripleQuote: [UInt8] = Array("\"\"\"".utf8)
        func startsComment(_ k: Int) -> Bool { b[k] == 0x2F && (at(k, lineComment) || at(k, blockOpen)) }
        /// Skips a comment starting at `k`; returns the index after it.
        func skipComment(_ k: Int) -> Int {
            if at(k, lineComment) {
                var j = k
                while j < b.count, b[j] != 0x0A { j += 1 }
                return j
            }
            var depth = 0
            var j = k
            while j < b.count {
                if at(j, blockOpen) { depth += 1; j += 2; continue }
                if at(j, blockClose) { depth -= 1; j += 2; if depth == 0 { return j }; continue }
                if b[j] == 0x0A { line += 1 }
                j += 1
            }
            return j
        }
        /// Skips a string literal whose opening (`#`s and quotes) starts at `k`.
        func skipString(_ k: Int) -> Int {
            var j = k
            var hashes = 0
            while j < b.count, b[j] == 0x23 { hashes += 1; j += 1 }
            let multiline = at(j, tripleQuote)
            j += multiline ? 3 : 1
            let terminator = (multiline ? tripleQuote : [0x22]) + [UInt8](repeating: 0x23, count: hashes)
            let escape = [0x5C] + [UInt8](repeating: 0x23, count: hashes)
            while j < b.count {
                if b[j] == 0x22, at(j, terminator) { return j + terminator.count }
                if b[j] == 0x5C, at(j, escape) {
                    j += escape.count
                    if j < b.count, b[j] == 0x28 { j = skipInterpolation(j) } else { j += 1 }
                    continue
                }
                if b[j] == 0x0A { line += 1 }
                j += 1
            }
            return j
        }
        /// Skips `( … )` inside a string, strings and comments in it included.
        func skipInterpolation(_ k: Int) -> Int {
            var depth = 0
            var j = k
            while j < b.count {
                let c = b[j]
                if c == 0x28 { depth += 1 } else if c == 0x29 { depth -= 1; if depth == 0 { return j + 1 } }
                if c == 0x22 || (c == 0x23 && startsRawString(j)) { j = skipString(j); continue }
                if startsComment(j) { j = skipComment(j); continue }
                if c == 0x0A { line += 1 }
                j += 1
            }
            return j
        }
        func startsRawString(_ k: Int) -> Bool {
            var j = k
            while j < b.count, b[j] == 0x23 { j += 1 }
            return j < b.count && b[j] == 0x22
        }
        while i < b.count {
            let c = b[i]
            if c == 0x0A { line += 1; i += 1; continue }
            if c == 0x20 || c == 0x09 || c == 0x0D { i += 1; continue }
            if startsComment(i) { i = skipComment(i); continue }
            if c == 0x22 || (c == 0x23 && startsRawString(i)) {
                let start = line
                i = skipString(i)
                tokens.append(Token(text: "\"\"", line: start))
                continue
            }
            if c == 0x60 {  // `escaped identifier`
                var j = i + 1
                while j < b.count, b[j] != 0x60, b[j] != 0x0A { j += 1 }
                tokens.append(Token(text: String(decoding: b[(i + 1)..<j], as: UTF8.self), line: line))
                i = j + 1
                continue
            }
            if isIdentifierByte(c) {
                var j = i
                while j < b.count, isIdentifierByte(b[j]) { j += 1 }
                tokens.append(Token(text: String(decoding: b[i..<j], as: UTF8.self), line: line))
                i = j
                continue
            }
            tokens.append(Token(text: String(decoding: [c], as: UTF8.self), line: line))
            i += 1
        }
        return tokens
    }
}

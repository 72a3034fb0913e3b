import Foundation

/// A child process in a process group of its own, with its standard streams as pipes or
/// /dev/null: `bench ab`'s sides and the `--help` check of a build.
///
/// Why not `Foundation.Process`: a build under test may fork (a wrapper script, a child of its
/// own) and leave a process behind that holds the output pipe open; reading to the end of that
/// pipe then never ends, and killing the child alone does not end it. Here the child is made
/// the leader of a new process group (`posix_spawn` with `POSIX_SPAWN_SETPGROUP`), so `kill()`
/// ends it and everything it started, and every read is bounded by a deadline.
package final class GroupProcess: @unchecked Sendable {
    package let pid: pid_t
    /// The write end of the child's standard input (-1 when it reads /dev/null).
    package private(set) var inputFD: Int32
    /// The read end of the child's standard output (and error, when merged); -1 when none.
    package private(set) var outputFD: Int32
    private var status: Int32?

    private init(pid: pid_t, inputFD: Int32, outputFD: Int32) {
        self.pid = pid; self.inputFD = inputFD; self.outputFD = outputFD
    }

    deinit {
        killGroup()
        closeStreams()
    }

    /// How standard error is wired.
    package enum ErrorStream { case null, merged }

    /// Starts `executable` with `arguments` and `environment` (the whole environment), its
    /// standard output a pipe, its standard input a pipe when `pipeInput` (else /dev/null).
    package static func spawn(executable: String, arguments: [String], environment: [String: String],
                              pipeInput: Bool, errors: ErrorStream) -> Result<GroupProcess, SpawnError> {
        var outPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard makePipe(&outPipe) else { return .failure(SpawnError(description: "pipe: \(String(cString: strerror(errno)))")) }
        if pipeInput {
            guard makePipe(&inPipe) else {
                close(outPipe[0]); close(outPipe[1])
                return .failure(SpawnError(description: "pipe: \(String(cString: strerror(errno)))"))
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipeInput {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        switch errors {
        case .null: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .merged: posix_spawn_file_actions_adddup2(&actions, outPipe[1], 2)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new process group led by the child; SIGPIPE back to its default (this process
        // ignores it, and an ignored signal stays ignored across exec).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv { free(p) }; for p in envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outPipe[1])
        if pipeInput { close(inPipe[0]) }
        guard rc == 0 else {
            close(outPipe[0])
            if pipeInput { close(inPipe[1]) }
            return .failure(SpawnError(description: "could not start \(executable): \(String(cString: strerror(rc)))"))
        }
        return .success(GroupProcess(pid: pid, inputFD: pipeInput ? inPipe[1] : -1, outputFD: outPipe[0]))
    }

    /// Kills the whole process group (the child and whatever it started that stayed in it).
    /// (The group is signalled even after the leader was reaped: what it started may still
    /// hold a pipe. Its number could name another group only after the kernel has handed out
    /// every other process number meanwhile.)
    package func killGroup() {
        _ = kill(-pid, SIGKILL)
        if status == nil { _ = kill(pid, SIGKILL) }
    }

    /// Closes this side's ends of the pipes.
    package func closeStreams() {
        if inputFD >= 0 { close(inputFD); inputFD = -1 }
        if outputFD >= 0 { close(outputFD); outputFD = -1 }
    }

    /// Closes the child's standard input (end of input for it).
    package func closeInput() {
        if inputFD >= 0 { close(inputFD); inputFD = -1 }
    }

    /// Writes a line to the child's standard input; false when it cannot be written.
    @discardableResult
    package func send(_ line: String) -> Bool {
        guard inputFD >= 0 else { return false }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// What a bounded read gave.
    package enum ReadOutcome: Equatable {
        /// Bytes (possibly empty only at the end of the stream).
        case data([UInt8])
        /// The end of the output: every process holding the pipe closed it.
        case end
        /// Nothing before the deadline.
        case timedOut
    }

    /// Reads what is available of the output, waiting until `deadline` at most.
    package func read(until deadline: Date) -> ReadOutcome {
        guard outputFD >= 0 else { return .end }
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timedOut }
            var fds = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { readFD(outputFD, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { return .end }
            return .data(Array(chunk[0..<n]))
        }
    }

    /// Whether the child has not been reaped yet (it may be a zombie).
    package var isRunning: Bool {
        if status != nil { return false }
        var s: Int32 = 0
        let r = waitpid(pid, &s, WNOHANG)
        if r == pid { status = s; return false }
        return r == 0
    }

    /// Waits for the child until `deadline`, then kills the group and waits for the child.
    /// Returns its raw wait status.
    @discardableResult
    package func wait(until deadline: Date) -> Int32 {
        while isRunning && Date() < deadline { usleep(1_000) }
        if isRunning {
            killGroup()
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
            status = s
        }
        // Whatever else stayed in the group (a grandchild holding a pipe) goes too.
        killGroup()
        return status ?? 0
    }

    /// "exit status N" or the signal's name, once the child has ended; "still running" before.
    package var exitDescription: String {
        guard !isRunning, let s = status else { return "still running" }
        if s & 0x7f == 0 { return "exit status \((s >> 8) & 0xff)" }
        return ChildProcess.signalName(s & 0x7f)
    }
}

/// Why a child could not be started.
package struct SpawnError: Error, CustomStringConvertible {
    package var description: String
}

/// A pipe whose ends are closed on exec (only the ends `posix_spawn` duplicates reach a child,
/// so one side never holds the other side's pipe open).
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return true
}

private func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

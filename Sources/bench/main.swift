import ArgumentParser
import Foundation
import SignalsReports

// A custom entry point instead of `BenchCommand.main()`: ArgumentParser exits 64 on a
// validation error, and every bad argument must exit 2 (`BenchExitCode.usage`), as the scripts do.
do {
    var command = try BenchCommand.parseAsRoot()
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    if BenchCommand.exitCode(for: error) == .success {
        BenchCommand.exit(withError: error)  // --help, --version
    }
    let message: String
    if let usage = error as? UsageError {
        message = "error: \(usage.description)"
    } else {
        message = BenchCommand.fullMessage(for: error)
    }
    FileHandle.standardError.write(Data((message + "\n(see `bench --help`)\n").utf8))
    exit(BenchExitCode.usage.rawValue)
}
exit(0)

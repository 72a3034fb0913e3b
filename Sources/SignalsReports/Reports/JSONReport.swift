import Foundation

/// Reading and writing the JSON schema (docs/bench-guide.md, "Report formats and the JSON schema").
package enum JSONReport {
    package static func encode(_ report: BenchReport) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try e.encode(report)
    }

    package static func render(_ report: BenchReport) -> String {
        (try? encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// Why a file could not be used as a report; the message names the file.
    package struct LoadError: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// Decodes a report, checking the schema version first so an old or foreign file gets a
    /// clear message rather than a decoding trace.
    package static func decode(_ data: Data, name: String = "input") throws(LoadError) -> BenchReport {
        let object: Any
        if data.isEmpty { throw LoadError(description: "\(name): the file is empty; expected a bench report (JSON)") }
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation says why for some inputs ("Number 1e400 is not representable").
            let why = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String).map { " (\($0))" } ?? ""
            throw LoadError(description: "\(name): not valid JSON\(why)")
        }
        guard let dict = object as? [String: Any] else {
            throw LoadError(description: "\(name): not a bench report (expected a JSON object with \"schemaVersion\": \(BenchReport.currentSchemaVersion))")
        }
        guard let version = dict["schemaVersion"] as? Int else {
            throw LoadError(description: "\(name): no \"schemaVersion\" field; expected \(BenchReport.currentSchemaVersion) (written by `bench --format json`)")
        }
        guard BenchReport.readableSchemaVersions.contains(version) else {
            let allowed = BenchReport.readableSchemaVersions.map(String.init).joined(separator: ", ")
            throw LoadError(description: "\(name): schemaVersion \(version) is not supported; allowed: \(allowed)")
        }
        if let bad = ReportValidation.firstBadNumber(in: object) {
            throw LoadError(description: "\(name): \(bad)")
        }
        do {
            return try JSONDecoder().decode(BenchReport.self, from: data)
        } catch let DecodingError.keyNotFound(key, ctx) {
            throw LoadError(description: "\(name): wrong schema: missing \"\(key.stringValue)\" at \(path(ctx.codingPath))")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw LoadError(description: "\(name): wrong schema: unexpected type at \(path(ctx.codingPath))")
        } catch let DecodingError.dataCorrupted(ctx) {
            throw LoadError(description: "\(name): wrong schema: bad value at \(path(ctx.codingPath))")
        } catch {
            throw LoadError(description: "\(name): wrong schema: \(error)")
        }
    }

    /// Reads and decodes the report at `path` (see `ReportFile.contents`).
    package static func load(path: String) throws(LoadError) -> BenchReport {
        try decode(ReportFile.contents(path: path), name: path)
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// The numbers of a report read from a file: every one must be finite and in range, so that no
/// renderer or comparison is handed a figure it cannot print or compute with. Checked on the
/// parsed JSON before decoding, so the message names the field by its JSON path.
package enum ReportValidation {
    /// The largest magnitude any figure may have: 10^15 (ns: about 11.6 days per operation;
    /// counts and rates far beyond anything measured). Seeds are exempt: any UInt64.
    package static let maxMagnitude = 1e15

    /// Keys whose numbers are any 64-bit unsigned integer (seeds).
    static let unboundedKeys: Set<String> = ["seed"]

    /// The first number out of range, as "field PATH: VALUE is …", or nil when all are fine.
    package static func firstBadNumber(in object: Any) -> String? {
        // Iterative walk (a hostile file may nest deeply): (value, path, key).
        var stack: [(Any, String, String?)] = [(object, "", nil)]
        while let (value, path, key) = stack.popLast() {
            if let dict = value as? [String: Any] {
                for (k, v) in dict.sorted(by: { $0.key > $1.key }) { stack.append((v, path + "." + k, k)) }
            } else if let array = value as? [Any] {
                for (i, v) in array.enumerated().reversed() { stack.append((v, path + "[\(i)]", key)) }
            } else if let number = value as? NSNumber, !(value is String) {
                let v = number.doubleValue
                let field = path.isEmpty ? "the top level" : String(path.dropFirst(path.hasPrefix(".") ? 1 : 0))
                if !v.isFinite { return "field \(field): \(number) is not a finite number" }
                if let key, unboundedKeys.contains(key) {
                    if v < 0 || v > Double(UInt64.max) { return "field \(field): \(number) is not a seed (a whole number from 0 to \(UInt64.max))" }
                } else if abs(v) > maxMagnitude {
                    return "field \(field): \(number) is out of range (a figure of a report is at most 1e15 in magnitude)"
                }
            }
        }
        return nil
    }
}

/// Reading a file named on the command line as input (`bench report`, `bench compare`): a
/// regular file of at most `maxBytes`. A folder, a FIFO, a device (`/dev/zero` never ends,
/// a FIFO with no writer never answers) or a socket is refused at once, naming what it is;
/// so is an empty or oversized file. Nothing here blocks: the file is opened non-blocking and
/// checked with `fstat` before a byte is read.
package enum ReportFile {
    /// The most bytes a report may have: 256 MiB (a full `bench run` report is under 1 MiB).
    package static let maxBytes = 256 << 20

    package static func contents(path: String) throws(JSONReport.LoadError) -> Data {
        func fail(_ why: String) -> JSONReport.LoadError { JSONReport.LoadError(description: "\(path): \(why)") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw fail("cannot read the file (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw fail("cannot read the file (\(String(cString: strerror(errno))))") }
        let type = st.st_mode & S_IFMT
        guard type == S_IFREG else {
            let what: String
            switch type {
            case S_IFDIR: what = "a folder"
            case S_IFIFO: what = "a FIFO (a named pipe)"
            case S_IFCHR: what = "a character device"
            case S_IFBLK: what = "a block device"
            case S_IFSOCK: what = "a socket"
            default: what = "not a regular file"
            }
            throw fail("is \(what), not a report file: a report is read from a regular file")
        }
        if st.st_size == 0 { throw fail("the file is empty; expected a bench report (JSON)") }
        if st.st_size > maxBytes { throw fail("the file has \(st.st_size) bytes, more than the \(maxBytes >> 20) MiB a report may have") }
        // Read at most one byte past the limit: a file that grows while read is caught too.
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= maxBytes {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n < 0 { throw fail("cannot read the file (\(String(cString: strerror(errno))))") }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        if data.count > maxBytes { throw fail("the file has more than the \(maxBytes >> 20) MiB a report may have") }
        return data
    }
}

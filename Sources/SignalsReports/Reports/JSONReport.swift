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
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LoadError(description: "\(name): not valid JSON")
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

    package static func load(path: String) throws(LoadError) -> BenchReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the file")
        }
        return try decode(data, name: path)
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

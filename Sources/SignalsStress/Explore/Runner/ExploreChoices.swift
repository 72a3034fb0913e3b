/// The written form of a schedule (`--replay`): the thread chosen at each decision,
/// comma-separated, a run of n decisions for thread t written `t*n`, so a schedule that lets
/// one thread run for a hundred points stays one line: `0*46,1*9,0*30`.
package enum ExploreChoices {
    /// `choices`, runs shortened.
    package static func format(_ choices: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < choices.count {
            var j = i
            while j < choices.count && choices[j] == choices[i] { j += 1 }
            parts.append(j - i > 2 ? "\(choices[i])*\(j - i)" : Array(repeating: String(choices[i]), count: j - i).joined(separator: ","))
            i = j
        }
        return parts.joined(separator: ",")
    }

    /// The choices of `text`, or why it is not a schedule: an empty item, a thread number
    /// outside 0–15, a run length outside 1–1,000,000.
    package static func parse(_ text: String) -> Result<[Int], ExploreChoicesError> {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || items.contains(where: \.isEmpty) {
            return .failure(ExploreChoicesError(description: "expected thread numbers, comma-separated, with no empty item (got '\(text)')"))
        }
        var choices: [Int] = []
        for item in items {
            let parts = item.split(separator: "*", omittingEmptySubsequences: false)
            guard parts.count <= 2, let t = Int(parts[0]), (0...15).contains(t) else {
                return .failure(ExploreChoicesError(description: "'\(item)' is not a thread number from 0 to 15 (or t*n, a run of n)"))
            }
            var n = 1
            if parts.count == 2 {
                guard let k = Int(parts[1]), (1...1_000_000).contains(k) else {
                    return .failure(ExploreChoicesError(description: "'\(item)': a run length from 1 to 1000000 after the *"))
                }
                n = k
            }
            choices += Array(repeating: t, count: n)
        }
        return .success(choices)
    }
}

/// Why a `--replay` value is not a schedule.
package struct ExploreChoicesError: Error, CustomStringConvertible {
    /// The message, for `--replay: …`.
    package var description: String
}

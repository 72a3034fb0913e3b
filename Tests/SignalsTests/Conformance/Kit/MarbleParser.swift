import Signals

// The marble grammar of RxJS's TestScheduler in "run mode" (one frame per virtual millisecond,
// whitespace ignored), parsed into frames and events, and drawn back for failure messages.
//
// The frame rule is RxJS's: every character but whitespace takes one frame, `(` and `)`
// included, and every event inside a group happens at the group's first frame. So `(ab)` puts
// `a` and `b` at frame 0 and the next character at frame 4. A time progression (`10ms`, `1.5s`,
// `2m`) must start the diagram or follow whitespace and be followed by whitespace or the end;
// it moves the frame by that many milliseconds and takes no frame of its own.

/// What a marble diagram says happens in one frame.
enum MarbleEvent<T: Sendable>: Sendable {
    case value(T)
    case end(End)
}

extension MarbleEvent: Equatable where T: Equatable {}

/// An event at a frame (frames relative to the diagram's zero: `^` for a hot, the subscription
/// for a cold).
struct MarbleRecord<T: Sendable>: Sendable {
    var frame: Int
    var event: MarbleEvent<T>
}

extension MarbleRecord: Equatable where T: Equatable {}

/// A subscription as RxJS logs it: the frame it began and the frame it ended (nil: never).
struct MarbleSubscription: Equatable, Sendable, CustomStringConvertible {
    var subscribed: Int
    var unsubscribed: Int?

    var description: String {
        "\(subscribed)…\(unsubscribed.map(String.init) ?? "∞")"
    }
}

/// The error a `#` stands for when a diagram names none (RxJS's default is the string "error").
struct MarbleError: Error, Equatable, CustomStringConvertible {
    var message: String
    init(_ message: String = "error") { self.message = message }
    var description: String { message }
}

/// A malformed diagram.
struct MarbleSyntaxError: Error, CustomStringConvertible {
    var description: String
}

enum MarbleParser {
    /// Parses a value diagram (`hot`, `cold`, or an expected one). A `^` is allowed only when
    /// `hot` is true; frames are then counted from it (events before it get negative frames).
    static func parse<T: Sendable>(
        _ marbles: String, values: [Character: T], error: any Error, hot: Bool
    ) throws -> [MarbleRecord<T>] {
        let chars = Array(marbles)
        var records: [MarbleRecord<T>] = []
        var frame = 0
        var groupStart: Int?
        var zero: Int?
        var index = 0
        while index < chars.count {
            let c = chars[index]
            defer { index += 1 }
            if c.isWhitespace { continue }
            if let (length, ms) = try duration(chars, at: index) {
                frame += ms
                index += length - 1
                continue
            }
            let at = groupStart ?? frame
            switch c {
            case "-":
                break
            case "(":
                if groupStart != nil { throw MarbleSyntaxError(description: "nested group in \"\(marbles)\"") }
                groupStart = frame
            case ")":
                if groupStart == nil { throw MarbleSyntaxError(description: "\")\" without \"(\" in \"\(marbles)\"") }
                groupStart = nil
            case "|":
                records.append(MarbleRecord(frame: at, event: .end(.complete)))
            case "#":
                records.append(MarbleRecord(frame: at, event: .end(End(.other(error)))))
            case "^":
                if !hot { throw MarbleSyntaxError(description: "\"^\" in a diagram that is not hot: \"\(marbles)\"") }
                if zero != nil { throw MarbleSyntaxError(description: "more than one \"^\" in \"\(marbles)\"") }
                zero = at
            case "!":
                throw MarbleSyntaxError(description: "\"!\" belongs in subscription diagrams only: \"\(marbles)\"")
            default:
                records.append(MarbleRecord(frame: at, event: .value(try value(for: c, in: values, marbles: marbles))))
            }
            frame += 1
        }
        if groupStart != nil { throw MarbleSyntaxError(description: "unclosed group in \"\(marbles)\"") }
        if let zero, zero != 0 {
            return records.map { MarbleRecord(frame: $0.frame - zero, event: $0.event) }
        }
        return records
    }

    /// Parses a subscription diagram (`^` subscribe, `!` unsubscribe, `-`, groups, time
    /// progression). No `^` means subscribed at frame 0; no `!` means never unsubscribed.
    static func parseSubscription(_ marbles: String) throws -> MarbleSubscription {
        let chars = Array(marbles)
        var frame = 0
        var groupStart: Int?
        var subscribed: Int?
        var unsubscribed: Int?
        var index = 0
        while index < chars.count {
            let c = chars[index]
            defer { index += 1 }
            if c.isWhitespace { continue }
            if let (length, ms) = try duration(chars, at: index) {
                frame += ms
                index += length - 1
                continue
            }
            switch c {
            case "-":
                frame += 1
            case "(":
                if groupStart != nil { throw MarbleSyntaxError(description: "nested group in \"\(marbles)\"") }
                groupStart = frame
                frame += 1
            case ")":
                if groupStart == nil { throw MarbleSyntaxError(description: "\")\" without \"(\" in \"\(marbles)\"") }
                groupStart = nil
                frame += 1
            case "^":
                if subscribed != nil { throw MarbleSyntaxError(description: "more than one \"^\" in \"\(marbles)\"") }
                subscribed = groupStart ?? frame
                frame += 1
            case "!":
                // As in RxJS, `!` takes no frame.
                if unsubscribed != nil { throw MarbleSyntaxError(description: "more than one \"!\" in \"\(marbles)\"") }
                unsubscribed = groupStart ?? frame
            default:
                throw MarbleSyntaxError(description: "\"\(c)\" in subscription diagram \"\(marbles)\"")
            }
        }
        if groupStart != nil { throw MarbleSyntaxError(description: "unclosed group in \"\(marbles)\"") }
        return MarbleSubscription(subscribed: subscribed ?? 0, unsubscribed: unsubscribed)
    }

    /// RxJS's `time('---|')`: the frame of the `|` (dashes and time progression only).
    static func time(_ marbles: String) throws -> Int {
        let chars = Array(marbles)
        var frame = 0
        var completion: Int?
        var index = 0
        while index < chars.count {
            let c = chars[index]
            defer { index += 1 }
            if c.isWhitespace { continue }
            if let (length, ms) = try duration(chars, at: index) {
                frame += ms
                index += length - 1
                continue
            }
            switch c {
            case "-":
                frame += 1
            case "|":
                if completion != nil { throw MarbleSyntaxError(description: "more than one \"|\" in time diagram \"\(marbles)\"") }
                completion = frame
                frame += 1
            default:
                throw MarbleSyntaxError(description: "\"\(c)\" in time diagram \"\(marbles)\"")
            }
        }
        guard let completion else { throw MarbleSyntaxError(description: "no \"|\" in time diagram \"\(marbles)\"") }
        return completion
    }

    /// A time progression at `index` (digits, optional fraction, then `ms`, `s` or `m`), if one
    /// starts there: its length in characters and its milliseconds.
    static func duration(_ chars: [Character], at index: Int) throws -> (Int, Int)? {
        guard chars[index].isASCII, chars[index].isNumber else { return nil }
        if index > 0 && !chars[index - 1].isWhitespace { return nil }
        var end = index
        while end < chars.count, chars[end].isASCII, chars[end].isNumber || chars[end] == "." { end += 1 }
        let number = String(chars[index..<end])
        var unitEnd = end
        while unitEnd < chars.count, chars[unitEnd] == "m" || chars[unitEnd] == "s" { unitEnd += 1 }
        let unit = String(chars[end..<unitEnd])
        guard unitEnd == chars.count || chars[unitEnd].isWhitespace else { return nil }
        let multiplier: Double
        switch unit {
        case "ms": multiplier = 1
        case "s": multiplier = 1_000
        case "m": multiplier = 60_000
        default: return nil
        }
        guard let amount = Double(number) else { return nil }
        let ms = amount * multiplier
        guard ms.isFinite, ms >= 0, ms < Double(Int32.max) else {
            throw MarbleSyntaxError(description: "time progression \"\(number)\(unit)\" out of range")
        }
        return (unitEnd - index, Int(ms.rounded()))
    }

    static func value<T>(for c: Character, in values: [Character: T], marbles: String) throws -> T {
        if let v = values[c] { return v }
        if let v = String(c) as? T { return v }
        if let v = c as? T { return v }
        throw MarbleSyntaxError(description: "no value for \"\(c)\" in \"\(marbles)\" (pass it in `values:`)")
    }
}

enum MarbleDrawing {
    /// Draws events as a marble diagram: `-` for an empty frame, a value's key in `values` (or the
    /// value itself if it is one character, else `*`), `|` complete, `#` an error or
    /// `.cancelled`, `(…)` several events in one frame. An event that a group before it
    /// overlaps cannot be drawn at its frame; it is drawn late and the result says so.
    static func draw<T: Sendable & Equatable>(_ records: [MarbleRecord<T>], values: [Character: T]) -> (diagram: String, exact: Bool) {
        var out = ""
        var position = 0
        var exact = true
        var index = 0
        let sorted = records.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        while index < sorted.count {
            let frame = sorted[index].frame
            var same: [MarbleRecord<T>] = []
            while index < sorted.count, sorted[index].frame == frame {
                same.append(sorted[index])
                index += 1
            }
            if frame > position {
                out += String(repeating: "-", count: frame - position)
                position = frame
            } else if frame < position {
                exact = false
            }
            let symbols = same.map { symbol(for: $0.event, values: values) }
            if symbols.count == 1 {
                out += symbols[0]
                position += 1
            } else {
                out += "(" + symbols.joined() + ")"
                position += symbols.count + 2
            }
        }
        return (out, exact)
    }

    static func symbol<T: Sendable & Equatable>(for event: MarbleEvent<T>, values: [Character: T]) -> String {
        switch event {
        case .end(.complete): return "|"
        case .end: return "#"
        case .value(let v):
            if let key = values.filter({ $0.value == v }).keys.sorted().first { return String(key) }
            // A one-character String is its own marble; any other value has no character.
            let text = (v as? String) ?? (v as? Character).map(String.init) ?? ""
            if text.count == 1, !"-|#()^! ".contains(text) { return text }
            return "*"
        }
    }

    /// The events as a list, one `frame: event` per item.
    static func list<T: Sendable>(_ records: [MarbleRecord<T>]) -> String {
        if records.isEmpty { return "(none)" }
        return records.map { r in
            switch r.event {
            case .value(let v): "\(r.frame): \(String(reflecting: v))"
            case .end(let e): "\(r.frame): \(e)"
            }
        }.joined(separator: ", ")
    }

    /// Draws a subscription as RxJS writes it: `^` at the subscription frame, `!` at the
    /// unsubscription frame (`(^!)` when both are the same frame).
    static func draw(_ s: MarbleSubscription) -> String {
        let lead = String(repeating: "-", count: max(s.subscribed, 0))
        guard let u = s.unsubscribed else { return lead + "^" }
        if u == s.subscribed { return lead + "(^!)" }
        return lead + "^" + String(repeating: "-", count: max(u - s.subscribed - 1, 0)) + "!"
    }
}

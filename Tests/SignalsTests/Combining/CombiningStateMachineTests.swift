import Signals
import Testing

/// The bookkeeping of `combineLatest` and `zip`, driven by hand: no signal, no thread. Each
/// test feeds results in one order and checks what the machine tells the stage to do, step by
/// step (an action as text: `SignalEnd` is not `Equatable`).
@Suite struct CombiningStateMachineTests {
    struct Failure: Error {}

    func texts(_ actions: [CombiningAction]) -> [String] {
        actions.map { action in
            switch action {
            case .none: "none"
            case .emit: "emit"
            case .emitThenEnd(let e): "emit, then \(e.text)"
            case .end(let e): e.text
            }
        }
    }

    // MARK: combineLatest

    @Test func combineLatestEmitsOnceEveryInputHasAValue() {
        var m = CombineLatestStateMachine(inputs: 3)
        let steps = [m.valueArrived(from: 0), m.valueArrived(from: 0), m.valueArrived(from: 2),
                     m.valueArrived(from: 1), m.valueArrived(from: 0)]
        #expect(texts(steps) == ["none", "none", "none", "emit", "emit"])
    }

    @Test func combineLatestEndsWhenEveryInputHasEnded() {
        var m = CombineLatestStateMachine(inputs: 3)
        let steps = [m.valueArrived(from: 0), m.valueArrived(from: 1), m.valueArrived(from: 2),
                     m.endArrived(from: 0, .complete),
                     m.valueArrived(from: 1),            // an ended input's latest value still combines
                     m.endArrived(from: 2, .cancelled),
                     m.endArrived(from: 1, .complete)]
        #expect(texts(steps) == ["none", "none", "emit", "none", "emit", "none", "complete"])
    }

    @Test func combineLatestOfThreeWaitsForEveryEndWhenAnInputEndsWithoutAValue() {
        var m = CombineLatestStateMachine(inputs: 3)
        let steps = [m.valueArrived(from: 0), m.endArrived(from: 1, .cancelled),
                     m.valueArrived(from: 2), m.endArrived(from: 0, .complete),
                     m.endArrived(from: 2, .cancelled)]
        #expect(texts(steps) == ["none", "none", "none", "none", "cancelled"])
    }

    @Test func combineLatestOfTwoWaitsForBothEnds() {
        var m = CombineLatestStateMachine(inputs: 2)
        let steps = [m.endArrived(from: 1, .complete), m.valueArrived(from: 0), m.endArrived(from: 0, .complete)]
        #expect(texts(steps) == ["none", "none", "complete"])
    }

    @Test func combineLatestEndsAtOnceOnAnError() {
        var m = CombineLatestStateMachine(inputs: 5)
        for i in 0..<5 { _ = m.valueArrived(from: i) }
        let step = m.endArrived(from: 3, .other(Failure()))
        #expect(texts([step]) == ["error"])
    }

    @Test func combineLatestReceiveKeepsTheLatestValue() {
        var m = CombineLatestStateMachine(inputs: 2)
        var latest = LatestValue<Int>()
        let steps = [m.receive(.success(3), from: 0, into: &latest),
                     m.receive(.success(4), from: 0, into: &latest),
                     m.receive(Result<Int, SignalEnd>.failure(.complete), from: 0, into: &latest)]
        #expect(texts(steps) == ["none", "none", "none"])
        #expect(latest.value == 4, "the latest value, kept after the end")
    }

    // MARK: zip

    @Test func zipEmitsWhenEveryInputHasAQueuedValue() {
        var m = ZipStateMachine(inputs: 3)
        let steps = [m.valueArrived(from: 0), m.valueArrived(from: 0), m.valueArrived(from: 1),
                     m.valueArrived(from: 2),            // the first values of each
                     m.valueArrived(from: 1),
                     m.valueArrived(from: 2),            // input 0's second value pairs now
                     m.valueArrived(from: 2)]
        #expect(texts(steps) == ["none", "none", "none", "emit", "none", "emit", "none"])
    }

    @Test func zipEndsOnceAnEndedInputIsDrained() {
        var m = ZipStateMachine(inputs: 2)
        let steps = [m.valueArrived(from: 0), m.valueArrived(from: 0),
                     m.endArrived(from: 0, .cancelled),  // two values still queued
                     m.valueArrived(from: 1),
                     m.valueArrived(from: 1)]            // the last queued value, then the end
        #expect(texts(steps) == ["none", "none", "none", "emit", "emit, then cancelled"])
    }

    @Test func zipEndsAtOnceWhenAnEmptyInputEnds() {
        var m = ZipStateMachine(inputs: 4)
        let steps = [m.valueArrived(from: 1), m.endArrived(from: 0, .complete)]
        #expect(texts(steps) == ["none", "complete"])
    }

    @Test func zipEndsAtOnceOnAnErrorWhateverIsQueued() {
        var m = ZipStateMachine(inputs: 2)
        let steps = [m.valueArrived(from: 0), m.endArrived(from: 0, .other(Failure()))]
        #expect(texts(steps) == ["none", "error"])
    }

    @Test func receiveDispatchesEachInputToItsSlot() {
        var m = ZipStateMachine(inputs: 3)
        var slots = (QueuedValues<Int>(), QueuedValues<String>(), QueuedValues<Bool>())
        let steps = [m.receive(EitherResult3<Int, String, Bool>.result2(.success("x")), into: &slots),
                     m.receive(EitherResult3<Int, String, Bool>.result1(.success(1)), into: &slots),
                     m.receive(EitherResult3<Int, String, Bool>.result3(.success(true)), into: &slots)]
        #expect(texts(steps) == ["none", "none", "emit"])
        #expect(slots.0.values == [1] && slots.1.values == ["x"] && slots.2.values == [true])
    }

    @Test func zipReceiveQueuesValues() {
        var m = ZipStateMachine(inputs: 2)
        var queue = QueuedValues<String>()
        let steps = [m.receive(.success("a"), from: 1, into: &queue),
                     m.receive(.success("b"), from: 1, into: &queue),
                     m.receive(Result<String, SignalEnd>.failure(.complete), from: 1, into: &queue)]
        #expect(texts(steps) == ["none", "none", "none"])
        #expect(queue.values == ["a", "b"])
    }
}

private extension SignalEnd {
    var text: String {
        switch self {
        case .complete: "complete"
        case .cancelled: "cancelled"
        case .other: "error"
        }
    }
}

import Dispatch
import Signals
import Testing

/// `DetachStateMachine` alone: every transition of a subscription's detach, whichever of
/// attaching, the root's early report and the request comes first. The terminal runs these
/// events under its lock and acts on what they return; what a real graph does with them
/// (cancel waiting, subscribing again) is in `OutputCloseTests` and `GraphChangeRaceTests`.
struct DetachStateMachineTests {
    final class Attachment {}
    typealias Machine = DetachStateMachine<Attachment>

    struct Failure: Error {}

    /// The state's name and the attachments it holds, for comparing.
    static func describe(_ state: Machine.State) -> String {
        switch state {
        case .attaching(let early): "attaching(early: \(early == nil ? "nil" : "some"))"
        case .attached: "attached"
        case .requested(let end): "requested(\(end.map { "\($0)" } ?? "cancel"))"
        case .detachingEarly(_, let arrived): "detachingEarly(arrived: \(arrived == nil ? "nil" : "some"))"
        }
    }

    @Test func cancelOfAnAttachedChainDetachesItOnThisThreadOnce() {
        var m = Machine()
        let a = Attachment()
        guard case .none = m.attachmentMade(a) else { Issue.record("kept"); return }
        guard case .none = m.setAttachment(a) else { Issue.record("kept"); return }
        #expect(Self.describe(m.state) == "attached")
        let action = m.requestDetach(end: nil)
        guard case .detach(let taken) = action else { Issue.record("\(action)"); return }
        #expect(taken === a)
        #expect(action.detachesOnThisThread)
        #expect(Self.describe(m.state) == "requested(cancel)", "the attachment is not kept")
        guard case .alreadyRequested = m.requestDetach(end: .complete) else {
            Issue.record("a second request detached again")
            return
        }
    }

    @Test func requestBeforeAnyAttachmentDetachesTheOneInProgressThenTheArrivingOne() {
        var m = Machine()
        let action = m.requestDetach(end: .complete)
        guard case .detachInProgress = action else { Issue.record("\(action)"); return }
        #expect(!action.detachesOnThisThread, "nothing for a second close to wait for here")
        // The root reports its attachment late: detached at once, with the request's end.
        guard case .detach(endedWith: .complete?) = m.attachmentMade(Attachment()) else {
            Issue.record("an attachment made after the request was not detached")
            return
        }
        guard case .detachAndFree(endedWith: .complete?) = m.setAttachment(Attachment()) else {
            Issue.record("the arriving attachment was not detached and the output freed")
            return
        }
    }

    @Test func requestAfterTheRootsReportDetachesEarlyAndLeavesTheArrivalToThatThread() {
        var m = Machine()
        let early = Attachment()
        _ = m.attachmentMade(early)
        let action = m.requestDetach(end: .other(Failure()))
        guard case .detachEarly(let taken) = action else { Issue.record("\(action)"); return }
        #expect(taken === early)
        #expect(action.detachesOnThisThread)
        // `attachChain` returns while the early detach runs: the attachment waits for it.
        let arrived = Attachment()
        guard case .none = m.setAttachment(arrived) else {
            Issue.record("the attachment was detached beside the early detach")
            return
        }
        #expect(Self.describe(m.state) == "detachingEarly(arrived: some)")
        guard case .detachArrived(let next) = m.earlyDetachFinished() else {
            Issue.record("the attachment that arrived was left behind")
            return
        }
        #expect(next === arrived)
        guard case .alreadyRequested = m.requestDetach(end: nil) else {
            Issue.record("a later request detached again")
            return
        }
    }

    @Test func earlyDetachFinishingFirstLeavesTheArrivalToSetAttachment() {
        var m = Machine()
        _ = m.attachmentMade(Attachment())
        _ = m.requestDetach(end: nil)
        guard case .awaitAttachment = m.earlyDetachFinished() else {
            Issue.record("finished with no attachment to detach")
            return
        }
        guard case .detachAndFree(endedWith: nil) = m.setAttachment(Attachment()) else {
            Issue.record("the attachment arriving after the early detach was kept")
            return
        }
    }

    @Test func aCloseWaitsOnlyForADetachRunningOnAnotherThread() {
        var m = Machine()
        let me: UInt = 0x1000, other: UInt = 0x2000
        guard case .none = m.waitForDetach(runningOn: Machine.noDetach, by: me) else {
            Issue.record("waited with no detach running")
            return
        }
        guard case .none = m.waitForDetach(runningOn: Machine.detachDone, by: me) else {
            Issue.record("waited for a finished detach")
            return
        }
        guard case .none = m.waitForDetach(runningOn: me, by: me) else {
            Issue.record("waited for its own detach (a cancel from inside the end)")
            return
        }
        #expect(m.waiters.isEmpty)
        guard case .wait(let first) = m.waitForDetach(runningOn: other, by: me),
              case .wait(let second) = m.waitForDetach(runningOn: other, by: me + 8) else {
            Issue.record("did not wait for another thread's detach")
            return
        }
        let woken = m.takeWaiters()
        #expect(woken.count == 2 && woken[0] === first && woken[1] === second)
        #expect(m.waiters.isEmpty, "each waiter is woken once")
    }
}

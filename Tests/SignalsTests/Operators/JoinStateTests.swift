import Signals
import Testing

/// The state of a `join`/`groupJoin` stage, driven by hand: no signal, no thread.
@Suite struct JoinStateTests {
    /// A window subscription: records whether it is still held.
    final class Window: Lifetime, @unchecked Sendable {
        func cancel() {}
    }

    @Test func idsAreNeverReused() {
        var s = JoinState<String, Int>()
        let ids = [s.takeID(), s.takeID(), s.takeID()]
        #expect(ids == [0, 1, 2])
        _ = s.end()
        #expect(s.takeID() == 3, "a late window event of the ended activation matches nothing")
    }

    @Test func closingALeftWindowRemovesOnlyIt() {
        var s = JoinState<String, Int>()
        s.openLeft(s.takeID(), 10, window: Window())
        s.openLeft(s.takeID(), 11, window: Window())
        #expect(s.closeLeft(0)?.value == 10)
        #expect(s.closeLeft(0) == nil, "closed already")
        #expect(s.lefts.map(\.value) == [11])
    }

    @Test func closingARightWindowRemovesOnlyIt() {
        var s = JoinState<String, Int>()
        s.openRight(s.takeID(), "a", window: Window())
        s.openRight(s.takeID(), "b", window: Window())
        s.closeRight(0)
        #expect(s.rights.map(\.value) == ["b"])
    }

    @Test func endReturnsTheOpenLeftsAndReleasesEveryWindow() {
        var s = JoinState<String, Int>()
        weak var leftWindow: Window?
        weak var rightWindow: Window?
        do {
            let l = Window(), r = Window()
            leftWindow = l
            rightWindow = r
            s.openLeft(s.takeID(), 7, window: l)
            s.openRight(s.takeID(), "x", window: r)
        }
        do {
            let open = s.end()
            withExtendedLifetime(open) {
                #expect(open.map(\.value) == [7])
                #expect(rightWindow == nil, "the right windows go with the end")
                #expect(leftWindow != nil, "a left window lasts as long as its returned entry")
            }
        }
        #expect(leftWindow == nil)
        #expect(s.lefts.isEmpty && s.rights.isEmpty)
    }
}

import PipCore
import Testing
@testable import PipControl

@Suite struct ControlOutcomeTests {
    func outcome(_ exchange: ControlWire.Exchange, _ request: PipRequest, name: String? = nil, waited: Int = 1000) -> ControlOutcome {
        ControlOutcome(exchange, for: request, name: name, display: ":3", waited: waited)
    }

    @Test func answersBecomeOutputOrTheInstancesLine() {
        #expect(outcome(.answered(PipReply.done("{}").encoded), .status) == ControlOutcome(exitCode: 0, output: "{}"))
        #expect(outcome(.answered(PipReply.done("").encoded), .pip(.toggle)) == ControlOutcome(exitCode: 0))
        #expect(outcome(.answered(PipReply.failed("pipcam: no").encoded), .camera(.list)) == ControlOutcome(exitCode: 1, error: "pipcam: no"))
        #expect(outcome(.answered(Array("what".utf8)), .status, name: "cam")
            == ControlOutcome(exitCode: 1, error: "pipcam: the pipcam 'cam' on :3 gave an answer pipcam does not know"))
    }

    @Test func noInstanceIsExitThree() {
        #expect(outcome(.notRunning, .status) == ControlOutcome(exitCode: 3, error: "pipcam: no pipcam is running on :3"))
        #expect(outcome(.notRunning, .quit, name: "cam") == ControlOutcome(exitCode: 3, error: "pipcam: no pipcam 'cam' is running on :3"))
    }

    @Test func anInstanceThatExitsAnsweredQuitOnly() {
        #expect(outcome(.exitedBeforeAnswering, .quit) == ControlOutcome(exitCode: 0))
        #expect(outcome(.exitedBeforeAnswering, .pip(.start)) == ControlOutcome(exitCode: 1, error: "pipcam: the pipcam on :3 exited before answering"))
    }

    @Test func aChangeNotConfirmedInTimeIsSentNotConfirmed() {
        #expect(outcome(.timedOut, .pip(.toggle)).error == "pipcam: toggle sent, not yet confirmed (the pipcam on :3 did not answer within 1 s)")
        #expect(outcome(.timedOut, .quit, waited: 3000).error == "pipcam: quit sent, not yet confirmed (the pipcam on :3 did not answer within 3 s)")
        #expect(outcome(.timedOut, .switchSource(.next), waited: 10_000).error?.hasPrefix("pipcam: switch sent, not yet confirmed") == true)
        #expect(outcome(.timedOut, .status).error == "pipcam: no answer from the pipcam on :3 within 1 s")
        #expect(outcome(.timedOut, .playback(.seek(.frame(3))), waited: 1500).error == "pipcam: no answer from the pipcam on :3 within 1500 ms")
        #expect(outcome(.refused, .status).error == "pipcam: the pipcam on :3 refused the request")
    }

    @Test func aRequestLongerThanTheInstanceReadsIsBadInput() {
        let long = PipRequest.camera(.set([String(repeating: "a", count: ControlWire.requestLimit) + "=1"]))
        #expect(ControlOutcome.tooLong(long)?.exitCode == 2)
        #expect(ControlOutcome.tooLong(.camera(.set(["a=1"]))) == nil)
    }
}

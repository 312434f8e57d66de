import Testing
@testable import PipControl

@Suite struct ControlVerbTests {
    @Test func theUsageNamesEverySubcommandOnce() {
        let lines = ControlVerb.usageLines
        #expect(lines.first == "pipcam toggle|start|stop|status|quit|controls|pause [--name <name>]")
        #expect(lines.contains("pipcam seek <where> [--name <name>]"))
        let named = lines.flatMap { $0.split(separator: " ")[1].split(separator: "|").map(String.init) }
        #expect(named.sorted() == ControlVerb.allCases.map(\.name).sorted())
    }

    @Test func everySubcommandSaysWhatItDoesInOneSentence() {
        for verb in ControlVerb.allCases {
            #expect(verb.abstract.hasSuffix(".") && !verb.abstract.contains("\n"), "\(verb)")
        }
    }

    @Test func patienceIsLongerWhereTheAnswerWaitsForSomething() {
        #expect(ControlVerb.toggle.patienceMilliseconds == 3000 && ControlVerb.stop.patienceMilliseconds == 3000)
        #expect(ControlVerb.status.patienceMilliseconds == 1000 && ControlVerb.controls.patienceMilliseconds == 1000)
        #expect(ControlVerb.switch.patienceMilliseconds == 10_000)
        #expect(ControlVerb.seek.patienceMilliseconds == 4000 && ControlVerb.quit.patienceMilliseconds == 3000)
    }
}

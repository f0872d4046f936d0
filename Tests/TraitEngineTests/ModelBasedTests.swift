import Foundation
import TraitEngine
import XCTest

/// Random sequences of tree edits, overrides, mode switches, screen changes,
/// device screens, rotations, scene resizes, registrations and updates, on
/// each OS version, each checked step by step against the reference model in
/// TraitFlowModel.swift and TraitFlowModelWorld.swift (trait flow as
/// docs/guide.md, "The hierarchy and overrides", has it: outside any window
/// nothing updates; one delivery per change of a registered trait; size
/// classes from sizes and the version's rules as in docs/devices.md).
///
/// A failure prints its seed and a shrunk list of steps. Replay one sequence with
/// `TRAITLAB_MODEL_SEED=<seed> swift test --filter ModelBasedTests/<test>`;
/// `TRAITLAB_MODEL_SEQUENCES=<n>` runs more (or fewer) sequences per mode.
final class ModelBasedTests: XCTestCase {
    /// The fixed default: every run checks the same sequences unless told otherwise.
    private static let defaultSeed: UInt64 = 0x7A17_1AB5_EED0_0017
    private static let defaultSequences = 1_500
    private static let defaultFocusedSequences = 600

    func testRandomSequencesInIOS17Mode() {
        runRandomSequences(mode: .ios17, test: "testRandomSequencesInIOS17Mode")
    }

    func testRandomSequencesInLegacyMode() {
        runRandomSequences(mode: .legacy, test: "testRandomSequencesInLegacyMode")
    }

    /// Sequences on a device screen whose views read traits (mostly size
    /// classes) in layoutSubviews and updateProperties, made mostly of
    /// rotations, resizes and changes of what the views read: a change re-runs
    /// that work only from iOS 18, and updateProperties runs only on 26.
    func testRandomRotationsResizesAndTrackedReadsOnEachOS() {
        runRandomSequences(mode: .ios17, focus: true, sequences: Self.defaultFocusedSequences,
                           test: "testRandomRotationsResizesAndTrackedReadsOnEachOS")
    }

    private func runRandomSequences(mode: HierarchyMode, focus: Bool = false, sequences: Int = defaultSequences, test: String) {
        let env = ProcessInfo.processInfo.environment
        let seeds: [UInt64]
        if let text = env["TRAITLAB_MODEL_SEED"] {
            guard let seed = Self.parseSeed(text) else { return XCTFail("TRAITLAB_MODEL_SEED=\(text) is not a number") }
            seeds = [seed]
        } else {
            let count = env["TRAITLAB_MODEL_SEQUENCES"].flatMap { Int($0) } ?? sequences
            var seeder = SplitMix64(seed: Self.defaultSeed ^ (mode == .ios17 ? 0 : 0xFFFF) ^ (focus ? 0xF0C5 : 0))
            seeds = (0..<count).map { _ in seeder.next() }
        }
        for seed in seeds {
            var source = SplitMix64(seed: seed)
            let length = 30 + (source.choose(70) ?? 0)
            // The OS is chosen when the world starts and gives the flow
            // (legacy on 16); legacy-mode sequences on 17 and later switch
            // to the legacy flow after it. Half the sequences (all focused
            // ones) start on a device screen.
            let versions = mode == .legacy || focus ? [16, 17, 18, 26] : [17, 18, 26]
            let os = versions[source.choose(versions.count) ?? 0]
            let rows = ModelDevices.rows.count
            let device = source.choose(focus ? rows : 2 * rows).flatMap { $0 < rows ? $0 : nil }
            let ops = ModelGenerator.sequence(mode: mode == .legacy && os != 16 ? .legacy : nil, os: os, device: device,
                                              focus: focus, length: length, &source)
            guard let failure = ModelRunner.run(ops) else { continue }
            let shrunk = ModelRunner.shrink(failure)
            let seedText = "0x" + String(seed, radix: 16)
            XCTFail("""
                model-based sequence failed (\(mode) mode\(focus ? ", focused" : ""), seed \(seedText), \(failure.steps.count) steps, shrunk to \(shrunk.steps.count))
                replay: TRAITLAB_MODEL_SEED=\(seedText) swift test --filter ModelBasedTests/\(test)
                \(ModelRunner.report(shrunk))
                """)
            return
        }
    }

    private static func parseSeed(_ text: String) -> UInt64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return UInt64(t.dropFirst(2), radix: 16) }
        return UInt64(t)
    }

    /// Runs a fixed sequence (a shrunk failure kept as a regression test).
    private func assertSequencePasses(_ ops: [ModelOp], file: StaticString = #filePath, line: UInt = #line) {
        if let failure = ModelRunner.run(ops) {
            XCTFail(ModelRunner.report(failure), file: file, line: line)
        }
    }

    // MARK: Regressions found by the model

    /// Presenting a controller whose view contains the presenter's view was
    /// accepted; the presented view joins the presenter's window, so the views
    /// then contained each other and the next addSubview below them never returned.
    func testPresentingAControllerWhoseViewContainsThePresentersViewIsRefused() {
        assertSequencePasses([
            .setMode(.legacy), .newScreen([]), .newViewController, .loadView(1), .newViewController, .loadView(3),
            .addSubview(2, to: 4), .present(3, from: 1), .newView, .addSubview(5, to: 2), .update,
        ])
    }

    /// In legacy mode a child controller inherits from its parent even while
    /// its view is out of any window; a view loaded then inherits from the
    /// child, but was never marked, so it kept its empty collection.
    func testAViewLoadedUnderALegacyChildInAWindowGetsItsTraitsAtTheNextUpdate() {
        assertSequencePasses(ModelGenerator.prelude(mode: .legacy) + [
            .newViewController, .addChild(5, to: 3), .update, .loadView(5), .update,
        ])
    }

    /// In iOS 17 mode a child controller whose view is not loaded inherits
    /// from its parent. Presenting from such a child, then putting the
    /// parent's view inside the presented view, made the parent inherit from
    /// its own descendant: a loop that `ui.dump` walked for ever. Edits that
    /// would make a loop in either mode are refused.
    func testPuttingAControllerBelowItsOwnDescendantIsRefusedInBothModes() {
        for mode in HierarchyMode.allCases {
            // 0 P, 1 X (child of P, view not loaded), 2 Q presented by X (3 its
            // presentation controller, 4 its view), 5 P's view.
            let start: [ModelOp] = [
                .setMode(mode), .newViewController, .newViewController, .addChild(1, to: 0), .newViewController,
                .present(2, from: 1), .loadView(0),
            ]
            assertSequencePasses(start + [.addSubview(5, to: 4), .setMode(.ios17), .update, .setMode(.legacy), .update])
            // The same loop closed by the other two edits.
            assertSequencePasses([
                .setMode(mode), .newViewController, .newViewController, .newViewController, .loadView(0),
                .loadView(2), .addSubview(3, to: 4), .addChild(1, to: 0), .present(2, from: 1), .update,
            ])
            assertSequencePasses([
                .setMode(mode), .newViewController, .newViewController, .newViewController, .present(2, from: 1),
                .loadView(0), .addSubview(5, to: 4), .addChild(1, to: 0), .update,
            ])
        }
    }

    // MARK: The model itself

    func testTheModelAgreesWithAHandWrittenFlow() {
        // screen (light, scale 3) -> scene -> window -> root (theme bold) -> its view -> card
        assertSequencePasses(ModelGenerator.prelude(mode: .ios17) + [
            .setOverride(3, ModelSetting(4, 2)), .newView, .addSubview(5, to: 4),
            .register(5, traits: [4]), .update,
            .setOverride(5, ModelSetting(4, 0)), .update,     // an override to the default value
            .removeOverride(5, trait: 4), .update,
        ])
        var model = TraitFlowModel()
        for op in ModelGenerator.prelude(mode: .ios17) + [.setOverride(3, ModelSetting(4, 2)), .newView, .addSubview(5, to: 4)] {
            XCTAssertEqual(model.outcome(of: op), .applied, "\(op)")
            model.apply(op)
        }
        XCTAssertEqual(model.collectionsAfterUpdate()[5], [0: 1, 2: 2, 4: 2], "style light, scale 3, theme bold")
        XCTAssertTrue(model.isConnected(5))
    }

    /// The model alone, after `ops`: each step's outcome as listed (refused
    /// steps by index), then applied where it applies; updates as the harness
    /// runs them.
    private func model(after ops: [ModelOp], refusing refused: Set<Int> = [], file: StaticString = #filePath, line: UInt = #line) -> TraitFlowModel {
        var model = TraitFlowModel()
        for (i, op) in ops.enumerated() {
            let outcome = model.outcome(of: op)
            XCTAssertEqual(outcome, refused.contains(i) ? .refused : .applied, "step \(i): \(op)", file: file, line: line)
            if outcome == .applied { model.apply(op) }
            guard case .update = op else { continue }
            let after = model.collectionsAfterUpdate()
            var due: [Int: (layout: Bool, properties: Bool)] = [:]
            for v in model.ids(.view) where model.isConnected(v) {
                due[v] = model.renderWorkDue(v, before: model.nodes[v].current, after: after[v])
            }
            model.settleRenderWork(due)
            for (n, c) in zip(model.nodes, after) { n.current = c }
        }
        return model
    }

    /// Size classes from the HIG's tables: "iOS, iPadOS device size classes" and
    /// the multitasking table (revision of June 21, 2023),
    /// https://developer.apple.com/design/human-interface-guidelines/layout#Specifications
    func testTheModelTurnsAPhoneAndResizesAnIPadScene() {
        // iPhone 15 Pro Max (row 3): compact width, regular height in portrait,
        // regular width, compact height in landscape; no Home button, so it
        // does not turn upside down. The root's view registers for the
        // horizontal size class: the rotation delivers it once.
        let phone = ModelGenerator.prelude(mode: nil, os: 26, device: 3) + [
            .register(4, traits: [ModelTraits.horizontalSizeClass]), .rotate(0, to: .landscapeLeft), .update,
            .rotate(0, to: .portraitUpsideDown), .update,
        ]
        assertSequencePasses(phone)
        let turned = model(after: phone, refusing: [phone.count - 2]).collectionsAfterUpdate()[4]
        XCTAssertEqual(turned[ModelTraits.horizontalSizeClass], 2, "regular width in landscape")
        XCTAssertEqual(turned[ModelTraits.verticalSizeClass], 1, "compact height in landscape")

        // iPad Pro 12.9-inch (6th generation) (row 4): no 1/2 in portrait; in
        // landscape 1/2 is regular width; it cannot turn to portrait while a
        // scene is at 1/2; Slide Over is compact width; sizes must be positive.
        let pad = ModelGenerator.prelude(mode: nil, os: 26, device: 4) + [
            .resize(1, to: .half), .rotate(0, to: .landscapeRight), .resize(1, to: .half), .update,
            .rotate(0, to: .portrait), .resize(1, to: .custom(0, 500)), .update,
        ]
        let start = pad.count - 7
        assertSequencePasses(pad)
        var m = model(after: Array(pad[...(start + 3)]), refusing: [start])
        XCTAssertEqual(m.sceneSizeClasses(1), .rR)
        m = model(after: pad + [.resize(1, to: .slideOver)], refusing: [start, start + 4, start + 5])
        XCTAssertEqual(m.sceneSizeClasses(1), .cR)
        assertSequencePasses(pad + [.resize(1, to: .slideOver), .update, .rotate(0, to: .portrait), .update])
    }

    /// WWDC24 "What's new in UIKit" (automatic trait tracking from iOS 18);
    /// UIView.updateProperties(): "iOS 26.0+".
    func testTheModelReRunsTrackedWorkFromIOS18AndUpdatesPropertiesOnlyOn26() {
        for os in [16, 17, 18, 26] {
            // The root's view reads the horizontal size class; the window overrides it.
            let ops = ModelGenerator.prelude(mode: nil, os: os) + [
                .readTrait(4, trait: ModelTraits.horizontalSizeClass), .update,
                .setOverride(2, ModelSetting(ModelTraits.horizontalSizeClass, 2)),
            ]
            assertSequencePasses(ops + [.update])
            let m = model(after: ops)
            let due = m.renderWorkDue(4, before: m.nodes[4].current, after: m.collectionsAfterUpdate()[4])
            XCTAssertEqual(due.layout, os >= 18, "iOS \(os): layout re-runs")
            XCTAssertEqual(due.properties, os >= 26, "iOS \(os): updateProperties re-runs")
            XCTAssertEqual(m.mode, os == 16 ? .legacy : .ios17, "iOS \(os): flow")
        }
    }

    func testAFailingSequenceIsReportedWithItsSteps() {
        // A step the model refuses but a broken engine would accept shows up
        // as a failure naming that step; here the model itself is asked to
        // check an edit the engine refuses (adding a view below itself).
        let ops: [ModelOp] = [.newView, .addSubview(0, to: 0)]
        XCTAssertNil(ModelRunner.run(ops), "both refuse")
        var model = TraitFlowModel()
        model.apply(.newView)
        XCTAssertEqual(model.outcome(of: .addSubview(0, to: 0)), .refused)
    }
}

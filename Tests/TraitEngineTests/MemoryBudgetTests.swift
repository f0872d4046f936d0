@testable import TraitEngine
import XCTest

/// What the engine asks of a ``MemoryBudget`` before it allocates for a
/// caller (a host capping a script's memory: docs/sandbox.md, "Memory cap"), and that a
/// refusal leaves things as they were.
final class MemoryBudgetTests: XCTestCase {
    struct Refused: Error {}

    /// A budget that records what it is asked for and refuses past `cap`.
    final class Ledger {
        var asked = 0
        var cap = Int.max
        var budget: MemoryBudget {
            MemoryBudget(step: 1024) { [unowned self] bytes in
                guard self.asked + bytes <= self.cap else { throw Refused() }
                self.asked += bytes
            }
        }
    }

    // MARK: BudgetMeter

    func testAMeterAsksAStepAheadAndOnlyThen() throws {
        var calls: [Int] = []
        var meter = BudgetMeter(MemoryBudget(step: 100) { calls.append($0) })
        try meter.charge(10)
        XCTAssertEqual(calls, [100], "the first bytes ask for a whole step, before they are allocated")
        for _ in 0..<9 { try meter.charge(10) }
        XCTAssertEqual(calls, [100], "the step covers them")
        try meter.charge(1)
        XCTAssertEqual(calls, [100, 100])
        try meter.charge(500)
        XCTAssertEqual(calls, [100, 100, 401], "an estimate bigger than a step asks for what it lacks at once")
    }

    func testAMeterWithoutABudgetAsksNothing() throws {
        var meter = BudgetMeter(nil)
        try meter.charge(.max / 2)
    }

    // MARK: JSON

    func testParsingAsksForTheValueAsItIsBuiltAndStopsAtARefusal() throws {
        let doc = "[" + Array(repeating: #"{"a":[1,2,3],"b":"a string longer than fifteen bytes"}"#, count: 2000).joined(separator: ",") + "]"
        let ledger = Ledger()
        let value = try JSONValue.parse(doc, budget: ledger.budget)
        XCTAssertEqual(value, try JSONValue.parse(doc), "a budget changes nothing but what is asked")
        XCTAssertGreaterThan(ledger.asked, 2000 * 10 * MemoryLayout<JSONValue>.stride, "every value of the tree was asked for")
        let tight = Ledger()
        tight.cap = ledger.asked / 10
        XCTAssertThrowsError(try JSONValue.parse(doc, budget: tight.budget)) { XCTAssertTrue($0 is Refused, "\($0)") }
        XCTAssertLessThanOrEqual(tight.asked, ledger.asked / 10, "stopped where the budget refused")
    }

    func testAStringIsAskedForBeforeItIsRead() throws {
        let ledger = Ledger()
        ledger.cap = 10_000
        let doc = "\"" + String(repeating: "x", count: 100_000) + "\""
        XCTAssertThrowsError(try JSONValue.parse(doc, budget: ledger.budget))
        XCTAssertLessThanOrEqual(ledger.asked, 10_000)
    }

    func testDecodingACollectionAsksForItsTables() throws {
        let registry = TraitRegistry()
        let items = try makeTrait("Items", .table, default: .table(TraitTable()), identifier: "app.items")
        try registry.register(items)
        let doc = #"{"app.items":["# + Array(repeating: "[1,2,3]", count: 5000).joined(separator: ",") + "]}"
        let ledger = Ledger()
        let tc = try TraitCollection.decode(json: doc, registry: registry, budget: ledger.budget)
        XCTAssertEqual(tc, try TraitCollection.decode(json: doc, registry: registry))
        XCTAssertGreaterThan(ledger.asked, 5000 * 4 * MemoryLayout<TraitTable.Entry>.stride)
    }

    // MARK: Descriptions cut short

    func testADescriptionCutShortStartsAsTheWholeOneAndIsBounded() {
        let table = TraitValue.table(TraitTable((1...10_000).map { .init(key: .string("key\($0)"), value: .int($0)) }))
        let whole = describe(table)
        let cut = describe(table, maxBytes: 100)
        XCTAssertTrue(cut.isCut)
        XCTAssertTrue(whole.hasPrefix(cut.text))
        XCTAssertLessThan(cut.text.utf8.count, 200, "no bigger than the bytes asked for and one more piece")
        let small = TraitValue.table(TraitTable(array: [.string("a"), .number(1.5), .bool(true)]))
        XCTAssertEqual(describe(small, maxBytes: 100).text, describe(small))
        XCTAssertFalse(describe(small, maxBytes: 100).isCut)
        let long = TraitValue.string(String(repeating: "é", count: 1000))
        XCTAssertTrue(describe(long).hasPrefix(describe(long, maxBytes: 11).text.dropLast()), "a string is cut, not copied whole")
        XCTAssertLessThan(describe(long, maxBytes: 11).text.utf8.count, 20)
    }

    // MARK: Updates

    func testAnUpdateAsksForTheCollectionsItMakesAndARefusalLeavesThemAsTheyWere() throws {
        let s = try Stage()
        var defs: [TraitDefinition] = []
        for i in 0..<200 {
            let d = try makeTrait("T\(i)", .integer, default: .int(0))
            defs.append(d)
            try s.window.setTraitOverride(d, .int(i + 1))
        }
        let views = try (0..<50).map { i -> View in
            let v = try s.addView("v\(i)", to: s.rootView)
            try v.setTraitOverride(defs[0], .int(-i))
            return v
        }
        let ledger = Ledger()
        ledger.cap = 10 * 200 * MemoryLayout<TraitCollection.Entry>.stride   // about ten views' collections
        s.world.memoryBudget = ledger.budget
        XCTAssertThrowsError(try s.world.update()) { XCTAssertTrue($0 is Refused, "\($0)") }
        let updated = views.filter { $0.traitCollection[defs[1]] == .int(2) }
        XCTAssertLessThan(updated.count, views.count, "refused before every view's collection was made")
        ledger.cap = .max
        try s.world.update()
        XCTAssertEqual(views.map { $0.traitCollection[defs[0]] }, (0..<50).map { .int(-$0) }, "what was left stayed pending")
        XCTAssertTrue(views.allSatisfy { $0.traitCollection[defs[199]] == .int(200) })
    }
}

@testable import TraitEngine
import XCTest

/// The system colour table (SystemColors.swift): every cell is hex, so every
/// row is a colour of the palette (a row with a typo would be left out).
final class SystemColorTableTests: XCTestCase {
    func testEveryRowOfTheTableMakesAColour() {
        for row in SystemColorTable.rows + SystemColorTable.rows26 {
            XCTAssertNotNil(SystemColors.make(row), "row \(row.name) has a cell that is not #RRGGBB or #RRGGBBAA")
        }
    }

    func testThePalettesHoldEveryRow() {
        for row in SystemColorTable.rows {
            XCTAssertNotNil(SystemColors.color(named: row.name, os: OSVersion("18")!), row.name)
        }
        for row in SystemColorTable.rows26 {
            XCTAssertNotNil(SystemColors.color(named: row.name, os: .newest), row.name)
        }
    }

    func testAClampedColourStaysInRange() {
        let c = Color(clampingRed: -1, green: 2, blue: .nan, alpha: 0.5)
        XCTAssertEqual([c.red, c.green, c.blue, c.alpha], [0, 1, 0, 0.5])
    }
}

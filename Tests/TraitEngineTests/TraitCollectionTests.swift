@testable import TraitEngine
import XCTest

/// Immutable collections: canonical form, equality, diffs and sharing (docs/guide.md, "Traits and trait collections").
final class TraitCollectionTests: XCTestCase {
    func testAnUnsetTraitReadsItsDefault() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertEqual(tc[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(tc[Sys.horizontalSizeClass], .string("unspecified"))
        XCTAssertEqual(tc[Sys.displayScale], .number(0))
        XCTAssertEqual(tc[Sys.typesettingLanguage], TraitValue.none)
    }

    func testAValueEqualToTheDefaultIsNotStored() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("unspecified") }
        XCTAssertTrue(tc.entries.isEmpty)
        XCTAssertEqual(tc, TraitCollection.empty)
        XCTAssertEqual(tc.hashValue, TraitCollection.empty.hashValue)
    }

    func testCollectionsBuiltInAnyOrderAreEqualAndHashEqual() throws {
        let theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))
        let a = TraitCollection { t in
            t[theme] = .string("bold")
            t[Sys.horizontalSizeClass] = .string("regular")
        }
        let b = TraitCollection { t in
            t[Sys.horizontalSizeClass] = .string("compact")
            t[theme] = .string("bold")
            t[Sys.horizontalSizeClass] = .string("regular")
        }
        XCTAssertFalse(a === b)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertEqual(Set([a, b]).count, 1)
        XCTAssertEqual(a.entries.map(\.definition.id), a.entries.map(\.definition.id).sorted())
    }

    func testCollectionsWithDifferentValuesAreNotEqual() {
        let a = TraitCollection { $0[Sys.horizontalSizeClass] = .string("regular") }
        let b = TraitCollection { $0[Sys.horizontalSizeClass] = .string("compact") }
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, TraitCollection.empty)
    }

    func testChangedTraitsListsEachDifferingTraitOnce() {
        let a = TraitCollection { t in
            t[Sys.userInterfaceStyle] = .string("dark")
            t[Sys.horizontalSizeClass] = .string("compact")
            t[Sys.displayScale] = .number(2)
        }
        let b = TraitCollection { t in
            t[Sys.userInterfaceStyle] = .string("dark")
            t[Sys.horizontalSizeClass] = .string("regular")
            t[Sys.verticalSizeClass] = .string("compact")
        }
        let expected = [Sys.horizontalSizeClass, Sys.verticalSizeClass, Sys.displayScale].sorted { $0.id < $1.id }
        XCTAssertEqual(a.changedTraits(from: b), expected)
        XCTAssertEqual(b.changedTraits(from: a), expected)
    }

    func testChangedTraitsIsEmptyForEqualCollections() {
        let a = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        let b = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertEqual(a.changedTraits(from: b), [])
        XCTAssertEqual(a.changedTraits(from: a), [])
    }

    func testModifyingTraitsReturnsTheSameCollectionWhenNothingChanges() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertTrue(tc.modifyingTraits { _ in } === tc)
        XCTAssertTrue(tc.modifyingTraits { $0[Sys.userInterfaceStyle] = .string("dark") } === tc)
        XCTAssertTrue(tc.modifyingTraits { $0[Sys.horizontalSizeClass] = .string("unspecified") } === tc)
        XCTAssertTrue(tc.modifyingTraits { t in
            t[Sys.userInterfaceStyle] = .string("light")
            t[Sys.userInterfaceStyle] = .string("dark")
        } === tc)
    }

    func testModifyingTraitsGivesANewCollectionAndLeavesTheOriginalAlone() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        let other = tc.modifyingTraits { $0[Sys.horizontalSizeClass] = .string("compact") }
        XCTAssertFalse(other === tc)
        XCTAssertEqual(other[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(other[Sys.horizontalSizeClass], .string("compact"))
        XCTAssertEqual(tc[Sys.horizontalSizeClass], .string("unspecified"))
    }

    func testModifyingTraitsCanResetATraitToItsDefault() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertEqual(tc.modifyingTraits { $0[Sys.userInterfaceStyle] = .string("unspecified") }, .empty)
    }

    func testMutableTraitsReadBackWhatWasWritten() {
        _ = TraitCollection { t in
            XCTAssertEqual(t[Sys.userInterfaceStyle], .string("unspecified"))
            t[Sys.userInterfaceStyle] = .string("dark")
            XCTAssertEqual(t[Sys.userInterfaceStyle], .string("dark"))
            XCTAssertTrue(t.hasChanges)
        }
    }

    /// MutableTraits keeps what was written sorted by definition id as it
    /// goes (the merge with the base needs no sorted copy): every order of
    /// writes over a base, with a rewrite and a reset to the default, reads
    /// back what was written last and gives the same canonical collection.
    func testWritesInAnyOrderOverABaseGiveOneCanonicalCollection() throws {
        let theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))
        let base = TraitCollection { t in
            t[Sys.horizontalSizeClass] = .string("compact")
            t[Sys.userInterfaceStyle] = .string("dark")
        }
        let writes: [(TraitDefinition, TraitValue)] = [
            (theme, .string("bold")), (Sys.displayScale, .number(2)),
            (Sys.userInterfaceStyle, .string("unspecified")),   // back to the default: left out
            (Sys.verticalSizeClass, .string("regular")),
        ]
        var expected: TraitCollection?
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
            let tc = base.modifyingTraits { t in
                t[Sys.verticalSizeClass] = .string("compact")   // rewritten below
                for i in order { t[writes[i].0] = writes[i].1 }
                for (d, v) in writes { XCTAssertEqual(t[d], v, "\(d.name) after writes in order \(order)") }
                XCTAssertEqual(t[Sys.horizontalSizeClass], .string("compact"), "the base's value")
            }
            XCTAssertEqual(tc.entries.map(\.definition.id), tc.entries.map(\.definition.id).sorted(), "order \(order)")
            XCTAssertEqual(tc[Sys.userInterfaceStyle], .string("unspecified"))
            XCTAssertEqual(tc[Sys.verticalSizeClass], .string("regular"))
            XCTAssertEqual(tc.entries.count, 4, "size class, scale, vertical class, theme: \(tc)")
            if let expected { XCTAssertEqual(tc, expected, "order \(order)") } else { expected = tc }
            // Over an empty base the writes become the entries themselves
            // (MutableTraits.canonicalEntries): sorted, with the default left out.
            let fresh = TraitCollection { t in for i in order { t[writes[i].0] = writes[i].1 } }
            XCTAssertEqual(fresh.entries.map(\.definition.id), [Sys.verticalSizeClass, Sys.displayScale, theme].map(\.id).sorted(),
                           "order \(order): \(fresh)")
            XCTAssertEqual(fresh, TraitCollection { t in for (d, v) in writes.reversed() { t[d] = v } })
        }
    }

    func testMutableTraitsSetChecksTheValue() {
        XCTAssertThrowsError(try TraitCollection { try $0.set(Sys.horizontalSizeClass, .string("huge")) }) { error in
            XCTAssertTrue(message(of: error).contains("valid cases of UIHorizontalSizeClass"), message(of: error))
        }
        XCTAssertEqual(try TraitCollection { try $0.set(Sys.displayScale, .int(2)) }[Sys.displayScale], .number(2))
    }

    func testApplyingNoOverridesSharesTheCollection() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertTrue(tc.applying([]) === tc)
    }

    func testApplyingOverridesThatChangeNothingSharesTheCollection() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        XCTAssertTrue(tc.applying([.init(definition: Sys.userInterfaceStyle, value: .string("dark"))]) === tc)
        XCTAssertTrue(tc.applying([.init(definition: Sys.horizontalSizeClass, value: .string("unspecified"))]) === tc)
    }

    func testApplyingOverridesReplacesAndAddsValues() {
        let tc = TraitCollection { t in
            t[Sys.userInterfaceStyle] = .string("dark")
            t[Sys.displayScale] = .number(3)
        }
        let result = tc.applying([
            .init(definition: Sys.userInterfaceStyle, value: .string("light")),
            .init(definition: Sys.horizontalSizeClass, value: .string("regular")),
        ])
        XCTAssertEqual(result, TraitCollection { t in
            t[Sys.userInterfaceStyle] = .string("light")
            t[Sys.horizontalSizeClass] = .string("regular")
            t[Sys.displayScale] = .number(3)
        })
    }

    func testApplyingAnOverrideEqualToTheDefaultRemovesTheInheritedValue() {
        let tc = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        let result = tc.applying([.init(definition: Sys.userInterfaceStyle, value: .string("unspecified"))])
        XCTAssertEqual(result, .empty)
        XCTAssertTrue(result.entries.isEmpty)
    }

    func testDescriptionListsOnlyTheValuesThatDifferFromDefaults() throws {
        let theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))
        let tc = TraitCollection { t in
            t[theme] = .string("pastel")
            t[Sys.userInterfaceStyle] = .string("dark")
        }
        XCTAssertTrue(tc.description.contains(#"userInterfaceStyle = "dark""#), tc.description)
        XCTAssertTrue(tc.description.contains(#"theme = "pastel""#), tc.description)
        XCTAssertFalse(tc.description.contains("horizontalSizeClass"), tc.description)
        XCTAssertEqual(TraitCollection.empty.description, "TraitCollection()")
    }
}

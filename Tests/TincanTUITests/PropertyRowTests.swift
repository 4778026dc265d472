import Testing
import TincanCore
@testable import TincanTUI

@Suite("The properties panel's rows")
struct PropertyRowTests {
    @Test("the observed properties come first, in the core's listing order, under their AFNetworking names")
    func observedRowsFollowTheCore() {
        let observed = PropertyRow.allCases.prefix { $0.property != nil }
        #expect(observed.compactMap(\.property) == ObservedProperty.listingOrder)
        #expect(observed.map(\.label) == ObservedProperty.listingOrder.map(\.afNetworkingName))
        #expect(observed.map(\.label).first == "timeoutInterval", "the text shown is unchanged")
        #expect(PropertyRow.allCases.dropFirst(observed.count).allSatisfy { $0.property == nil })
    }
}

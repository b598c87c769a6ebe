import CommissionCore
import CommissionKit

/// A body the API reads without `JSONDecoder` when it is a flat object of scalars
/// (``FlatJSON``): every sale entered is one. `init(members:)` is nil wherever `JSONDecoder`
/// might read the members otherwise or refuse them (a value of another type); the body then goes
/// to `JSONDecoder`, which decodes it or says what is wrong with it.
package protocol FlatDecodable: Decodable {
    init?(members: [(key: String, value: FlatJSON.Value)])
}

extension API.SaleInput: FlatDecodable {
    /// As its synthesized `Decodable` reads it: a member it does not know is left aside, `null`
    /// is nil, and nothing is converted (`"quantity": "2"` goes to `JSONDecoder`, which refuses it).
    package init?(members: [(key: String, value: FlatJSON.Value)]) {
        self.init()
        for (key, value) in members {
            let isRead =
                switch key {
                case "clinicId": Self.read(value, into: &clinicId, \.integer)
                case "clinic": Self.read(value, into: &clinic, \.string)
                case "productId": Self.read(value, into: &productId, \.integer)
                case "product": Self.read(value, into: &product, \.string)
                case "date": Self.read(value, into: &date, \.string)
                case "quantity": Self.read(value, into: &quantity, \.integer)
                case "unitPrice": Self.read(value, into: &unitPrice, \.string)
                case "unitCost": Self.read(value, into: &unitCost, \.string)
                case "discount": Self.read(value, into: &discount, \.string)
                case "noCommission": Self.read(value, into: &noCommission, \.bool)
                case "note": Self.read(value, into: &note, \.string)
                default: true
                }
            guard isRead else { return nil }
        }
    }

    /// `value` into `field` when it is of the field's type (`null` is nil); false when it is not.
    private static func read<T>(_ value: FlatJSON.Value, into field: inout T?, _ typed: (FlatJSON.Value) -> T?) -> Bool
    {
        if value == .null {
            field = nil
            return true
        }
        guard let typed = typed(value) else { return false }
        field = typed
        return true
    }
}

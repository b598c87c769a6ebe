import Mustache
import Synchronization

/// A value a template reads by name, found in one step: swift-mustache otherwise finds a name by
/// reflecting every stored property of the value (`Mirror.children.filter`) at each `{{name}}`,
/// and again at each level of the context it climbs — on a page of 500 products, two thirds of the
/// page's time (measured: the Sale page at 500 products and 50 clinics, 51 ms, 70% in
/// `Mirror.getValue`). Here a type's names are indexed once per process, and a name reads its one
/// property. The values are the same as reflection gives (an optional read as its value or as
/// nothing), so a template reads a conforming type exactly as it read it before.
package protocol TemplateValues: MustacheParent {}

extension TemplateValues {
    package func child(named name: String) -> Any? {
        // A name the type does not have (the template climbing to an outer value) is known from
        // the index alone: no reflection of this value.
        guard let offset = TemplateNames.offset(of: name, in: Self.self, learning: { Mirror(reflecting: self) })
        else { return nil }
        let children = Mirror(reflecting: self).children
        return TemplateNames.unwrapped(children[children.index(children.startIndex, offsetBy: offset)].value)
    }
}

/// Each template-read type's property names and their places, learnt at its first reading.
enum TemplateNames {
    private static let known = Mutex<[ObjectIdentifier: [String: Int]]>([:])

    static func offset(of name: String, in type: Any.Type, learning mirror: () -> Mirror) -> Int? {
        let key = ObjectIdentifier(type)
        if let names = known.withLock({ $0[key] }) { return names[name] }
        let mirror = mirror()
        // A struct's stored properties are its mirror's children in a fixed order; a class's
        // (its superclass's apart) or an enum's are not read this way.
        assert(mirror.displayStyle == .struct, "TemplateValues is for structs: \(type)")
        var names: [String: Int] = [:]
        for (offset, child) in mirror.children.enumerated() {
            if let label = child.label, names[label] == nil { names[label] = offset }
        }
        known.withLock { $0[key] = names }
        return names[name]
    }

    /// An optional as its value, or nil for none (as swift-mustache's own reading does).
    static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any TemplateOptional else { return value }
        return optional.templateValue
    }
}

/// An optional, read as its value or as nothing: a cast, where a mirror of every value read cost
/// a tenth of a page of many rows.
protocol TemplateOptional {
    var templateValue: Any? { get }
}

extension Optional: TemplateOptional {
    var templateValue: Any? { map { $0 } }
}

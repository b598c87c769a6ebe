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
        let mirror = Mirror(reflecting: self)
        guard let offset = TemplateNames.offset(of: name, in: Self.self, mirror: mirror) else { return nil }
        let value = mirror.children[mirror.children.index(mirror.children.startIndex, offsetBy: offset)].value
        return TemplateNames.unwrapped(value)
    }
}

/// Each template-read type's property names and their places, learnt at its first reading.
enum TemplateNames {
    private static let known = Mutex<[ObjectIdentifier: [String: Int]]>([:])

    static func offset(of name: String, in type: Any.Type, mirror: Mirror) -> Int? {
        // A struct's stored properties are its mirror's children in a fixed order; a class's
        // (its superclass's apart) or an enum's are not read this way.
        assert(mirror.displayStyle == .struct, "TemplateValues is for structs: \(type)")
        let key = ObjectIdentifier(type)
        if let names = known.withLock({ $0[key] }) { return names[name] }
        var names: [String: Int] = [:]
        for (offset, child) in mirror.children.enumerated() {
            if let label = child.label, names[label] == nil { names[label] = offset }
        }
        known.withLock { $0[key] = names }
        return names[name]
    }

    /// An optional as its value, or nil for none (as swift-mustache's own reading does).
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}

import CommissionCore
import Foundation

/// What every store does with what people type, so that each implementation trims, refuses and
/// computes alike.
public enum StoreInput {
    /// A name as it is kept and compared: trimmed, its runs of spaces (of any width) one space,
    /// in Unicode's composed form (NFC), so that "Café" typed on two keyboards is one name.
    ///
    /// Refused: empty, longer than 200 characters, or with what would make two names that look
    /// alike differ — a control code, an invisible character (zero-width spaces and joiners,
    /// direction marks, tag characters: Unicode's default-ignorable code points), or a word that
    /// mixes Latin, Greek and Cyrillic letters ("Glоw" with a Cyrillic о).
    public static func name(_ name: String, field: String) throws -> String {
        // Counted as given, in Unicode scalars, as the API's document (JSON Schema's maxLength) counts them.
        guard name.unicodeScalars.count <= 200 else {
            throw StoreError.invalid(field: field, reason: "it is longer than 200 characters.")
        }
        let trimmed = name.trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty else { throw StoreError.invalid(field: field, reason: "it is empty.") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.invalid(
                field: field,
                reason: "it contains a control character (a tab, a line break or an invisible code)."
            )
        }
        guard !trimmed.unicodeScalars.contains(where: isDirectionOverride) else {
            throw StoreError.invalid(
                field: field,
                reason:
                    "it contains an invisible character that reverses the direction of text (U+202A–U+202E, U+2066–U+2069), which can make a name read as another."
            )
        }
        if let invisible = trimmed.unicodeScalars.first(where: isInvisible) {
            throw StoreError.invalid(
                field: field,
                reason:
                    "it contains an invisible character (\(codePoint(invisible))), which would make it differ from a name that looks the same. Type it again without it."
            )
        }
        let normalised = comparable(trimmed)
        if let (word, scripts) = mixedScriptWord(normalised) {
            throw StoreError.invalid(
                field: field,
                reason:
                    "the word \"\(word)\" mixes \(scripts) letters, which makes it look like another name. Type it in one alphabet."
            )
        }
        return normalised
    }

    /// A name as it is compared, for looking one up (what ``name(_:field:)`` keeps, without its
    /// refusals): trimmed, spaces collapsed, NFC.
    public static func comparable(_ name: String) -> String {
        var collapsed = ""
        var pendingSpace = false
        for scalar in name.trimmingWhitespaceAndNewlines().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace { collapsed.unicodeScalars.append(" ") }
            pendingSpace = false
            collapsed.unicodeScalars.append(scalar)
        }
        return collapsed.precomposedStringWithCanonicalMapping
    }

    /// Finds the record of a name: by its comparable form (``comparable(_:)``), then — for one
    /// stored before names were kept in that form (two spaces in a row, letters decomposed) — by
    /// the name as typed. `find` throws ``StoreError/unknownClinic(_:)`` or
    /// ``StoreError/unknownProduct(_:)`` for a name it does not know.
    public static func lookUp<T>(_ name: String, _ find: (String) throws -> T) throws -> T {
        // Told apart scalar by scalar: Swift's == takes a decomposed "è" for a composed one, SQL does not.
        let (comparable, asTyped) = (comparable(name), name.trimmingWhitespace())
        do {
            return try find(comparable)
        } catch let error as StoreError
            where !asTyped.unicodeScalars.elementsEqual(comparable.unicodeScalars) && error.isUnknownName
        {
            return try find(asTyped)
        }
    }

    /// ``lookUp(_:_:)`` for a store that asks its database asynchronously.
    public static func lookUp<T>(_ name: String, _ find: (String) async throws -> T) async throws -> T {
        let (comparable, asTyped) = (comparable(name), name.trimmingWhitespace())
        do {
            return try await find(comparable)
        } catch let error as StoreError
            where !asTyped.unicodeScalars.elementsEqual(comparable.unicodeScalars) && error.isUnknownName
        {
            return try await find(asTyped)
        }
    }

    /// An account's user name as it is kept and compared: a name (``name(_:field:)``), then in
    /// compatibility form (NFKC: a full-width "ａlpha" is "alpha") and lower case, so that one
    /// person cannot be two accounts that read the same.
    public static func username(_ username: String) throws -> String {
        usernameKey(try name(username, field: "user name"))
    }

    /// A device's push subscription, checked: an endpoint URL of at most 2,048 characters, keys
    /// in base64url of their sizes (a P-256 point, a 16-byte secret), a label of at most 100.
    public static func pushDevice(
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String
    ) throws -> (endpoint: String, p256dh: String, auth: String, label: String) {
        let endpoint = endpoint.trimmingWhitespace()
        guard !endpoint.isEmpty, endpoint.utf8.count <= 2048, endpoint.hasPrefix("http") else {
            throw StoreError.invalid(
                field: "endpoint",
                reason: "a push subscription's endpoint is its push service's URL."
            )
        }
        func base64URL(_ text: String, _ length: ClosedRange<Int>, _ field: String) throws -> String {
            let text = text.trimmingWhitespace()
            guard length.contains(text.utf8.count),
                text.unicodeScalars.allSatisfy({
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
                            || $0 == "=")
                })
            else {
                throw StoreError.invalid(field: field, reason: "the subscription's \(field) key is not in base64url.")
            }
            return text
        }
        let label = String(label.trimmingWhitespace().prefix(100))
        return (
            endpoint, try base64URL(p256dh, 86...88, "p256dh"), try base64URL(auth, 22...24, "auth"),
            label.isEmpty ? "A browser" : label
        )
    }

    /// Reminder settings, checked: the end of her working day a minute of the day.
    public static func reminderSettings(_ settings: ReminderSettings) throws -> ReminderSettings {
        guard (0..<(24 * 60)).contains(settings.endOfDayMinute) else {
            throw StoreError.invalid(
                field: "time",
                reason: "the end of your working day is a time of day, 00:00 to 23:59."
            )
        }
        return settings
    }

    /// The form a user name is looked up in (sign-in, the sign-in slowdown's counts).
    public static func usernameKey(_ username: String) -> String {
        comparable(username).precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// The forms an account's name is looked up in: its key (``usernameKey(_:)``), then the name as
    /// typed, for an account made before names were kept as keys ("Élodie").
    public static func usernameLookups(_ username: String) -> (key: String, asTyped: String) {
        (usernameKey(username), username.trimmingWhitespaceAndNewlines())
    }

    /// Invisible characters: Unicode's default-ignorable code points (zero-width spaces and
    /// joiners, direction marks, word joiners, byte-order marks, tag characters, variation
    /// selectors…) and format characters, but for the two selectors of emoji presentation.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value != 0xFE0E && scalar.value != 0xFE0F else { return false }
        return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .format
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The alphabets whose letters look alike.
    private enum Alphabet: String, CaseIterable {
        case latin = "Latin", greek = "Greek", cyrillic = "Cyrillic"

        init?(_ scalar: Unicode.Scalar) {
            guard scalar.properties.isAlphabetic else { return nil }
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
                0xFF21...0xFF3A, 0xFF41...0xFF5A:
                self = .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: self = .cyrillic
            default: return nil
            }
        }
    }

    /// The first word mixing letters of two look-alike alphabets, and which ones.
    static func mixedScriptWord(_ name: String) -> (word: String, scripts: String)? {
        for word in name.split(separator: " ") {
            let found = Set(word.unicodeScalars.compactMap(Alphabet.init))
            if found.count > 1 {
                return (
                    String(word), Alphabet.allCases.filter(found.contains).map(\.rawValue).joined(separator: " and ")
                )
            }
        }
        return nil
    }

    /// The embedding, override and isolate marks of bidirectional text (U+202A–U+202E,
    /// U+2066–U+2069): invisible, they make text display in another order than it is stored.
    static func isDirectionOverride(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// A product with its name cleaned, an empty SKU as none, and no negative amount.
    public static func product(_ draft: ProductDraft, currency: Currency? = nil) throws -> ProductDraft {
        var cleaned = draft
        cleaned.name = try name(draft.name, field: "product name")
        cleaned.sku = draft.sku.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        if let sku = cleaned.sku {
            guard sku.unicodeScalars.count <= 200,
                !sku.unicodeScalars.contains(where: {
                    $0.properties.generalCategory == .control || isDirectionOverride($0)
                })
            else {
                throw StoreError.invalid(
                    field: "sku",
                    reason: "it is longer than 200 characters or contains a control character."
                )
            }
        }
        if draft.unitPrice.isNegative { throw SaleLineError.negativeAmount(field: "unit price") }
        if draft.unitCost.isNegative { throw SaleLineError.negativeAmount(field: "unit cost") }
        try SaleLine.checkUnitAmount(draft.unitPrice, field: "unit price", currency: currency)
        try SaleLine.checkUnitAmount(draft.unitCost, field: "unit cost", currency: currency)
        return cleaned
    }

    /// An idempotency key trimmed; refused when empty or longer than 200 characters.
    public static func idempotencyKey(_ key: String?) throws -> String? {
        guard let key = key?.trimmingWhitespace() else { return nil }
        guard !key.isEmpty && key.count <= 200 else {
            throw StoreError.invalid(field: "idempotency key", reason: "it must have 1 to 200 characters.")
        }
        return key
    }

    /// A note trimmed, nil when empty; refused beyond 1000 characters.
    public static func note(_ note: String?) throws -> String? {
        guard let note = note?.trimmingWhitespaceAndNewlines(), !note.isEmpty else { return nil }
        guard note.unicodeScalars.count <= 1000 else {
            throw StoreError.invalid(field: "note", reason: "it is longer than 1000 characters.")
        }
        guard !note.unicodeScalars.contains(where: isInvisibleControl) else {
            throw StoreError.invalid(
                field: "note",
                reason: "it contains an invisible control code (tabs and line breaks are fine)."
            )
        }
        return note
    }

    /// A control code other than tab, line feed and carriage return: never typed, and NUL is not
    /// text to PostgreSQL nor to SQLite's string functions.
    static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    /// `%text%` with `%`, `_` and `\` escaped, for a `LIKE … ESCAPE '\'` that matches a substring.
    public static func likePattern(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%\(escaped)%"
    }

    /// Book settings a store may keep: a time zone and a locale that exist.
    public static func check(_ settings: BookSettings) throws {
        guard TimeZone(identifier: settings.timeZoneIdentifier) != nil else {
            throw StoreError.invalid(
                field: "time zone",
                reason: "\"\(settings.timeZoneIdentifier)\" is not an IANA time zone such as Europe/London."
            )
        }
        guard LocaleStyle.isKnown(settings.localeIdentifier), settings.localeIdentifier.count <= 20 else {
            throw StoreError.invalid(
                field: "locale",
                reason: "\"\(settings.localeIdentifier)\" is not a locale such as en_US, en_GB or de_DE."
            )
        }
    }

    /// The import field an error is about (`"clinic"`, `"date"`, …), for the problem's column.
    public static func importField(for error: any Error) -> String? {
        switch error {
        case let error as DateOutOfRange:
            return error.field
        case let error as StoreError:
            switch error {
            case .unknownClinic, .archived(.clinics, _): return "clinic"
            case .unknownProduct, .archived(.products, _): return "product"
            case .duplicateName: return "name"
            case .duplicateSKU: return "sku"
            case .noTermsInForce, .periodClosed: return "date"
            case .invalid(let name, _): return name
            default: return nil
            }
        case let error as SaleLineError:
            switch error {
            case .zeroQuantity, .quantityTooLarge: return "quantity"
            case .negativeAmount(let name), .amountTooLarge(let name, _, _, _): return name
            case .discountExceedsLine: return "discount"
            }
        default:
            return nil
        }
    }
}

/// What a book's settings decide for every change that enters it: how commissions round, and the
/// dates it takes (`AcceptedDays`, from today in the book's time zone). Made once per change, or
/// once per import.
public struct EntryRules: Sendable, Hashable {
    public var rounding: RoundingRule
    public var days: AcceptedDays
    /// The book's currency, which an error about an amount writes it in.
    public var currency: Currency

    public init(rounding: RoundingRule, days: AcceptedDays, currency: Currency = .usd) {
        self.rounding = rounding
        self.days = days
        self.currency = currency
    }

    public init(_ settings: BookSettings, now: Date = Date()) {
        self.init(
            rounding: settings.rounding.rule,
            days: AcceptedDays(today: settings.today(now: now)),
            currency: settings.currency
        )
    }
}

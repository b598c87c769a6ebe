import CommissionCore
import CommissionKit
import CommissionStore
import Crypto
import Foundation
import Hummingbird
import Logging

/// What reaches her when she is not looking (Settings → Notifications): her devices' push
/// subscriptions, which reminders and when, a test notification, and her pay dates as a calendar
/// feed her phone's calendar subscribes to (`/calendar/SECRET.ics`, no sign-in: the secret is the
/// key, kept as its digest, renewed or turned off here).
struct NotificationsJob: Job {
    let app: WebApp
    init(_ app: WebApp) { self.app = app }

    static let path = "/settings/notifications"
    static let calendarPath = "/calendar/"

    func registerPublic<G>(on router: Registrar<G>) {
        router.get("/calendar/:file") { request, context in try await calendarFeed(request, context: context) }
    }

    func registerPages<G>(on pages: Registrar<G>) {
        pages.get(Self.path) { _, context in try await page(context: context) }
        pages.post(Self.path) { request, context in
            let form = try await Form.read(request, context: context)
            return try await app.form {
                let minute = try Problem.about("time") { try Self.minute(form["time"] ?? "") }
                try await app.store.setReminderSettings(
                    ReminderSettings(
                        endOfDay: form["endOfDay"] != nil,
                        lateClinics: form["lateClinics"] != nil,
                        endOfDayMinute: minute
                    ),
                    of: try app.account(context).id
                )
                return try await page(context: context, message: "Notifications saved.")
            } refused: { refusal in
                try await page(context: context, error: refusal.detail, status: .init(code: refusal.status))
            }
        }
        pages.post(Self.path + "/devices") { request, context in
            let form = try await Form.read(request, context: context)
            return try await app.form {
                try await addDevice(
                    account: try app.account(context).id,
                    endpoint: form["endpoint"] ?? "",
                    p256dh: form["p256dh"] ?? "",
                    auth: form["auth"] ?? "",
                    label: Self.deviceLabel(request.headers[.userAgent] ?? "")
                )
                return try await page(context: context, message: "Notifications are on for this device.")
            } refused: { refusal in
                try await page(context: context, error: refusal.detail, status: .init(code: refusal.status))
            }
        }
        pages.post(Self.path + "/devices/:id/remove") { _, context in
            let id = PushDevice.ID(try context.parameters.require("id", as: Int64.self))
            guard try await app.store.removePushDevice(id, of: try app.account(context).id) else {
                return try await page(context: context, error: "That device was removed already.", status: .notFound)
            }
            return try await page(context: context, message: "The device gets no more notifications.")
        }
        pages.post(Self.path + "/test") { _, context in try await sendTest(context: context) }
        pages.post("/settings/calendar") { request, context in
            let form = try await Form.read(request, context: context)
            let account = try app.account(context).id
            if form["action"] == "off" {
                try await app.store.setCalendarDigest(nil, of: account)
                return try await page(
                    context: context,
                    message: "Your calendar link is off: calendars that had it get nothing new."
                )
            }
            let secret = Secret.make()
            try await app.store.setCalendarDigest(Secret.digest(secret), of: account)
            return try await page(context: context, newCalendar: secret)
        }
    }

    func registerAPI<G>(on api: Registrar<G>) {
        api.get("/notifications") { _, context in
            let account = try app.account(context).id
            return try app.json(
                API.Notifications(
                    publicKey: app.configuration.pushTransport == nil
                        ? nil : try await WebPush.Identity.kept(in: app.store).publicKey,
                    settings: Self.json(try await app.store.reminderSettings(of: account)),
                    devices: try await app.store.pushDevices(of: account).map(Self.json)
                )
            )
        }
        api.post("/notifications/settings") { request, context in
            let input = try await app.body(API.ReminderSettingsInput.self, request, context: context)
            let account = try app.account(context).id
            var settings = try await app.store.reminderSettings(of: account)
            if let value = input.endOfDay { settings.endOfDay = value }
            if let value = input.lateClinics { settings.lateClinics = value }
            if let time = input.time { settings.endOfDayMinute = try Problem.about("time") { try Self.minute(time) } }
            try await app.store.setReminderSettings(settings, of: account)
            return try app.json(Self.json(settings))
        }
        api.post("/notifications/devices") { request, context in
            let input = try await app.body(API.PushSubscriptionInput.self, request, context: context)
            let device = try await addDevice(
                account: try app.account(context).id,
                endpoint: input.endpoint,
                p256dh: input.keys.p256dh,
                auth: input.keys.auth,
                label: input.label ?? Self.deviceLabel(request.headers[.userAgent] ?? "")
            )
            return try app.json(Self.json(device), status: .created)
        }
        api.post("/notifications/devices/:id/remove") { _, context in
            let id = PushDevice.ID(try context.parameters.require("id", as: Int64.self))
            guard try await app.store.removePushDevice(id, of: try app.account(context).id) else {
                throw Problem(.notFound, "There is no device \(id.rawValue) of yours.")
            }
            return Response(status: .noContent)
        }
        api.post("/notifications/test") { _, context in
            let result = try await sendTest(to: try app.account(context).id)
            return try app.json(API.TestNotificationResult(sent: result.sent, failed: result.failed))
        }
        api.post("/calendar") { _, context in
            let secret = Secret.make()
            try await app.store.setCalendarDigest(Secret.digest(secret), of: try app.account(context).id)
            let url = calendarURL(secret)
            return try app.json(API.CalendarLink(url: url, webcal: Self.webcal(url)), status: .created)
        }
        api.post("/calendar/revoke") { _, context in
            try await app.store.setCalendarDigest(nil, of: try app.account(context).id)
            return Response(status: .noContent)
        }
    }

    static func json(_ settings: ReminderSettings) -> API.ReminderSettings {
        API.ReminderSettings(
            endOfDay: settings.endOfDay,
            lateClinics: settings.lateClinics,
            time: String(format: "%02d:%02d", settings.endOfDayMinute / 60, settings.endOfDayMinute % 60)
        )
    }

    static func json(_ device: PushDevice) -> API.PushDevice {
        API.PushDevice(id: device.id.rawValue, label: device.label, createdAt: device.createdAt)
    }

    /// Keeps a device of `account`: refused when its endpoint is one the server may not call.
    @discardableResult
    func addDevice(
        account: Account.ID,
        endpoint: String,
        p256dh: String,
        auth: String,
        label: String
    ) async throws
        -> PushDevice
    {
        // What the store refuses is said first: the name is looked up only for a subscription that is one.
        _ = try StoreInput.pushDevice(endpoint: endpoint, p256dh: p256dh, auth: auth, label: label)
        if let refusal = await PushEndpointPolicy(allowUnsafe: app.configuration.unsafePushEndpoints).refusal(endpoint)
        {
            throw Problem(
                .unprocessableContent,
                "This browser's push service cannot be reached from the server: \(refusal)"
            )
        }
        return try await app.store.addPushDevice(
            account: account,
            endpoint: endpoint,
            p256dh: p256dh,
            auth: auth,
            label: label,
            now: app.configuration.clock.now
        )
    }

    func calendarURL(_ secret: String) -> String { app.configuration.linkBase + Self.calendarPath + secret + ".ics" }

    /// The feed's link as a calendar app opens it (`webcal:` for `http:` and `https:` alike).
    static func webcal(_ url: String) -> String { "webcal" + url.drop { $0 != ":" } }

    // MARK: The page

    func page(
        context: AppRequestContext,
        newCalendar: String? = nil,
        message: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let account = try app.account(context)
        let settings = try await app.store.settings()
        let chosen = try await app.store.reminderSettings(of: account.id)
        let devices = try await app.store.pushDevices(of: account.id)
        let link = newCalendar.map(calendarURL)
        let view = NotificationsPageView(
            canSend: app.configuration.pushTransport != nil,
            publicKey: app.configuration.pushTransport == nil
                ? "" : try await WebPush.Identity.kept(in: app.store).publicKey,
            endOfDay: chosen.endOfDay,
            lateClinics: chosen.lateClinics,
            time: String(format: "%02d:%02d", chosen.endOfDayMinute / 60, chosen.endOfDayMinute % 60),
            timeZone: settings.timeZoneIdentifier.replacingOccurrences(of: "_", with: " "),
            devices: devices.map {
                .init(
                    id: $0.id.rawValue,
                    label: $0.label,
                    since: settings.style.format(
                        Day($0.createdAt, in: TimeZone(identifier: settings.timeZoneIdentifier) ?? .current)
                    ),
                    endpoint: $0.endpoint
                )
            },
            calendarOn: try await app.store.calendarDigest(of: account.id) != nil,
            newCalendar: link,
            newCalendarWebcal: link.map(Self.webcal),
            localOnly: link != nil
                && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(URL(string: link ?? "")?.host ?? ""),
            csrf: context.csrfToken ?? ""
        )
        return try await app.page(
            "notifications",
            view: view,
            title: "Notifications & calendar",
            nav: "settings",
            context: context,
            status: status,
            message: message,
            error: error
        )
    }

    /// "Send a test notification": to each of her devices, said how it went.
    func sendTest(context: AppRequestContext) async throws -> Response {
        let account = try app.account(context).id
        guard try await !app.store.pushDevices(of: account).isEmpty else {
            return try await page(
                context: context,
                error:
                    "No device of yours gets notifications yet: turn them on above, on the phone or computer that should get them.",
                status: .conflict
            )
        }
        let result: (sent: Int, failed: [String])
        do {
            result = try await sendTest(to: account)
        } catch let problem as Problem {
            return try await page(context: context, error: problem.detail, status: .init(code: problem.status))
        }
        if result.failed.isEmpty {
            return try await page(
                context: context,
                message: result.sent == 1
                    ? "Sent: it should show on your device in a moment." : "Sent to \(result.sent) devices."
            )
        }
        return try await page(
            context: context,
            error: "Not every device could be reached. " + result.failed.joined(separator: "; ") + ".",
            status: result.sent > 0 ? .ok : .badGateway
        )
    }

    /// A test notification to each device of `account`: how many it reached, and each it did not, why.
    /// - Throws: a ``Problem`` (409) when the server sends none or she has no device.
    func sendTest(to account: Account.ID) async throws -> (sent: Int, failed: [String]) {
        guard let sender = try await app.pushSender() else {
            throw Problem(.conflict, "This server does not send notifications.")
        }
        let devices = try await app.store.pushDevices(of: account)
        guard !devices.isEmpty else {
            throw Problem(
                .conflict,
                "No device of this account gets notifications: subscribe one first (POST /api/v1/notifications/devices)."
            )
        }
        let test = Reminder(
            key: "test",
            title: "Commission",
            body: "This is how your reminders will look.",
            url: Self.path,
            topic: "test",
            ttl: 600
        )
        var sent = 0
        var failed: [String] = []
        for device in devices {
            // Once each: she is waiting for the page.
            switch await sender.send(test, to: device, store: app.store, attempts: 1) {
            case .sent: sent += 1
            case .gone:
                failed.append(
                    "\(device.label): its browser no longer has the subscription (removed; turn notifications on there again)"
                )
            case .refused(let why), .failed(let why): failed.append("\(device.label): \(why)")
            }
        }
        return (sent, failed)
    }

    // MARK: The calendar feed

    func calendarFeed(_ request: Request, context: AppRequestContext) async throws -> Response {
        let file = try context.parameters.require("file")
        guard file.hasSuffix(".ics"),
            let account = try await app.store.account(calendarDigest: Secret.digest(String(file.dropLast(4))))
        else {
            throw Problem(
                .notFound,
                "This calendar link is not (or no longer) one of Commission's: make a new one in Settings → Notifications."
            )
        }
        _ = account
        let settings = try await app.store.settings()
        let today = settings.today(now: app.configuration.clock.now)
        let dashboard = try await app.store.dashboard(today: today)
        let history = try await UnconfirmedHistory.asked(of: app.store, dashboard: dashboard)
        let clinics = try await ClinicPeriods.read(
            from: app.store,
            dashboard: dashboard,
            today: today,
            history: history
        )
        let host = URL(string: app.configuration.linkBase)?.host ?? "commission"
        let body = PayDatesCalendar(
            clinics: clinics,
            today: today,
            timeZone: settings.timeZoneIdentifier,
            style: settings.style,
            host: host
        ).text
        let tag = "\"" + SHA256.hash(data: Data(body.utf8)).prefix(12).hexadecimal + "\""
        var headers: HTTPFields = [
            .contentType: "text/calendar; charset=utf-8", .cacheControl: "private, no-cache", .eTag: tag,
        ]
        if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == tag
        }) == true {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    // MARK: Helpers

    /// "19:00" as minutes after midnight.
    static func minute(_ text: String) throws -> Int {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
            (0..<60).contains(minute)
        else {
            throw StoreError.invalid(
                field: "time",
                reason: "the end of your working day is a time of day, such as 19:00."
            )
        }
        return hour * 60 + minute
    }

    /// "Chrome on Android": what she recognises her device by, from its browser's User-Agent.
    static func deviceLabel(_ agent: String) -> String {
        let browser =
            agent.contains("Edg/")
            ? "Edge"
            : agent.contains("Firefox/")
                ? "Firefox"
                : agent.contains("Chrome/") || agent.contains("CriOS/")
                    ? "Chrome" : agent.contains("Safari/") ? "Safari" : "A browser"
        let system =
            agent.contains("Android")
            ? "Android"
            : agent.contains("iPhone")
                ? "iPhone"
                : agent.contains("iPad")
                    ? "iPad"
                    : agent.contains("Mac OS X")
                        ? "a Mac" : agent.contains("Windows") ? "Windows" : agent.contains("Linux") ? "Linux" : nil
        return system.map { "\(browser) on \($0)" } ?? browser
    }
}

extension WebApp {
    /// What sends her reminders from this app (a test notification), or nil when the server sends none.
    func pushSender() async throws -> PushSender? {
        guard let transport = configuration.pushTransport else { return nil }
        return PushSender(
            identity: try await WebPush.Identity.kept(in: store),
            contact: configuration.pushContact ?? configuration.linkBase,
            transport: transport,
            policy: PushEndpointPolicy(allowUnsafe: configuration.unsafePushEndpoints),
            clock: configuration.clock,
            logger: Logger(label: "commission.push")
        )
    }
}

extension WebPush.Identity {
    /// The server's VAPID identity, made once and kept in its database (the one that keeps the
    /// accounts): every server of a team signs with the same key, which her subscriptions name.
    package static func kept(in store: any SignInThrottleStore) async throws -> WebPush.Identity {
        let stored = try await store.serverSecret(named: "push-vapid", candidate: WebPush.Identity().stored)
        guard let identity = WebPush.Identity(stored: stored) else {
            throw StoreError.storage("the server's push identity in the database is not a P-256 key")
        }
        return identity
    }
}

/// Settings → Notifications (`notifications.mustache`).
package struct NotificationsPageView: PageView {
    package struct Device: Sendable, TemplateValues {
        let id: Int64, label: String, since: String
        /// Its push service's URL: the page's script tells by it whether this browser is one of them.
        let endpoint: String
        package init(id: Int64, label: String, since: String, endpoint: String) {
            (self.id, self.label, self.since, self.endpoint) = (id, label, since, endpoint)
        }
    }

    /// The server sends notifications (it has a way out to the push services).
    let canSend: Bool
    /// The server's VAPID public key, for the browser's subscription.
    let publicKey: String
    let endOfDay: Bool, lateClinics: Bool
    /// The end of her working day, "19:00", in the book's time zone (named).
    let time: String, timeZone: String
    let devices: [Device]
    let calendarOn: Bool
    /// The calendar link just made (shown once), and as a `webcal:` link that opens her calendar.
    let newCalendar: String?, newCalendarWebcal: String?
    /// The link names the server's own loopback address: no other device reaches it.
    let localOnly: Bool
    let csrf: String

    package init(
        canSend: Bool,
        publicKey: String,
        endOfDay: Bool,
        lateClinics: Bool,
        time: String,
        timeZone: String,
        devices: [Device],
        calendarOn: Bool,
        newCalendar: String?,
        newCalendarWebcal: String?,
        localOnly: Bool = false,
        csrf: String
    ) {
        (self.canSend, self.publicKey, self.endOfDay, self.lateClinics, self.time, self.timeZone) = (
            canSend, publicKey, endOfDay, lateClinics, time, timeZone
        )
        (self.devices, self.calendarOn, self.newCalendar, self.newCalendarWebcal, self.localOnly, self.csrf) = (
            devices, calendarOn, newCalendar, newCalendarWebcal, localOnly, csrf
        )
    }
}

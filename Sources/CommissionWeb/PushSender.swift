import CommissionStore
import Foundation
import Logging
import Synchronization

/// Where a push request goes out: AsyncHTTPClient in `serve` (``HTTPPushTransport``), a recorder
/// in tests.
public protocol PushTransport: Sendable {
    /// POSTs `body` to `url` with `headers`; the push service's status and its `Retry-After`.
    func post(_ url: URL, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, retryAfter: String?)
}

/// Sends her reminders to her devices' push services (RFC 8030): each message encrypted for its
/// subscription and signed with the server's VAPID identity; a device its push service says is
/// gone (404, 410) removed; a push service that asks to wait (429, 5xx) tried again after its
/// `Retry-After` (or a growing wait), a few times; never more than ``concurrency`` requests at once.
package struct PushSender: Sendable, TemplateValues {
    package let identity: WebPush.Identity
    /// The `sub` of the VAPID JWT: how a push service reaches whoever runs the server.
    package let contact: String
    package let transport: any PushTransport
    package let policy: PushEndpointPolicy
    package let clock: any WallClock
    /// How a wait is waited (the tests' clock moves instead).
    package let wait: @Sendable (Duration) async throws -> Void
    package let logger: Logger
    /// Requests in flight at once, across every book of the server.
    package static let concurrency = 64
    /// Tries of one message before it is given up.
    package static let attempts = 4
    /// The one set of slots of the process: every sender (the scheduler's, a test's) shares it.
    static let slots = Slots(concurrency)

    package init(
        identity: WebPush.Identity,
        contact: String,
        transport: any PushTransport,
        policy: PushEndpointPolicy,
        clock: any WallClock,
        wait: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger
    ) {
        (self.identity, self.contact, self.transport, self.policy, self.clock, self.wait, self.logger) = (
            identity, contact, transport, policy, clock, wait, logger
        )
    }

    /// What became of one message.
    package enum Outcome: Sendable, Equatable {
        case sent
        /// The push service no longer knows the subscription: the device is removed.
        case gone
        /// Not sent, for a reason to say (an endpoint refused, a malformed subscription).
        case refused(String)
        /// The push service kept refusing or did not answer.
        case failed(String)
    }

    /// Sends `reminder` to `device`, of `store` (which forgets a device that is gone), in at most
    /// `attempts` tries.
    package func send(
        _ reminder: Reminder,
        to device: PushDevice,
        store: any ReminderStore,
        attempts: Int = PushSender.attempts
    ) async -> Outcome {
        let outcome = await send(reminder, to: device, attempts: attempts)
        if outcome == .gone {
            do { try await store.removePushDevice(endpoint: device.endpoint) } catch {
                logger.warning(
                    "push: a device its push service no longer knows could not be removed: \(String(reflecting: error))"
                )
            }
        }
        return outcome
    }

    package func send(_ reminder: Reminder, to device: PushDevice, attempts: Int = PushSender.attempts) async -> Outcome
    {
        if let refusal = await policy.refusal(device.endpoint) { return .refused(refusal) }
        guard let url = URL(string: device.endpoint) else { return .refused("The endpoint is not a URL.") }
        let body: [UInt8]
        do {
            let subscription = try WebPush.Subscription(
                endpoint: device.endpoint,
                p256dh: device.p256dh,
                auth: device.auth
            )
            body = try WebPush.encrypt(reminder.payload, for: subscription)
        } catch {
            return .refused("\(error)")
        }
        await Self.slots.take()
        defer { Self.slots.give() }
        var last = "no answer"
        for attempt in 1...max(1, attempts) {
            let headers: [(String, String)]
            do {
                headers = [
                    (
                        "Authorization",
                        try identity.authorization(
                            endpoint: url,
                            contact: contact,
                            expires: clock.now.addingTimeInterval(12 * 3600)
                        )
                    ),
                    ("TTL", String(reminder.ttl)), ("Urgency", reminder.urgency), ("Topic", reminder.topic),
                    ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"),
                ]
            } catch {
                return .refused("\(error)")
            }
            let answer: (status: Int, retryAfter: String?)
            do {
                answer = try await transport.post(url, headers: headers, body: body)
            } catch {
                last = "\(error)"
                if attempt < attempts {
                    // try?: a wait cut short by cancellation ends with the next attempt
                    try? await wait(Self.backoff(attempt, retryAfter: nil, now: clock.now))
                }
                continue
            }
            switch answer.status {
            case 200..<300: return .sent
            case 404, 410: return .gone
            case 429, 500..<600:
                last = "the push service answered \(answer.status)"
                if attempt < attempts {
                    // try?: a wait cut short by cancellation ends with the next attempt
                    try? await wait(Self.backoff(attempt, retryAfter: answer.retryAfter, now: clock.now))
                }
            default:
                return .refused("the push service refused the message (\(answer.status))")
            }
        }
        return .failed(last)
    }

    /// How long to wait before attempt `attempt + 1`: the push service's `Retry-After` (seconds, or
    /// an HTTP date), else 2, 4, 8… seconds; never more than a minute.
    package static func backoff(_ attempt: Int, retryAfter: String?, now: Date) -> Duration {
        let cap = 60.0
        if let retryAfter {
            if let seconds = Double(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
                return .milliseconds(Int64(min(seconds, cap) * 1000))
            }
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = format.date(from: retryAfter) {
                return .milliseconds(Int64(min(max(0, date.timeIntervalSince(now)), cap) * 1000))
            }
        }
        return .seconds(min(Double(1 << min(attempt, 6)), cap))
    }
}

/// A count of free slots, taken and given back (a semaphore for tasks).
final class Slots: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Mutex((count, [])) }

    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
